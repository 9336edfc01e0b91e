#!/usr/bin/env bash
# scripts/bench-cart.sh — add-to-cart under load, on SQLite and on PostgreSQL.
#
#   scripts/bench-cart.sh [sqlite|postgres|both]     default both
#
# Steps: build the release server (`cargo build --release -p server`; skipped with
# ROSACE_BENCH_NO_BUILD=1), then for each engine: start it on 127.0.0.1:3110 with a
# scratch data folder (PostgreSQL: a fresh database from scripts/pg.sh) and
# ROSACE_BENCH_SEED=5000, which creates 5,000 members with sessions and writes their
# session and XSRF tokens to a file; then run wrk (-t2 -c64, a Lua script that rotates the
# members' cookies) against POST /api/cartproxy/v1/item in two scenarios:
#   scarce  one item with 100 units (ROSACE_BENCH_STOCK): a sale opening; most adds are
#           refused as out of stock once the units are held
#   plenty  one item with a million units: every add is a real hold (a write)
# and print requests/s, p50/p99 latency, answers by status, units held and sold, and
# units oversold (held + sold above the stock; must be 0, else the script fails).
#
# Environment:
#   ROSACE_BENCH_SECONDS=10     wrk duration per scenario
#   ROSACE_BENCH_MEMBERS=5000   members (sessions) rotated by the load
#   ROSACE_BENCH_STOCK=100      units of the scarce item
#   ROSACE_BENCH_NO_BUILD=1     reuse target/release/server
#   ROSACE_BENCH_KEEP=1         keep the scratch folder (server logs, wrk outputs)
#   CARGO_TARGET_DIR            where the release server binary is (default target/)
set -euo pipefail

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname -- "$SCRIPT_DIR")
SELF=$SCRIPT_DIR/$(basename -- "${BASH_SOURCE[0]}")
cd "$ROOT"

case ${1:-} in
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$SELF"; exit 0 ;;
esac
ENGINES=${1:-both}
case $ENGINES in
    both) ENGINES="sqlite postgres" ;;
    sqlite | postgres) ;;
    *) echo "usage: scripts/bench-cart.sh [sqlite|postgres|both]" >&2; exit 2 ;;
esac

SECONDS_PER_RUN=${ROSACE_BENCH_SECONDS:-10}
MEMBERS=${ROSACE_BENCH_MEMBERS:-5000}
UNITS=${ROSACE_BENCH_STOCK:-100}
ADDR=127.0.0.1:3110
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case $TARGET_DIR in /*) ;; *) TARGET_DIR=$ROOT/$TARGET_DIR ;; esac
SERVER_BIN=$TARGET_DIR/release/server

die() { echo "bench-cart.sh: $*" >&2; exit 1; }
note() { echo "bench-cart.sh: $*" >&2; }

for tool in curl wrk awk python3; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found"
done

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench-cart.XXXXXX")
SERVER_PID=

stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 20); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.25
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}
cleanup() {
    stop_server
    if [ "${ROSACE_BENCH_KEEP:-0}" = 1 ]; then note "scratch folder kept: $SCRATCH"; else rm -rf "$SCRATCH"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release server (cargo build --release -p server)"
    cargo build --release -p server --bin server >&2
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
if curl -s -o /dev/null --max-time 2 "http://$ADDR/health" 2>/dev/null; then
    die "something already answers on $ADDR: stop it first"
fi

# wrk script: each request takes the next member (per thread, from a different offset).
cat >"$SCRATCH/add.lua" <<'LUA'
local members = {}
local option = nil
local i = 0
counts = {}
local threads = {}

function setup(thread)
  thread:set("offset", #threads * 7919)
  table.insert(threads, thread)
end

function init(args)
  option = args[2]
  for line in io.lines(args[1]) do
    local id, token, xsrf = line:match("^(%d+) (%x+) (%S+)$")
    if id then table.insert(members, { token = token, xsrf = xsrf }) end
  end
  i = offset or 0
end

function request()
  i = i + 1
  local m = members[(i % #members) + 1]
  local body = '{"product_id":"' .. option .. '","quantity":1,"cart_type":"fs"}'
  return wrk.format("POST", "/api/cartproxy/v1/item", {
    ["Content-Type"] = "application/json",
    ["Cookie"] = "rosace_session=" .. m.token .. "; XSRF-TOKEN=" .. m.xsrf,
    ["X-XSRF-TOKEN"] = m.xsrf,
  }, body)
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local c = t:get("counts")
    for k, v in pairs(c) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, k .. ":" .. v) end
  table.sort(parts)
  io.write("STATUSES " .. table.concat(parts, " ") .. "\n")
end
LUA

# held, sold, stock of an option, and the sum of its cart lines.
stock_of() {
    local engine=$1 url=$2 option=$3
    local sql="SELECT stock, held, sold, (SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE option_id = $option) FROM product_options WHERE id = $option"
    if [ "$engine" = sqlite ]; then
        python3 - "$url" "$sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(*db.execute(sys.argv[2]).fetchone())
PY
    else
        psql -X -q -t -A -F ' ' "$url" -c "$sql"
    fi
}

# Runs wrk; prints "rps p50_ms p99_ms statuses".
run_wrk() {
    local name=$1 option=$2 out=$SCRATCH/wrk-$1.txt
    note "wrk -t2 -c64 -d${SECONDS_PER_RUN}s --latency ($name, option $option)"
    wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency -s "$SCRATCH/add.lua" "http://$ADDR" -- \
        "$SCRATCH/sessions.txt" "$option" >"$out" 2>&1 || { cat "$out" >&2; return 1; }
    awk '
        function ms(v,   n) {
            n = v + 0
            if (v ~ /us$/) return n / 1000
            if (v ~ /ms$/) return n
            if (v ~ /s$/)  return n * 1000
            return n
        }
        /^Requests\/sec:/ { rps = $2 }
        $1 == "50%"       { p50 = ms($2) }
        $1 == "99%"       { p99 = ms($2) }
        /^STATUSES/       { $1 = ""; st = substr($0, 2) }
        END { printf "%s %.2f %.2f %s\n", rps, p50, p99, st }
    ' "$out"
}

FAILED=0
RESULTS=()
for engine in $ENGINES; do
    data=$SCRATCH/$engine
    mkdir -p "$data"
    if [ "$engine" = postgres ]; then
        "$SCRIPT_DIR/pg.sh" start >/dev/null
        url=$("$SCRIPT_DIR/pg.sh" reset rosace_bench_cart)
    else
        url="sqlite://$data/rosace.db?mode=rwc"
    fi
    note "$engine: starting the server and creating $MEMBERS members with sessions"
    env LEPTOS_SITE_ROOT="$ROOT/target/site" LEPTOS_SITE_PKG_DIR=pkg LEPTOS_OUTPUT_NAME=rosace \
        LEPTOS_SITE_ADDR="$ADDR" LEPTOS_ENV=PROD ROSACE_ADDR="$ADDR" ROSACE_DATA_DIR="$data" \
        DATABASE_URL="$url" RUST_LOG=warn ROSACE_BENCH_SEED="$MEMBERS" ROSACE_BENCH_STOCK="$UNITS" \
        ROSACE_BENCH_SEED_FILE="$SCRATCH/sessions.txt" ROSACE_CART_MAX_PER_MEMBER=1000000 \
        "$SERVER_BIN" >"$SCRATCH/server-$engine.log" 2>&1 &
    SERVER_PID=$!
    ok=0
    for _ in $(seq 1 240); do
        if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$ADDR/health" || true)" = 200 ]; then ok=1; break; fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.5
    done
    [ $ok = 1 ] || { tail -n 30 "$SCRATCH/server-$engine.log" >&2; die "$engine: the server did not start"; }
    read -r _ _ scarce plenty < <(head -n 1 "$SCRATCH/sessions.txt")
    db=$url
    [ "$engine" = sqlite ] && db=$data/rosace.db
    for scenario in scarce plenty; do
        option=$scarce
        [ $scenario = plenty ] && option=$plenty
        read -r rps p50 p99 statuses < <(run_wrk "$engine-$scenario" "$option")
        read -r total held sold lines < <(stock_of "$engine" "$db" "$option")
        oversold=$(( held + sold > total ? held + sold - total : 0 ))
        [ "$lines" = "$held" ] || { note "$engine/$scenario: cart lines ($lines) differ from held units ($held)"; FAILED=1; }
        [ "$oversold" = 0 ] || FAILED=1
        RESULTS+=("$(printf '%-9s %-7s %9s %9s %9s %8s %7s %6s %9s  %s' "$engine" "$scenario" "$rps" "$p50" "$p99" "$total" "$held" "$sold" "$oversold" "$statuses")")
    done
    stop_server
done

echo
echo "POST /api/cartproxy/v1/item, wrk -t2 -c64 -d${SECONDS_PER_RUN}s, $MEMBERS members rotated, $(nproc) cores"
printf '%-9s %-7s %9s %9s %9s %8s %7s %6s %9s  %s\n' engine item "req/s" "p50 ms" "p99 ms" stock held sold oversold "answers by status"
for r in "${RESULTS[@]}"; do echo "$r"; done
exit $FAILED

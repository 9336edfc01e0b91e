#!/usr/bin/env bash
# scripts/bench/bench-cart.sh — add-to-cart under load, on SQLite and on PostgreSQL.
#
#   scripts/bench/bench-cart.sh [sqlite|postgres|both]     default both
#
# Steps: build the release binaries (`cargo build --release -p server --bins`: the server
# and bench_seed; skipped with ROSACE_BENCH_NO_BUILD=1), then for each engine: start the
# server on 127.0.0.1:3110 with a scratch data folder (PostgreSQL: a fresh database from
# scripts/pg.sh), wait for GET /health to answer 200 (the database is migrated and holds
# the demo data), then run target/release/bench_seed on the same DATABASE_URL and data
# folder with ROSACE_BENCH_SEED=5000: it creates 5,000 members with sessions, sets the
# stock of two options of a live sale (ROSACE_BENCH_STOCK units and a million) and writes
# the two option ids and the members' session and XSRF tokens to ROSACE_BENCH_SEED_FILE
# (in the scratch folder); then run wrk (-t2 -c64, a Lua script that rotates the members'
# cookies) against POST /api/cartproxy/v1/item in two scenarios:
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
#   ROSACE_BENCH_NO_BUILD=1     reuse target/release/server and target/release/bench_seed
#   ROSACE_BENCH_KEEP=1         keep the scratch folder (server logs, wrk outputs)
#   ROSACE_BENCH_ENV="K=V ..."  more settings for the server (ROSACE_MAX_CALLS_RUNNING=...)
#   CARGO_TARGET_DIR            where the release binaries are (default target/)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
cd "$ROOT"
ENGINES=${1:-both}
case $ENGINES in
    both) ENGINES="sqlite postgres" ;;
    sqlite | postgres) ;;
    *) die_usage "scripts/bench/bench-cart.sh [sqlite|postgres|both]" ;;
esac

SECONDS_PER_RUN=${ROSACE_BENCH_SECONDS:-10}
MEMBERS=${ROSACE_BENCH_MEMBERS:-5000}
UNITS=${ROSACE_BENCH_STOCK:-100}
ADDR=127.0.0.1:3110
SERVER_BIN=$(target_dir)/release/server
SEED_BIN=$(target_dir)/release/bench_seed

for tool in curl wrk awk python3; do need_cmd "$tool"; done

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench-cart.XXXXXX")
SERVER_PID=

stop_server() {
    stop_pid "$SERVER_PID"
    SERVER_PID=
}
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
    stop_server
    keep_or_remove "$SCRATCH"
}
trap_cleanup cleanup

if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release binaries (cargo build --release -p server --bins)"
    cargo build --release -p server --bins >&2
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
[ -x "$SEED_BIN" ] || die "no release bench_seed binary at $SEED_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
ensure_addr_free "$ADDR"

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
    sql_row "$1" "$2" "SELECT stock, held, sold, (SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE option_id = $3) FROM product_options WHERE id = $3"
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
        "$ROOT/scripts/pg.sh" start >/dev/null
        url=$("$ROOT/scripts/pg.sh" reset rosace_bench_cart)
    else
        url="sqlite://$data/rosace.db?mode=rwc"
    fi
    note "$engine: starting the server"
    start_server "$SERVER_BIN" "$ADDR" "$SCRATCH/server-$engine.log" \
        ROSACE_ADDR="$ADDR" ROSACE_DATA_DIR="$data" DATABASE_URL="$url" RUST_LOG=warn \
        ROSACE_CART_MAX_PER_MEMBER=1000000 ${ROSACE_BENCH_ENV:-}
    if ! wait_for_health "http://$ADDR/health" 120 "$SERVER_PID"; then
        tail -n 30 "$SCRATCH/server-$engine.log" >&2
        die "$engine: the server did not start"
    fi
    note "$engine: creating $MEMBERS members with sessions (bench_seed)"
    env ROSACE_DATA_DIR="$data" DATABASE_URL="$url" RUST_LOG=warn ROSACE_BENCH_SEED="$MEMBERS" \
        ROSACE_BENCH_STOCK="$UNITS" ROSACE_BENCH_SEED_FILE="$SCRATCH/sessions.txt" \
        "$SEED_BIN" >"$SCRATCH/seed-$engine.log" 2>&1 \
        || { tail -n 30 "$SCRATCH/seed-$engine.log" >&2; die "$engine: bench_seed failed"; }
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

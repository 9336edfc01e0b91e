#!/usr/bin/env bash
# scripts/bench/bench-member.sh — requests/s and latency of the pages a signed-in member
# sees (home, a 48-item sale catalog, a product, search results, cart, my orders), side by
# side with the same page as an anonymous visitor gets it from the page cache, in one run.
# A benchmark: it prints figures and never fails on them.
#
# Steps: build the release binaries (`cargo build --release -p server --bins`; skipped
# with ROSACE_BENCH_NO_BUILD=1), start the server on 127.0.0.1:3120 with a scratch SQLite
# database (PostgreSQL with `postgres` as first argument: a fresh database from
# scripts/pg.sh), create ROSACE_BENCH_MEMBERS members with sessions (bench_seed), then for
# each page run wrk -t2 -c64 --latency with a Lua script that rotates the members'
# session cookies (each request is another member, as at a sale opening), and once more
# as a visitor (no session: the page cache). Prints one line per page: member req/s, p50,
# p99, non-2xx answers, then the visitor's.
#
# Environment:
#   ROSACE_BENCH_SECONDS=10     wrk duration per run
#   ROSACE_BENCH_MEMBERS=2000   members (sessions) rotated by the load
#   ROSACE_BENCH_PAGES="..."    page names to run (home catalog product search cart orders)
#   ROSACE_BENCH_NO_BUILD=1     reuse target/release/server and target/release/bench_seed
#   ROSACE_BENCH_KEEP=1         keep the scratch folder (server log, wrk outputs)
#   ROSACE_BENCH_ENV="K=V ..."  extra environment for the server (e.g. ROSACE_PAGE_CACHE_SECS=0)
#   CARGO_TARGET_DIR            where the release binaries are (default target/)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
cd "$ROOT"
ENGINE=${1:-sqlite}
case $ENGINE in sqlite | postgres) ;; *) die_usage "bench-member.sh [sqlite|postgres]" ;; esac
need_cmd wrk "apt-get install wrk, or scripts/setup.sh"
need_cmd curl

SECONDS_PER_RUN=${ROSACE_BENCH_SECONDS:-10}
MEMBERS=${ROSACE_BENCH_MEMBERS:-2000}
PAGES=${ROSACE_BENCH_PAGES:-home catalog product search cart orders}
ADDR=127.0.0.1:3120
TARGET=$(target_dir)
SERVER_BIN=$TARGET/release/server
SEED_BIN=$TARGET/release/bench_seed
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench-member.XXXXXX")
SERVER_PID=""

# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
    stop_pid "$SERVER_PID"
    keep_or_remove "$SCRATCH"
}
trap_cleanup cleanup

if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release binaries (cargo build --release -p server --bins)"
    cargo build --release -p server --bins >&2
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN"
[ -x "$SEED_BIN" ] || die "no release bench_seed binary at $SEED_BIN"
ensure_addr_free "$ADDR"

mkdir -p "$SCRATCH/data"
if [ "$ENGINE" = postgres ]; then
    "$ROOT/scripts/pg.sh" start >/dev/null
    url=$("$ROOT/scripts/pg.sh" reset rosace_bench_member)
else
    url="sqlite://$SCRATCH/data/rosace.db?mode=rwc"
fi
# shellcheck disable=SC2086 # ROSACE_BENCH_ENV is a list of NAME=VALUE words
start_server "$SERVER_BIN" "$ADDR" "$SCRATCH/server.log" \
    ROSACE_ADDR="$ADDR" ROSACE_DATA_DIR="$SCRATCH/data" DATABASE_URL="$url" RUST_LOG=warn \
    ${ROSACE_BENCH_ENV:-}
if ! wait_for_health "http://$ADDR/health" 120 "$SERVER_PID"; then
    tail -n 30 "$SCRATCH/server.log" >&2
    die "the server did not start"
fi
note "creating $MEMBERS members with sessions (bench_seed)"
env ROSACE_DATA_DIR="$SCRATCH/data" DATABASE_URL="$url" RUST_LOG=warn ROSACE_BENCH_SEED="$MEMBERS" \
    ROSACE_BENCH_SEED_FILE="$SCRATCH/sessions.txt" "$SEED_BIN" >"$SCRATCH/seed.log" 2>&1 \
    || { tail -n 30 "$SCRATCH/seed.log" >&2; die "bench_seed failed"; }

# One member's cookie, to find a product of the sale and check the member pages answer.
read -r _ TOKEN XSRF < <(sed -n 2p "$SCRATCH/sessions.txt")
COOKIE="rosace_session=$TOKEN; XSRF-TOKEN=$XSRF"
SALE=1001
catalog_html=$(curl -s --max-time 30 -H "Cookie: $COOKIE" "http://$ADDR/catalog/$SALE/0")
PRODUCT=$(grep -o "/product/$SALE/[0-9]*" <<<"$catalog_html" | head -n 1)
[ -n "$PRODUCT" ] || die "no product link on the member's catalog of sale $SALE"
SEO_PRODUCT=$(curl -s --max-time 30 "http://$ADDR/c/vente/$SALE/0" | grep -o '/seo-product/[^"]*' | head -n 1)

# member path, visitor path (empty: members only).
page_paths() {
    case $1 in
        home) echo "/ /" ;;
        catalog) echo "/catalog/$SALE/0 /c/vente/$SALE/0" ;;
        product) echo "$PRODUCT ${SEO_PRODUCT:-}" ;;
        search) echo "/find?q=robe /find?q=robe" ;;
        cart) echo "/cart" ;;
        orders) echo "/my-orders" ;;
        *) die "unknown page $1" ;;
    esac
}

cat >"$SCRATCH/member.lua" <<'LUA'
local members = {}
local i = 0
local threads = {}
counts = {}

function setup(thread)
  thread:set("offset", #threads * 7919)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    local id, token, xsrf = line:match("^(%d+) (%x+) (%S+)$")
    if id then table.insert(members, { token = token, xsrf = xsrf }) end
  end
  i = offset or 0
end

function request()
  i = i + 1
  local m = members[(i % #members) + 1]
  return wrk.format("GET", nil, {
    ["Cookie"] = "rosace_session=" .. m.token .. "; XSRF-TOKEN=" .. m.xsrf,
    ["Accept-Encoding"] = "gzip, deflate, br, zstd",
  })
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
  io.write("STATUSES " .. table.concat(parts, ",") .. "\n")
end
LUA

# Runs wrk as the members (mode "member": the Lua script rotating the sessions) or as one
# visitor asking for gzip (mode "visitor"); prints "rps p50_ms p99_ms statuses".
run_wrk() {
    local name=$1 url=$2 mode=$3 out=$SCRATCH/wrk-$1.txt
    if [ "$mode" = member ]; then
        wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency -s "$SCRATCH/member.lua" "$url" -- "$SCRATCH/sessions.txt" \
            >"$out" 2>&1 || { cat "$out" >&2; return 1; }
    else
        wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency -H "Accept-Encoding: gzip, deflate, br, zstd" "$url" \
            >"$out" 2>&1 || { cat "$out" >&2; return 1; }
    fi
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
        /^STATUSES/       { st = $2 }
        /Non-2xx or 3xx responses:/ { bad = $NF }
        END { printf "%s %.2f %.2f %s\n", rps, p50, p99, (st != "" ? st : (bad != "" ? "non-2xx:" bad : "200:all")) }
    ' "$out"
}

printf '%-8s | %-34s | %s\n' "page" "member (rotating $MEMBERS sessions)" "visitor (page cache)"
printf '%-8s | %9s %7s %7s %-8s | %9s %7s %7s\n' "" "req/s" "p50 ms" "p99 ms" "bytes" "req/s" "p50 ms" "p99 ms"
for page in $PAGES; do
    read -r mpath vpath < <(page_paths "$page")
    code=$(curl -s -o "$SCRATCH/$page.html" -w '%{http_code}' --max-time 30 -H "Cookie: $COOKIE" "http://$ADDR$mpath")
    [ "$code" = 200 ] || note "$page: the member's $mpath answered $code"
    bytes=$(wc -c <"$SCRATCH/$page.html")
    note "$page: wrk -t2 -c64 -d${SECONDS_PER_RUN}s $mpath (members)"
    read -r mrps mp50 mp99 mst < <(run_wrk "member-$page" "http://$ADDR$mpath" member)
    vrps=-; vp50=-; vp99=-
    if [ -n "${vpath:-}" ]; then
        note "$page: wrk -t2 -c64 -d${SECONDS_PER_RUN}s $vpath (visitor)"
        read -r vrps vp50 vp99 _ < <(run_wrk "visitor-$page" "http://$ADDR$vpath" visitor)
    fi
    printf '%-8s | %9s %7s %7s %-8s | %9s %7s %7s   %s\n' "$page" "$mrps" "$mp50" "$mp99" "$bytes" "$vrps" "$vp50" "$vp99" "$mst"
done

#!/usr/bin/env bash
# scripts/bench/bench-home.sh — how fast the shop serves a page, next to nginx serving the
# same HTML as a static file (the ceiling on this machine).
#
#   scripts/bench/bench-home.sh [PATH]     PATH on the shop, default /?site=1
#
# Steps: scripts/setup.sh --release-tools, `cargo leptos build --release` (with the resident
# wasm-opt of scripts/lib.sh), start the release server binary on 127.0.0.1:3100 with a
# scratch data folder, wait for GET /health to answer 200, save PATH's HTML as
# index.html, serve that file with nginx on 127.0.0.1:3101, run
# `wrk -t2 -c64 -d<seconds>s --latency` against both and print requests/s, p50 and p99
# latency for each and the ratio shop/nginx; then the same with a browser's
# Accept-Encoding (nginx serving a gzip -9 copy through gzip_static). Both servers are
# stopped on exit.
# A benchmark: slow figures never make it fail; only a build or a server that does not
# start does.
#
# Environment:
#   ROSACE_BENCH_SECONDS=10     wrk duration per target
#   ROSACE_BENCH_NO_BUILD=1     reuse the existing release build (skip setup and build)
#   ROSACE_BENCH_KEEP=1         keep the scratch folder (logs, wrk outputs, nginx.conf)
#   ROSACE_BENCH_NGINX_ONLY=1   test switch: no build, no shop; nginx serves
#                               $ROSACE_BENCH_HTML (or a dummy page) and only it is measured
#   CARGO_TARGET_DIR            where the release server binary is (default target/)
#   ROSACE_SITE_ROOT            the built site (default target/site)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
[ $# -le 1 ] || die_usage "scripts/bench/bench-home.sh [PATH]"
cd "$ROOT"

PAGE_PATH=${1:-/?site=1}
case $PAGE_PATH in /*) ;; *) PAGE_PATH=/$PAGE_PATH ;; esac
SECONDS_PER_RUN=${ROSACE_BENCH_SECONDS:-10}
NGINX_ONLY=${ROSACE_BENCH_NGINX_ONLY:-0}
SHOP_ADDR=127.0.0.1:3100
NGINX_ADDR=127.0.0.1:3101
SERVER_BIN=$(target_dir)/release/server
SITE_ROOT=${ROSACE_SITE_ROOT:-$ROOT/target/site}
case $SITE_ROOT in /*) ;; *) SITE_ROOT=$ROOT/$SITE_ROOT ;; esac

case $SECONDS_PER_RUN in '' | *[!0-9]* | 0) die "ROSACE_BENCH_SECONDS must be a positive number of seconds" ;; esac
for tool in curl wrk awk; do need_cmd "$tool" "scripts/setup.sh installs it"; done
NGINX=$(command -v nginx 2>/dev/null || true)
if [ -z "$NGINX" ] && [ -x /usr/sbin/nginx ]; then NGINX=/usr/sbin/nginx; fi
[ -n "$NGINX" ] || die "nginx not found (scripts/setup.sh installs it)"

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench.XXXXXX")
SERVER_PID=
NGINX_PID=

cleanup() {
    # Each gets up to 5 s to stop, then is forced.
    stop_pid "$SERVER_PID"
    stop_pid "$NGINX_PID"
    stop_resident_wasm_opt
    keep_or_remove "$SCRATCH"
}
trap_cleanup cleanup

mkdir -p "$SCRATCH/www" "$SCRATCH/data" "$SCRATCH/tmp"
# Workers of an nginx started by root run as "nobody": they must be able to read the page.
chmod 755 "$SCRATCH" "$SCRATCH/www"

# ------------------------------------------------------------ the shop

if [ "$NGINX_ONLY" = 1 ]; then
    if [ -n "${ROSACE_BENCH_HTML:-}" ]; then
        cp -- "$ROSACE_BENCH_HTML" "$SCRATCH/www/index.html"
    else
        {
            echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>dummy</title></head><body>'
            for i in $(seq 1 200); do echo "<p>dummy product $i</p>"; done
            echo '</body></html>'
        } >"$SCRATCH/www/index.html"
    fi
else
    if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
        "$ROOT/scripts/setup.sh" --release-tools >&2
        note "building the release site (cargo leptos build --release)"
        start_resident_wasm_opt
        cargo leptos build --release >&2
        stop_resident_wasm_opt
    fi
    [ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN (build it, or unset ROSACE_BENCH_NO_BUILD)"
    [ -d "$SITE_ROOT/pkg" ] || die "no built site at $SITE_ROOT/pkg (build it, or unset ROSACE_BENCH_NO_BUILD)"
    ensure_addr_free "$SHOP_ADDR"

    start_server "$SERVER_BIN" "$SHOP_ADDR" "$SCRATCH/server.log" \
        LEPTOS_SITE_ROOT="$SITE_ROOT" ROSACE_DATA_DIR="$SCRATCH/data" RUST_LOG=warn
    if ! wait_for_health "http://$SHOP_ADDR/health" 60 "$SERVER_PID"; then
        tail -n 30 "$SCRATCH/server.log" >&2 || true
        die "the shop did not answer 200 on http://$SHOP_ADDR/health within 60 s"
    fi
    code=$(curl -s -o "$SCRATCH/www/index.html" -w '%{http_code}' --max-time 30 "http://$SHOP_ADDR$PAGE_PATH" || true)
    [ "$code" = 200 ] || die "GET $PAGE_PATH on the shop answered $code, not 200"
fi

# ------------------------------------------------------------ nginx

# Browsers ask for gzip: nginx then serves this copy, compressed once (gzip_static).
gzip -9 -k -f "$SCRATCH/www/index.html"

ensure_addr_free "$NGINX_ADDR"

# Temp paths of the modules this nginx has, all inside the scratch folder (a normal user
# cannot write the compiled-in /var/lib/nginx).
temp_paths=""
nginx_v=$("$NGINX" -V 2>&1 || true)
for m in client_body proxy fastcgi uwsgi scgi; do
    opt=${m/_body/-body}
    if [ "$m" = client_body ] || [[ $nginx_v == *"--http-${opt}-temp-path"* ]]; then
        mkdir -p "$SCRATCH/tmp/$m"
        temp_paths+="    ${m}_temp_path $SCRATCH/tmp/$m;"$'\n'
    fi
done

cat >"$SCRATCH/nginx.conf" <<EOF
# Written by scripts/bench/bench-home.sh: one static page, for comparison.
worker_processes 2;
daemon off;
pid $SCRATCH/nginx.pid;
error_log $SCRATCH/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
$temp_paths    default_type text/html;
    server {
        listen $NGINX_ADDR;
        root $SCRATCH/www;
        gzip_static on;
        location = / { try_files /index.html =404; }
    }
}
EOF

"$NGINX" -p "$SCRATCH" -c nginx.conf -e "$SCRATCH/nginx-error.log" >"$SCRATCH/nginx.out" 2>&1 &
NGINX_PID=$!
if ! wait_for_health "http://$NGINX_ADDR/" 20 "$NGINX_PID"; then
    cat "$SCRATCH/nginx.out" "$SCRATCH/nginx-error.log" >&2 2>/dev/null || true
    die "nginx did not answer 200 on http://$NGINX_ADDR/"
fi

# ------------------------------------------------------------ wrk

# Runs wrk; prints "rps p50_ms p99_ms errors" (n/a where wrk gave nothing).
run_wrk() {
    local name=$1 url=$2 out=$SCRATCH/wrk-$1.txt
    local headers=()
    [ -n "${3:-}" ] && headers=(-H "$3")
    # shellcheck disable=SC2016 # the quotes around $3 are printed, and $3 expands
    note "wrk -t2 -c64 -d${SECONDS_PER_RUN}s --latency ${3:+-H '$3' }$url"
    if ! wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency "${headers[@]}" "$url" >"$out" 2>&1; then
        note "wrk failed against $name:"
        cat "$out" >&2
    fi
    awk '
        function ms(v,   n) {
            n = v + 0
            if (v ~ /us$/) return n / 1000
            if (v ~ /ms$/) return n
            if (v ~ /m$/)  return n * 60000
            if (v ~ /s$/)  return n * 1000
            return n
        }
        /^Requests\/sec:/                 { rps = $2 }
        $1 == "50%"                       { p50 = ms($2) }
        $1 == "99%"                       { p99 = ms($2) }
        /Non-2xx or 3xx responses:/       { errors += $NF }
        /Socket errors:/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) errors += $i + 0
        }
        END {
            printf "%s %s %s %d\n", (rps == "" ? "n/a" : rps), (p50 == "" ? "n/a" : p50),
                (p99 == "" ? "n/a" : p99), errors
        }
    ' "$out"
}

if [ "$NGINX_ONLY" = 1 ]; then
    shop="n/a n/a n/a 0"
else
    shop=$(run_wrk shop "http://$SHOP_ADDR$PAGE_PATH")
fi
nginx=$(run_wrk nginx "http://$NGINX_ADDR/")
# The same again as a browser asks: compressed.
BROWSER_ENCODING="Accept-Encoding: gzip, deflate, br, zstd"
if [ "$NGINX_ONLY" = 1 ]; then
    shop_gz="n/a n/a n/a 0"
else
    shop_gz=$(run_wrk shop-gzip "http://$SHOP_ADDR$PAGE_PATH" "$BROWSER_ENCODING")
fi
nginx_gz=$(run_wrk nginx-gzip "http://$NGINX_ADDR/" "$BROWSER_ENCODING")

read -r s_rps _ <<<"$shop"
read -r n_rps _ <<<"$nginx"

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "n/a" || b == "n/a" || b + 0 == 0) { print "n/a"; exit }
        printf "%.2f\n", a / b
    }'
}
fmt() {
    awk -v v="$1" -v d="$2" -v u="$3" 'BEGIN {
        if (v == "n/a") { print "n/a"; exit }
        printf "%.*f%s\n", d, v, u
    }'
}

bytes=$(wc -c <"$SCRATCH/www/index.html")
echo
echo "page: $PAGE_PATH ($bytes bytes of HTML), wrk -t2 -c64 -d${SECONDS_PER_RUN}s, $(nproc) cores"
table() { # shop and nginx figures: rps p50 p99 errors each
    printf '%-14s %12s %12s %12s\n' "" shop nginx shop/nginx
    printf '%-14s %12s %12s %12s\n' "requests/s" "$(fmt "$1" 0 "")" "$(fmt "$5" 0 "")" "$(ratio "$1" "$5")"
    printf '%-14s %12s %12s %12s\n' "p50 latency" "$(fmt "$2" 3 ms)" "$(fmt "$6" 3 ms)" "$(ratio "$2" "$6")"
    printf '%-14s %12s %12s %12s\n' "p99 latency" "$(fmt "$3" 3 ms)" "$(fmt "$7" 3 ms)" "$(ratio "$3" "$7")"
    if [ "$4" != 0 ] || [ "$8" != 0 ]; then
        printf '%-14s %12s %12s\n' "errors" "$4" "$8"
    fi
}
# Unquoted on purpose: each holds four figures, split into arguments.
# shellcheck disable=SC2086
table $shop $nginx
echo
echo "same page with $BROWSER_ENCODING (nginx: gzip_static, $(wc -c <"$SCRATCH/www/index.html.gz") bytes)"
# shellcheck disable=SC2086
table $shop_gz $nginx_gz
# Only a benchmark that measured nothing at all fails.
if [ "$s_rps" = n/a ] && [ "$n_rps" = n/a ]; then
    exit 1
fi

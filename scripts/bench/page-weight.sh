#!/usr/bin/env bash
# scripts/bench/page-weight.sh — what each page kind weighs and how fast it is on a phone.
#
# For home, a sale catalog, a product, search results, the cart (as the demo member) and
# sign-in, prints:
#   - the first-load bytes of its HTML, CSS, JS and WASM: raw, gzip -9 and brotli q11, from
#     every request the page made until the network went idle (islands that hydrate lazily
#     included, images left out);
#   - the Lighthouse 12 medians (mobile, simulated slow 4G): performance, LCP,
#     accessibility, SEO, best practices, and the audits scoring below 0.9.
#
#   scripts/bench/page-weight.sh [RUNS]     Lighthouse runs per page (default 5)
#
# Starts the built shop (target/debug/server and the front end in target/site; build the
# front end in release for meaningful figures: cargo leptos build --release --frontend-only
# --split) on a scratch database. Installs lighthouse@12 into .tools/lighthouse when
# missing. ROSACE_LH_PAGES="/a /b" measures other paths. The budget test
# (end2end/tests/budget.spec.ts) fails when a page's first-load JS + WASM passes its budget.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"
RUNS=${1:-5}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"
LH_DIR=$ROOT/.tools/lighthouse
if [[ ! -x "$LH_DIR/node_modules/.bin/lighthouse" ]]; then
  note "installing lighthouse@12 into .tools/lighthouse"
  npm install --no-audit --no-fund --prefix "$LH_DIR" lighthouse@12 >/dev/null
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
DATA=$(mktemp -d /tmp/rosace-lh.XXXXXX)
SERVER_PID=
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
  stop_pid "$SERVER_PID"
  rm -rf "$DATA"
}
trap cleanup EXIT
start_server "$(target_dir)/debug/server" "127.0.0.1:$PORT" "$DATA/server.log" \
  ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="$BASE" RUST_LOG=warn NO_COLOR=1
wait_for_health "$BASE/health" 60 "$SERVER_PID" || { cat "$DATA/server.log"; die "the shop did not start"; }

CONSENT='OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0'
JAR=$DATA/jar
curl -sf -c "$JAR" -b "$CONSENT" "$BASE/gr/authentication" -o /dev/null
xsrf=$(awk '$6 == "XSRF-TOKEN" { print $7 }' "$JAR")
curl -sf -b "$JAR" -c "$JAR" -H "X-XSRF-TOKEN: $xsrf" -H 'Content-Type: application/json' \
  -d '{"email":"demo@rosace.test","password":"Rosace-demo-2026","rememberMe":false,"siteId":1}' \
  "$BASE/api/authentication/v1/login" -o /dev/null || die "demo sign-in failed"
# Session cookies are HttpOnly: the jar writes them on lines starting with #HttpOnly_.
MEMBER=$(awk 'NF >= 7 && ($1 !~ /^#/ || $1 ~ /^#HttpOnly_/) { printf "%s=%s; ", $6, $7 }' "$JAR")
home=$(curl -sf -b "$CONSENT" "$BASE/")
sale=$(grep -o 'href="/c/[^"]*"' <<<"$home" | head -n 1 | cut -d'"' -f2)
product=$(curl -sf -b "$CONSENT" "$BASE$sale" | grep -o 'href="/seo-product/[^"]*"' | head -n 1 | cut -d'"' -f2)

PAGES=(/ "$sale" "$product" "/find?q=robe" /cart /gr/authentication)
[[ -n "${ROSACE_LH_PAGES:-}" ]] && read -r -a PAGES <<<"$ROSACE_LH_PAGES"
for path in "${PAGES[@]}"; do
  cookie=$CONSENT
  [[ $path == /cart ]] && cookie="$MEMBER$CONSENT"
  for i in $(seq 1 "$RUNS"); do
    CHROME_PATH=/usr/bin/chromium "$LH_DIR/node_modules/.bin/lighthouse" "$BASE$path" --quiet \
      --output=json --output-path="$DATA/lh$i.json" --extra-headers="{\"Cookie\":\"$cookie\"}" \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync" \
      >/dev/null 2>&1 || die "lighthouse failed on $path"
  done
  DATA=$DATA RUNS=$RUNS PAGE=$path COOKIE=$cookie node "$ROOT/scripts/bench/page-weight.mjs"
done

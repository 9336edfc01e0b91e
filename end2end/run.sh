#!/usr/bin/env bash
# end2end/run.sh — starts the built shop (cargo leptos build) on a scratch SQLite database
# and runs the Playwright tests against it in Debian's Chromium.
set -euo pipefail
ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PORT=${ROSACE_E2E_PORT:-3210}
# Another shop (or test run) on that port would answer our health check: take a free one.
if curl -s -o /dev/null "http://127.0.0.1:$PORT/" 2>/dev/null; then
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/server"
DATA=$(mktemp -d /tmp/rosace-e2e.XXXXXX)
LOG="$DATA/server.log"

cleanup() {
  if [[ -n "${SERVER_PID:-}" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT

LEPTOS_SITE_ROOT=target/site LEPTOS_SITE_PKG_DIR=pkg LEPTOS_OUTPUT_NAME=rosace \
LEPTOS_SITE_ADDR="127.0.0.1:$PORT" LEPTOS_ENV=PROD \
ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="http://127.0.0.1:$PORT" \
ROSACE_DSA_RATE_LIMIT=1 ROSACE_TRUST_FORWARDED_FOR=true \
ROSACE_CART_HOLD_SECS=${ROSACE_CART_HOLD_SECS:-30} ROSACE_CART_SWEEP_SECS=1 ROSACE_CHECKOUT_CAPACITY=1 RUST_LOG=warn,server=info NO_COLOR=1 \
  "$BIN" >"$LOG" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$LOG"; echo "server did not start" >&2; exit 1; fi
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null
if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$LOG"; echo "the shop exited" >&2; exit 1; fi

cd end2end
OUT="$DATA/playwright.out"
set +e
ROSACE_E2E_BASE_URL="http://127.0.0.1:$PORT" ROSACE_E2E_DATA="$DATA" npx playwright test "$@" 2>&1 | tee "$OUT"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
  # CI keeps only the end of the output: the server's warnings first, then what failed.
  echo "--- server log: warnings and errors ---"
  grep -E ' (WARN|ERROR) ' "$LOG" | tail -n 40 || true
  echo "--- server log (tail) ---"
  tail -n 20 "$LOG"
  echo "--- Playwright failures (repeated) ---"
  sed -n '/^  [0-9]*) /,$p' "$OUT" | grep -vE '^\s*$' | tail -n 120
fi
if grep -qE '^\s+[0-9]+ flaky' "$OUT"; then
  echo "--- flaky tests (passed on their retry) ---"
  sed -n '/^\s*[0-9]* flaky/,/^\s*[0-9]* passed/p' "$OUT"
fi
exit $status

#!/usr/bin/env bash
# end2end/run.sh — starts the built shop (cargo leptos build) on a scratch SQLite database
# and runs the Playwright tests against it in Debian's Chromium (its headless shell).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ROOT"
PORT=${ROSACE_E2E_PORT:-3210}
# Another shop (or test run) on that port would answer our health check: take a free one.
if addr_answers "127.0.0.1:$PORT"; then
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
BIN=$(target_dir)/debug/server
DATA=$(mktemp -d /tmp/rosace-e2e.XXXXXX)
LOG="$DATA/server.log"

SERVER_PID=
IDP_PID=
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
  stop_pid "$SERVER_PID"
  stop_pid "$IDP_PID"
  rm -rf "$DATA"
}
trap cleanup EXIT

# Social sign-in (issue #16): the local test identity provider (server/src/test_idp.rs,
# never the internet), next to the server binary; Google, Facebook and Apple are its
# clients. Klarna stays unconfigured (its button is hidden).
IDP_BIN=$(target_dir)/debug/test_idp
[[ -x "$IDP_BIN" ]] || IDP_BIN=$ROOT/target/debug/test_idp
[[ -x "$IDP_BIN" ]] || { cargo build -q -p server --bin test_idp && IDP_BIN=$ROOT/target/debug/test_idp; }
IDP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
IDP="http://127.0.0.1:$IDP_PORT"
ROSACE_TEST_IDP_ADDR="127.0.0.1:$IDP_PORT" "$IDP_BIN" >"$DATA/idp.log" 2>&1 &
IDP_PID=$!
if ! wait_for_health "$IDP/.well-known/openid-configuration" 30 "$IDP_PID"; then
  cat "$DATA/idp.log"
  die "the test identity provider did not start"
fi
OIDC=()
for p in GOOGLE FACEBOOK APPLE; do
  lower=$(printf '%s' "$p" | tr '[:upper:]' '[:lower:]')
  OIDC+=("ROSACE_OIDC_${p}_ISSUER=$IDP" "ROSACE_OIDC_${p}_CLIENT_ID=$lower-test" "ROSACE_OIDC_${p}_CLIENT_SECRET=test-secret")
done

# The suite signs the demo members in from this one address far more than 30 times in 10
# minutes: the login flood limit is raised here (the server tests keep their default).
start_server "$BIN" "127.0.0.1:$PORT" "$LOG" \
  ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="http://127.0.0.1:$PORT" \
  ROSACE_DSA_RATE_LIMIT=1 ROSACE_TRUSTED_PROXIES=127.0.0.1 ROSACE_LOGIN_RATE_LIMIT=1000 \
  ROSACE_CART_HOLD_SECS="${ROSACE_CART_HOLD_SECS:-30}" ROSACE_CART_SWEEP_SECS=1 ROSACE_CHECKOUT_CAPACITY=1 \
  "${OIDC[@]}" RUST_LOG=warn,server=info NO_COLOR=1

if ! wait_for_health "http://127.0.0.1:$PORT/health" 60 "$SERVER_PID"; then
  cat "$LOG"
  die "the shop did not start (no 200 on /health within 60 s)"
fi

cd end2end
OUT="$DATA/playwright.out"
set +e
ROSACE_E2E_BASE_URL="http://127.0.0.1:$PORT" ROSACE_E2E_IDP="$IDP" ROSACE_E2E_DATA="$DATA" ROSACE_E2E_BIN="$BIN" npx playwright test "$@" 2>&1 | tee "$OUT"
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
exit "$status"

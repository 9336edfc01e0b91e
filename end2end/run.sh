#!/usr/bin/env bash
# end2end/run.sh — starts the built shop (cargo leptos build) on scratch SQLite databases
# and runs the Playwright tests against it in Debian's Chromium (its headless shell).
#
#   end2end/run.sh                 both projects (desktop, mobile) side by side
#   end2end/run.sh [playwright arguments]   one shop, one `npx playwright test` with them
#
# With no arguments each project gets a shop of its own (own database, data folder and
# port) and the two run at the same time: one after the other they took 19:58 of the test
# command's 36:39 on 2 cores, mostly waiting on pages (issue #29). Their tests already keep
# to their own sites and members; a shop each also keeps apart what is shared by the whole
# shop: the checkout line (capacity 1 here), the outbox and the commands the tests run on
# the data folder.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ROOT"
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
BIN=$(target_dir)/debug/server
SCRATCH=$(mktemp -d /tmp/rosace-e2e.XXXXXX)

SERVER_PIDS=()
IDP_PID=
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do stop_pid "$pid"; done
  stop_pid "$IDP_PID"
  rm -rf "$SCRATCH"
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
ROSACE_TEST_IDP_ADDR="127.0.0.1:$IDP_PORT" "$IDP_BIN" >"$SCRATCH/idp.log" 2>&1 &
IDP_PID=$!
if ! wait_for_health "$IDP/.well-known/openid-configuration" 30 "$IDP_PID"; then
  cat "$SCRATCH/idp.log"
  die "the test identity provider did not start"
fi
OIDC=()
for p in GOOGLE FACEBOOK APPLE; do
  lower=$(printf '%s' "$p" | tr '[:upper:]' '[:lower:]')
  OIDC+=("ROSACE_OIDC_${p}_ISSUER=$IDP" "ROSACE_OIDC_${p}_CLIENT_ID=$lower-test" "ROSACE_OIDC_${p}_CLIENT_SECRET=test-secret")
done

# One shop on a free port with its data in $SCRATCH/$1; prints the port.
# The suite signs the demo members in from this one address far more than 30 times in 10
# minutes: the login flood limit is raised here (the server tests keep their default).
start_shop() {
  local data=$SCRATCH/$1 port
  port=$(free_port)
  mkdir -p "$data"
  start_server "$BIN" "127.0.0.1:$port" "$data/server.log" \
    ROSACE_DATA_DIR="$data" ROSACE_PUBLIC_ORIGIN="http://127.0.0.1:$port" \
    ROSACE_DSA_RATE_LIMIT=1 ROSACE_TRUSTED_PROXIES=127.0.0.1 ROSACE_LOGIN_RATE_LIMIT=1000 \
    ROSACE_CART_HOLD_SECS="${ROSACE_CART_HOLD_SECS:-30}" ROSACE_CART_SWEEP_SECS=1 ROSACE_CHECKOUT_CAPACITY=1 \
    "${OIDC[@]}" RUST_LOG=warn,server=info NO_COLOR=1 >&2
  SERVER_PIDS+=("$SERVER_PID")
  if ! wait_for_health "http://127.0.0.1:$port/health" 60 "$SERVER_PID"; then
    cat "$data/server.log" >&2
    die "the shop for $1 did not start (no 200 on /health within 60 s)"
  fi
  printf '%s\n' "$port" >"$data/port"
}

# Runs Playwright against the shop named $1 with the rest as its arguments; its output goes
# to the terminal and to $SCRATCH/$1/playwright.out.
run_playwright() {
  local name=$1 data=$SCRATCH/$1
  shift
  (cd end2end && ROSACE_E2E_BASE_URL="http://127.0.0.1:$(cat "$data/port")" ROSACE_E2E_IDP="$IDP" \
    ROSACE_E2E_DATA="$data" ROSACE_E2E_BIN="$BIN" npx playwright test "$@" 2>&1) | tee "$data/playwright.out"
  return "${PIPESTATUS[0]}"
}

# What a failed or flaky run leaves for CI, which keeps only the end of the output.
report() {
  local name=$1 status=$2 data=$SCRATCH/$1
  if [[ $status -ne 0 ]]; then
    echo "--- $name: server log: warnings and errors ---"
    grep -E ' (WARN|ERROR) ' "$data/server.log" | tail -n 40 || true
    echo "--- $name: server log (tail) ---"
    tail -n 20 "$data/server.log"
    echo "--- $name: Playwright failures (repeated) ---"
    sed -n '/^  [0-9]*) /,$p' "$data/playwright.out" | grep -vE '^\s*$' | tail -n 120 || true
    # What the page showed when the test gave up (Playwright's snapshot of it): CI keeps
    # only this output, and a failure that does not come back here needs it.
    local context
    while IFS= read -r context; do
      echo "--- $name: the page at the failure: ${context#end2end/test-results/} ---"
      # The page's main part: its header alone filled the lines CI keeps.
      if grep -q '^ *- main' "$context"; then
        sed -n '/^ *- main/,$p' "$context" | head -n 80
      else
        head -n 80 "$context"
      fi
    done < <(find end2end/test-results -name error-context.md -path "*-$name*" 2>/dev/null | sort | head -n 2)
  fi
  if grep -qE '^\s+[0-9]+ flaky' "$data/playwright.out"; then
    echo "--- $name: flaky tests (passed on their retry) ---"
    sed -n '/^\s*[0-9]* flaky/,/^\s*[0-9]* passed/p' "$data/playwright.out"
  fi
}

if [[ $# -gt 0 ]]; then
  start_shop all
  status=0
  run_playwright all "$@" || status=$?
  report all "$status"
  exit "$status"
fi

PROJECTS=(desktop mobile)
for p in "${PROJECTS[@]}"; do start_shop "$p"; done
PIDS=()
for p in "${PROJECTS[@]}"; do
  run_playwright "$p" --project="$p" &
  PIDS+=("$!")
done
status=0
for i in "${!PROJECTS[@]}"; do
  s=0
  wait "${PIDS[$i]}" || s=$?
  echo "--- ${PROJECTS[$i]}: Playwright exit $s; summary ---"
  grep -E '^\s+[0-9]+ (passed|failed|flaky|skipped|did not run)' "$SCRATCH/${PROJECTS[$i]}/playwright.out" || true
  report "${PROJECTS[$i]}" "$s"
  [[ $s -eq 0 ]] || status=$s
done
exit "$status"

#!/usr/bin/env bash
# scripts/test.sh — set up what is missing and run every test:
#   1. Rust unit and integration tests (cargo nextest) on SQLite and on a throwaway
#      local PostgreSQL (started by scripts/pg.sh unless ROSACE_TEST_PG_URL is given),
#      including the ts-rs drift check of the React widget's generated types;
#   2. the React widget's vitest tests, type check and build, then the browser build as it
#      ships (release, split into lazy chunks: cargo leptos build --release --frontend-only
#      --split), both while the Rust tests build;
#   3. the OWASP ASVS black-box check of the security review's items (scripts/asvs-check.sh:
#      cookies, headers, CSRF, sessions, lockout, open redirects, member B on member A's
#      ids; over the http origin and an https public origin) and, beside it, the Nu HTML
#      checker on the server HTML of every page kind (scripts/html-check.sh), on the server
#      binary the Rust tests built;
#   4. the Playwright tests (desktop and phone) in Chromium's headless shell against the
#      running shop, including the first-load size budget and axe, and beside them schema
#      fuzzing of the REST API (scripts/fuzz.sh: schemathesis over every operation of the
#      OpenAPI document, on the same binary).
# -h prints this.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

# Each step's time, printed at the end (also after a failure): the README's table of
# set-up and test times comes from these lines.
STEP_TIMES=()
STEP_TITLE=""
STEP_START=$SECONDS
end_step() {
  local took=$((SECONDS - STEP_START))
  [[ -n "$STEP_TITLE" ]] && STEP_TIMES+=("$(printf '%3d:%02d  %s' $((took / 60)) $((took % 60)) "$STEP_TITLE")")
  STEP_TITLE=""
}
timed_step() {
  end_step
  STEP_TITLE=$1
  STEP_START=$SECONDS
  step "$1"
}
print_times() {
  end_step
  printf '\n==> step times (min:s)\n'
  printf '%s\n' "${STEP_TIMES[@]}"
  printf '%3d:%02d  total\n' $((SECONDS / 60)) $((SECONDS % 60))
}
# Steps that run beside another (a "lane" in the background, its output shown when it has
# ended): an interrupted or failed run stops them too (the fuzzing's own exit trap then
# stops its server).
LANE_PIDS=()
# A lane's processes, children first (cargo under the lane's shell, the fuzzing's server).
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
on_exit() {
  local pid
  for pid in "${LANE_PIDS[@]}"; do kill_tree "$pid"; done
  print_times
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

timed_step "setup"
# Release tools (binaryen's wasm-opt): the browser tests run on the build that ships, so the
# size budget measures real bytes. Fuzz tools: schemathesis for scripts/fuzz.sh.
scripts/setup.sh --release-tools --fuzz-tools

if [[ -z "${ROSACE_TEST_PG_URL:-}" ]]; then
  timed_step "local PostgreSQL"
  ROSACE_TEST_PG_URL=$(scripts/pg.sh start)
  export ROSACE_TEST_PG_URL
fi

# Runs "$@" in the background with its output in a file; LANE_PID, LANE_OUT name them.
start_lane() {
  LANE_OUT=$(mktemp /tmp/rosace-lane.XXXXXX)
  "$@" >"$LANE_OUT" 2>&1 &
  LANE_PID=$!
  LANE_PIDS+=("$LANE_PID")
}
# Waits for the lane $1 (pid) writing to $2, shows its output, fails with its title $3.
end_lane() {
  local status=0 pid left=()
  wait "$1" || status=$?
  for pid in "${LANE_PIDS[@]}"; do [[ $pid == "$1" ]] || left+=("$pid"); done
  LANE_PIDS=("${left[@]}")
  step "$3 (ran beside the step above)"
  cat "$2"
  rm -f "$2"
  [[ $status -eq 0 ]] || die "$3 failed (exit $status)"
}

# The browser side: the React widget's checks and build, then the site build as it ships
# (the wasm, in cargo-leptos' own target folder $CARGO_TARGET_DIR/front, so its cargo lock
# is not the test build's). Vite writes public/widgets, which the site build copies. Only the
# browser side: building the server through cargo-leptos would compile most dependencies a
# second time with another feature set, and the test build makes target/debug/server.
# The resident wasm-opt is the lane's own, stopped with it.
front_lane() {
  local t0=$SECONDS
  trap stop_resident_wasm_opt EXIT
  (cd frontend-react && npm test --silent && npm run typecheck --silent && npm run build --silent)
  echo "React widget: vitest, type check, build: $((SECONDS - t0)) s"
  t0=$SECONDS
  start_resident_wasm_opt
  cargo leptos build --release --frontend-only --split
  stop_resident_wasm_opt
  echo "site build (browser side, release): $((SECONDS - t0)) s"
}

timed_step "Rust test build; beside it, the React widget and the site build (browser side, release)"
# The test build keeps about one and a half of the two cores busy (our crates compile one
# after another: app, server, the test binaries); the front lane takes the rest. The tests
# themselves keep both cores busy, and some measure time: the lane ends before they start.
start_lane front_lane
FRONT_PID=$LANE_PID FRONT_OUT=$LANE_OUT
cargo nextest run --workspace --no-run
end_lane "$FRONT_PID" "$FRONT_OUT" "React widget and site build"

timed_step "Rust tests (SQLite and PostgreSQL)"
cargo nextest run --workspace --no-fail-fast

timed_step "security check and HTML validity, side by side"
# Both start a shop of their own on the server cargo nextest built and mostly wait on it.
start_lane scripts/html-check.sh
HTML_PID=$LANE_PID HTML_OUT=$LANE_OUT
step "security check (OWASP ASVS items of the review, on the server cargo nextest built)"
scripts/asvs-check.sh
end_lane "$HTML_PID" "$HTML_OUT" "HTML validity (Nu checker on every server-rendered page kind)"

timed_step "browser tests (Playwright, Debian Chromium headless shell); beside them, the schema fuzzing"
# The two Playwright projects keep 1.75 of the two cores busy on average, less while their
# tests wait on a clock (a cart hold running out, the next TOTP window); the fuzzing
# (schemathesis over every REST operation, on the server cargo nextest built: one Python
# process and a server, 1.1 cores over about 3 minutes) fills those gaps.
start_lane scripts/fuzz.sh
FUZZ_PID=$LANE_PID FUZZ_OUT=$LANE_OUT
end2end/run.sh
end_lane "$FUZZ_PID" "$FUZZ_OUT" "schema fuzzing (schemathesis over the REST API)"

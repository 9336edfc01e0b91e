#!/usr/bin/env bash
# scripts/test.sh — set up what is missing and run every test:
#   1. Rust unit and integration tests (cargo nextest) on SQLite and on a throwaway
#      local PostgreSQL (started by scripts/pg.sh unless ROSACE_TEST_PG_URL is given),
#      including the ts-rs drift check of the React widget's generated types;
#   2. the React widget's vitest tests, type check and build;
#   3. the browser build as it ships (release, split into lazy chunks: cargo leptos build
#      --release --frontend-only --split) and, beside it, schema fuzzing of the REST API
#      (scripts/fuzz.sh: schemathesis over every operation of the OpenAPI document, on the
#      server binary the Rust tests built);
#   4. the OWASP ASVS black-box check of the security review's items (scripts/asvs-check.sh:
#      cookies, headers, CSRF, sessions, lockout, open redirects, member B on member A's
#      ids; over the http origin and an https public origin), on the same binary;
#   5. the Playwright tests (desktop and phone) in Chromium's headless shell against the
#      running shop, including the first-load size budget and axe;
#   6. the Nu HTML checker on the server HTML of every page kind (scripts/html-check.sh).
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
# The fuzzing runs in the background beside the site build: an interrupted or failed run
# stops it too (its own exit trap then stops its server).
FUZZ_PID=
on_exit() {
  if [[ -n "$FUZZ_PID" ]]; then kill "$FUZZ_PID" 2>/dev/null || true; fi
  stop_resident_wasm_opt
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

timed_step "Rust tests (SQLite and PostgreSQL)"
cargo nextest run --workspace --no-fail-fast

timed_step "React widget: vitest, type check, build"
(cd frontend-react && npm test --silent && npm run typecheck --silent && npm run build --silent)

timed_step "site build (browser side, release), with the schema fuzzing beside it"
# The fuzzing (schemathesis over every REST operation, on the server cargo nextest built)
# is one Python process and a server mostly waiting on it; the wasm build is the compiler:
# side by side they share the two cores better than one after the other. Its output comes
# after the build's.
FUZZ_OUT=$(mktemp /tmp/rosace-fuzz-out.XXXXXX)
scripts/fuzz.sh >"$FUZZ_OUT" 2>&1 &
FUZZ_PID=$!
# Building the server again through cargo-leptos would compile most dependencies a second
# time with another feature set; the test build already produced target/debug/server.
start_resident_wasm_opt
cargo leptos build --release --frontend-only --split
stop_resident_wasm_opt
fuzz_status=0
wait "$FUZZ_PID" || fuzz_status=$?
FUZZ_PID=
step "schema fuzzing (schemathesis over the REST API)"
cat "$FUZZ_OUT"
rm -f "$FUZZ_OUT"
[[ $fuzz_status -eq 0 ]] || die "schema fuzzing failed (exit $fuzz_status)"

timed_step "security check (OWASP ASVS items of the review, on the server cargo nextest built)"
scripts/asvs-check.sh

timed_step "browser tests (Playwright, Debian Chromium headless shell)"
end2end/run.sh

timed_step "HTML validity (Nu checker on every server-rendered page kind)"
scripts/html-check.sh

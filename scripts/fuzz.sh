#!/usr/bin/env bash
# scripts/fuzz.sh — schema fuzzing of the REST API: starts the built shop
# (target/debug/server, built by `cargo build -p server` when missing) on a scratch SQLite
# database with the demo data, signs the demo member in through the REST sign-in call and
# runs schemathesis (pinned, from scripts/setup.sh --fuzz-tools) over every operation of
# the served OpenAPI document with that session and the XSRF header. Checks: no server
# error (5xx), every response's status documented and its body matching the documented
# schema. Prints how many cases it tried; exits non-zero on any failure.
#
# Operations that end the member's session (sign-out, deactivation, account deletion) run
# last, in a second pass of their own, so that they cannot sign the member out under the
# rest of the run.
#
# Environment: ROSACE_FUZZ_EXAMPLES (fuzzed cases per operation, default 100),
# ROSACE_FUZZ_SEED (default 20261123), KEEP=1 keeps the scratch folder (server log and
# schemathesis reports). -h prints this.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

ST="$ROOT/.tools/schemathesis-venv/bin/st"
[[ -x "$ST" ]] || die "schemathesis not found (run scripts/setup.sh --fuzz-tools)"
EXAMPLES=${ROSACE_FUZZ_EXAMPLES:-100}
SEED=${ROSACE_FUZZ_SEED:-20261123}

BIN=$(target_dir)/debug/server
if [[ ! -x "$BIN" ]]; then
  step "building the server (cargo build -p server)"
  cargo build -p server
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
DATA=$(mktemp -d /tmp/rosace-fuzz.XXXXXX)
LOG="$DATA/server.log"
SERVER_PID=
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
  stop_pid "$SERVER_PID"
  if [[ -n "${KEEP:-}" ]]; then note "scratch folder kept: $DATA"; else rm -rf "$DATA"; fi
}
trap_cleanup cleanup

# Fuzz traffic comes from one address far faster than people do: the flood limits are
# raised so that the calls reach their handlers (a 429 is documented where it can happen,
# so one would not fail the run either).
start_server "$BIN" "127.0.0.1:$PORT" "$LOG" \
  ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="$BASE" ROSACE_DEMO_DATA=true \
  ROSACE_LOGIN_RATE_LIMIT=1000000 ROSACE_EXISTS_RATE_LIMIT=1000000 \
  ROSACE_REGISTER_RATE_LIMIT=1000000 ROSACE_EMAIL_RATE_LIMIT=1000000 \
  ROSACE_DSA_RATE_LIMIT=1000000 ROSACE_LOCKOUT_THRESHOLD=1000000 \
  RUST_LOG=warn,server=info NO_COLOR=1
wait_for_health "$BASE/health" 60 "$SERVER_PID" || { cat "$LOG"; die "the shop did not start"; }

# The value of cookie $1 set by the response headers in file $2.
set_cookie() {
  sed -n "s/^set-cookie: $1=\([^;]*\).*/\1/Ip" "$2" | tr -d '\r' | tail -n 1
}

# Signs the demo member in: an anonymous XSRF token from a page, then the REST sign-in
# call, which rotates both the session cookie and the XSRF token. Sets COOKIE and XSRF.
sign_in() {
  local headers=$DATA/sign-in.headers xsrf session
  curl -sf -D "$headers" -o /dev/null "$BASE/gr/aboutus" || die "GET /gr/aboutus failed"
  xsrf=$(set_cookie XSRF-TOKEN "$headers")
  visitor=$(set_cookie rosace_visitor "$headers")
  [[ -n "$xsrf" && -n "$visitor" ]] || die "no XSRF-TOKEN or rosace_visitor cookie from /gr/aboutus"
  # A visitor's token is bound to their visitor cookie: both go back.
  curl -sf -D "$headers" -o "$DATA/sign-in.json" -H "Cookie: XSRF-TOKEN=$xsrf; rosace_visitor=$visitor" \
    -H "X-XSRF-TOKEN: $xsrf" -H 'Content-Type: application/json' \
    -d '{"email":"demo@rosace.test","password":"Rosace-demo-2026","rememberMe":false,"siteId":1}' \
    "$BASE/api/authentication/v1/login" || die "the sign-in call failed"
  grep -q '"result":1' "$DATA/sign-in.json" || die "the demo member was not signed in: $(cat "$DATA/sign-in.json")"
  session=$(set_cookie rosace_session "$headers")
  XSRF=$(set_cookie XSRF-TOKEN "$headers")
  [[ -n "$session" && -n "$XSRF" ]] || die "the sign-in call set no session or XSRF cookie"
  COOKIE="rosace_session=$session; XSRF-TOKEN=$XSRF"
}

# The operations that end the session: fuzzed in the last pass only.
SESSION_ENDERS=(
  "POST /api/authentication/v1/logout"
  "POST /api/postsales/v1/account/deactivate"
  "DELETE /api/postsales/v1/account"
)
include_enders=() exclude_enders=()
for op in "${SESSION_ENDERS[@]}"; do
  include_enders+=(--include-name "$op")
  exclude_enders+=(--exclude-name "$op")
done

TOTAL=0
FAILED=0
# One schemathesis pass: name, then filters. Adds its cases to TOTAL.
fuzz() {
  local name=$1 out=$DATA/$1.out status cases
  shift
  step "schemathesis: $name"
  set +e
  # From the scratch folder: schemathesis keeps its example database in the working folder.
  (cd "$DATA" && "$ST" run "$BASE/api/openapi.json" \
    -H "Cookie: $COOKIE" -H "X-XSRF-TOKEN: $XSRF" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing --max-examples "$EXAMPLES" --seed "$SEED" \
    --workers 2 --request-timeout 20 --warnings off --output-truncate false \
    --report junit --report-dir "$DATA/report-$name" \
    "$@") 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  set -e
  cases=$(sed -n 's/^ *\([0-9][0-9]*\) generated.*/\1/p' "$out" | tail -n 1)
  [[ -n "$cases" ]] || { note "$name: cannot read the number of cases"; cases=0; status=1; }
  TOTAL=$((TOTAL + cases))
  [[ $status -eq 0 ]] || FAILED=1
}

started=$SECONDS
sign_in
fuzz member "${exclude_enders[@]}"
# A fresh session: the last pass signs the member out, deactivates or deletes the account.
sign_in
fuzz session-enders "${include_enders[@]}"

# A handler that panics drops its connection (schemathesis reports a network error); the
# log says where.
if grep -q 'panicked at' "$LOG"; then
  echo "--- server log: panics ---"
  grep -A 1 'panicked at' "$LOG" | head -n 20
  FAILED=1
fi
echo
echo "fuzz: $TOTAL cases tried over every operation in $((SECONDS - started)) s (seed $SEED, up to $EXAMPLES fuzzed cases per operation)"
if [[ $FAILED -ne 0 ]]; then
  echo "--- server log: errors ---"
  grep -E ' ERROR ' "$LOG" | tail -n 40 || true
  die "schemathesis found failures (see above)"
fi

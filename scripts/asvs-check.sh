#!/usr/bin/env bash
# scripts/asvs-check.sh — black-box OWASP ASVS check of the shop (scripts/asvs-check.mjs):
# cookie flags, security headers, CSRF on every state-changing operation of the OpenAPI
# document and on the HTML forms, session rotation, logout and lifetimes, account
# lockout, open redirects on every redirect-taking input, and member B trying member A's
# ids on every member route. Prints PASS/FAIL per item and a total; exits non-zero when
# any item fails.
#
#   scripts/asvs-check.sh [--secure] [URL]
#
# With URL, checks that running shop (--secure: its public origin is https although URL
# is plain http; an https URL implies it). It writes to it: use a test shop with the demo
# accounts, or set ASVS_MEMBER_A/ASVS_MEMBER_B=email:password; its sign-in flood limits
# must allow ~40 sign-ins). Without, starts the built shop (target/debug/server, built by
# `cargo build -p server` when missing) twice on scratch SQLite databases with the demo
# data and raised flood limits: once with its plain-http origin, once with an https
# public origin (ROSACE_PUBLIC_ORIGIN=https://...: cookies must then be Secure and
# `__Host-`, responses carry HSTS), and checks each. Sessions' idle timeout (30 min) has
# no setting, so only the cookie lifetimes are checked.
#
# Environment: KEEP=1 keeps the scratch folders (server logs). -h prints this.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

NODE=node
if ! have_cmd node; then
  NODE=$(find "$ROOT/.tools" -maxdepth 4 -type f -name node -perm -u+x 2>/dev/null | head -n 1)
  [[ -n "$NODE" ]] || die "node not found (Node 20 or later)"
fi
CHECK="$ROOT/scripts/asvs-check.mjs"

if [[ $# -gt 0 ]]; then
  exec "$NODE" "$CHECK" "$@"
fi

BIN=$(target_dir)/debug/server
if [[ ! -x "$BIN" ]]; then
  step "building the server (cargo build -p server)"
  cargo build -p server
fi

SERVER_PID=
DATA=
# shellcheck disable=SC2317 # called by the exit trap and between passes
cleanup() {
  stop_pid "$SERVER_PID"
  SERVER_PID=
  if [[ -n "$DATA" ]]; then
    if [[ -n "${KEEP:-}" ]]; then note "scratch folder kept: $DATA"; else rm -rf "$DATA"; fi
  fi
  DATA=
}
trap_cleanup cleanup

FAILED=0
# One pass: a title, then the public origin (empty: the server's own http origin) and the
# checker's options.
pass() {
  local title=$1 origin=$2 port base
  shift 2
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  base="http://127.0.0.1:$port"
  DATA=$(mktemp -d /tmp/rosace-asvs.XXXXXX)
  # One client signs in far more often than a person does: the flood limits are raised
  # (the lockout stays at its default: it is checked).
  start_server "$BIN" "127.0.0.1:$port" "$DATA/server.log" \
    ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="${origin:-$base}" ROSACE_DEMO_DATA=true \
    ROSACE_LOGIN_RATE_LIMIT=1000 ROSACE_EXISTS_RATE_LIMIT=1000 \
    ROSACE_REGISTER_RATE_LIMIT=1000 ROSACE_EMAIL_RATE_LIMIT=1000 \
    RUST_LOG=warn NO_COLOR=1
  wait_for_health "$base/health" 60 "$SERVER_PID" || { cat "$DATA/server.log"; die "the shop did not start"; }
  step "$title"
  "$NODE" "$CHECK" "$@" "$base" || FAILED=1
  if grep -q 'panicked at' "$DATA/server.log"; then
    echo "--- server log: panics ---"
    grep -A 1 'panicked at' "$DATA/server.log" | head -n 20
    FAILED=1
  fi
  cleanup
}

started=$SECONDS
pass "ASVS check: http origin" ""
pass "ASVS check: https public origin (Secure, __Host-, HSTS)" "https://www.rosace.test" --secure
echo
echo "asvs-check: both passes in $((SECONDS - started)) s"
[[ $FAILED -eq 0 ]] || die "some ASVS items failed (see above)"

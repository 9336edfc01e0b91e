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

# Social sign-in's checks (review N5, N6) need a provider: the local test one
# (server/src/test_idp.rs), as the browser tests use it.
IDP_BIN=$(target_dir)/debug/test_idp
[[ -x "$IDP_BIN" ]] || cargo build -q -p server --bin test_idp
IDP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
IDP="http://127.0.0.1:$IDP_PORT"
IDP_LOG=$(mktemp /tmp/rosace-asvs-idp.XXXXXX)
ROSACE_TEST_IDP_ADDR="127.0.0.1:$IDP_PORT" "$IDP_BIN" >"$IDP_LOG" 2>&1 &
IDP_PID=$!
wait_for_health "$IDP/.well-known/openid-configuration" 30 "$IDP_PID" || { cat "$IDP_LOG"; die "the test identity provider did not start"; }
OIDC=("ROSACE_OIDC_GOOGLE_ISSUER=$IDP" "ROSACE_OIDC_GOOGLE_CLIENT_ID=google-test" "ROSACE_OIDC_GOOGLE_CLIENT_SECRET=test-secret")

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
# shellcheck disable=SC2317 # called by the exit trap
stop_idp() { stop_pid "$IDP_PID"; rm -f "$IDP_LOG"; cleanup; }
trap_cleanup stop_idp

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
  # (the lockout stays at its default: it is checked). The checker stands for many clients
  # behind a proxy (X-Forwarded-For from 127.0.0.1) in the account ceiling's check, and
  # reads the request log (info) for secrets.
  start_server "$BIN" "127.0.0.1:$port" "$DATA/server.log" \
    ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="${origin:-$base}" ROSACE_DEMO_DATA=true \
    ROSACE_LOGIN_RATE_LIMIT=1000 ROSACE_EXISTS_RATE_LIMIT=1000 \
    ROSACE_REGISTER_RATE_LIMIT=1000 ROSACE_EMAIL_RATE_LIMIT=1000 \
    ROSACE_TRUSTED_PROXIES=127.0.0.1 ROSACE_UPLOAD_MEMBER_DAY_MB=1 "${OIDC[@]}" \
    RUST_LOG=warn,server::middleware=info NO_COLOR=1
  wait_for_health "$base/health" 60 "$SERVER_PID" || { cat "$DATA/server.log"; die "the shop did not start"; }
  step "$title"
  ASVS_SERVER_LOG="$DATA/server.log" ASVS_OUTBOX="$DATA/outbox" "$NODE" "$CHECK" "$@" "$base" || FAILED=1
  backup_checks
  if grep -q 'panicked at' "$DATA/server.log"; then
    echo "--- server log: panics ---"
    grep -A 1 'panicked at' "$DATA/server.log" | head -n 20
    FAILED=1
  fi
  cleanup
}

# One line per item, as the checker prints them.
verdict() {
  if [[ $2 == ok ]]; then echo "PASS $1"; else echo "FAIL $1: $2"; FAILED=1; fi
}

# Review N9, on the running shop's database: a backup beside the wallet key is refused, and
# one elsewhere is readable by its owner only.
backup_checks() {
  local apart="$DATA-apart" out modes title
  title="backups: refused inside the wallet key's folder (review N9)"
  if out=$(ROSACE_DATA_DIR="$DATA" "$BIN" backup "$DATA/backups/copy.db" 2>&1); then
    verdict "$title" "written: $out"
  elif [[ $out == *"holds the wallet key"* && ! -e "$DATA/backups/copy.db" ]]; then
    verdict "$title" ok
  else
    verdict "$title" "$out"
  fi
  title="backups: owner-only file and folders (review N9)"
  if out=$(ROSACE_DATA_DIR="$DATA" "$BIN" backup "$apart/nightly/copy.db" 2>&1); then
    modes=$(stat -c '%a' "$apart/nightly/copy.db" "$apart/nightly" "$apart" | tr '\n' ' ')
    if [[ $modes == "600 700 700 " ]]; then verdict "$title" ok; else verdict "$title" "modes $modes"; fi
  else
    verdict "$title" "$out"
  fi
  rm -rf "$apart"
}

# Review M5-R: a shop that would serve demo accounts beyond loopback, or production over
# plain http, does not start.
refuses_to_start() {
  local title=$1 want=$2 dir pid log
  shift 2
  dir=$(mktemp -d /tmp/rosace-asvs-start.XXXXXX)
  log=$dir/server.log
  start_server "$BIN" "${ADDR:-127.0.0.1:0}" "$log" ROSACE_DATA_DIR="$dir" RUST_LOG=warn NO_COLOR=1 "$@"
  pid=$SERVER_PID
  SERVER_PID=
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    stop_pid "$pid"
    verdict "$title" "it started"
  elif grep -q "$want" "$log"; then
    verdict "$title" ok
  else
    verdict "$title" "stopped without saying \"$want\": $(tail -n 3 "$log")"
  fi
  rm -rf "$dir"
}

started=$SECONDS
step "ASVS check: start-up refusals (review M5-R)"
ADDR=0.0.0.0:0 refuses_to_start "start-up: no demo accounts on a server listening beyond loopback" \
  "beyond loopback" ROSACE_DEMO_DATA=true
refuses_to_start "start-up: production needs an https public origin" "https" \
  ROSACE_ENV=production ROSACE_DEMO_DATA=false ROSACE_PUBLIC_ORIGIN=http://shop.example
pass "ASVS check: http origin" ""
pass "ASVS check: https public origin (Secure, __Host-, HSTS)" "https://www.rosace.test" --secure
echo
echo "asvs-check: both passes in $((SECONDS - started)) s"
[[ $FAILED -eq 0 ]] || die "some ASVS items failed (see above)"

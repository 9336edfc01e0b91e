# scripts/lib.sh — shell helpers shared by the scripts under scripts/ and end2end/run.sh.
#
# Sourced, never executed:  . "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"   (scripts/*.sh)
#                           . "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"  (scripts/bench/*.sh)
# Sourcing it only defines ROOT (the repository, absolute) and the functions below: it
# changes no directory, sets no option or trap and prints nothing. Messages are prefixed
# with the running script's name ("bench-cart.sh: ...") and go to stderr.
#
#   die MSG...                   print MSG and exit 1
#   note MSG...                  print MSG
#   die_usage TEXT               print "usage: TEXT" and exit 2
#   step TITLE...                a section title on stdout: blank line, "==> TITLE"
#   usage_from_header FILE       print FILE's header comment (line 2 up to `set -euo`),
#                                without the leading "# ": what -h prints
#   have_cmd NAME                NAME is a command on PATH
#   need_cmd NAME [HINT]         die "NAME not found (HINT)" unless it is
#   target_dir                   print cargo's target folder, absolute (CARGO_TARGET_DIR,
#                                relative to ROOT when relative; default ROOT/target)
#   addr_answers HOST:PORT       something answers HTTP on http://HOST:PORT/ (2 s timeout)
#   ensure_addr_free HOST:PORT   die when something already answers there
#   start_server BIN ADDR LOG [NAME=VALUE...]
#                                start the shop binary BIN in the background on ADDR with
#                                the release site settings (LEPTOS_SITE_ROOT=ROOT/target/site,
#                                pkg, rosace, LEPTOS_ENV=PROD) plus NAME=VALUE (later ones
#                                win, so LEPTOS_SITE_ROOT=... overrides); stdout and stderr
#                                to LOG; sets SERVER_PID. Call it directly, not in $(...).
#                                The newest front-end hash file, if any, names the
#                                content-hashed built files.
#   wait_for_health URL [SECONDS] [PID]
#                                wait until URL answers 200 (default 60 s, polled every
#                                0.5 s); gives up early when process PID exits. 0 when it
#                                answered, 1 otherwise
#   stop_pid PID [SECONDS]       SIGTERM PID, wait up to SECONDS (default 5) for it to
#                                exit, then SIGKILL; reaps it. Nothing when PID is empty
#   keep_or_remove DIR           remove DIR, or keep it and say so when ROSACE_BENCH_KEEP=1
#   trap_cleanup FUNC            run FUNC on exit; Ctrl-C exits 130 and SIGTERM 143 (so
#                                FUNC runs then too)

# shellcheck shell=bash

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)

die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

note() {
    echo "${0##*/}: $*" >&2
}

die_usage() {
    echo "usage: $*" >&2
    exit 2
}

step() {
    printf '\n==> %s\n' "$*"
}

usage_from_header() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$1"
}

have_cmd() {
    command -v "$1" >/dev/null 2>&1
}

need_cmd() {
    have_cmd "$1" || die "$1 not found${2:+ ($2)}"
}

target_dir() {
    local dir=${CARGO_TARGET_DIR:-$ROOT/target}
    case $dir in /*) ;; *) dir=$ROOT/$dir ;; esac
    printf '%s\n' "$dir"
}

addr_answers() {
    curl -s -o /dev/null --max-time 2 "http://$1/" 2>/dev/null
}

ensure_addr_free() {
    if addr_answers "$1"; then
        die "something already answers on $1: stop it first"
    fi
}

# The hash file of the newest front-end build (cargo-leptos `hash-files` writes it beside the
# binary of the profile it built, release or debug); empty when there is none.
front_hash_file() {
    local dir
    dir=$(target_dir)
    # shellcheck disable=SC2012 # two fixed names, no odd characters
    { ls -t "$dir/release/hash.txt" "$dir/debug/hash.txt" 2>/dev/null || true; } | head -n 1
}

start_server() {
    local bin=$1 addr=$2 log=$3 hash_file
    shift 3
    hash_file=$(front_hash_file)
    # Built files carry content hashes; the server reads their names from the hash file.
    local hashes=(LEPTOS_HASH_FILES=false)
    if [[ -n "$hash_file" ]]; then
        hashes=(LEPTOS_HASH_FILES=true LEPTOS_HASH_FILE_NAME="$hash_file")
    fi
    env LEPTOS_SITE_ROOT="$ROOT/target/site" LEPTOS_SITE_PKG_DIR=pkg LEPTOS_OUTPUT_NAME=rosace \
        LEPTOS_SITE_ADDR="$addr" LEPTOS_ENV=PROD "${hashes[@]}" "$@" "$bin" >"$log" 2>&1 &
    # shellcheck disable=SC2034 # read by the calling script
    SERVER_PID=$!
}

wait_for_health() {
    local url=$1 seconds=${2:-60} pid=${3:-} code i
    for ((i = 0; i < seconds * 2; i++)); do
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 2>/dev/null || true)
        [ "$code" = 200 ] && return 0
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
        sleep 0.5
    done
    return 1
}

# Runs one SQL query on a benchmark's database (`sqlite` with a file path, or `postgres`
# with a URL) and prints its first row, fields separated by spaces.
sql_row() {
    local engine=$1 db=$2 query=$3
    if [ "$engine" = sqlite ]; then
        python3 - "$db" "$query" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(*db.execute(sys.argv[2]).fetchone())
PY
    else
        psql -X -q -t -A -F ' ' "$db" -c "$query"
    fi
}

stop_pid() {
    local pid=$1 seconds=${2:-5} i
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < seconds * 4; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

keep_or_remove() {
    if [ "${ROSACE_BENCH_KEEP:-0}" = 1 ]; then
        note "scratch folder kept: $1"
    else
        rm -rf -- "$1"
    fi
}

trap_cleanup() {
    # shellcheck disable=SC2064 # FUNC is expanded now, on purpose
    trap "$1" EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# Puts a resident wasm-opt first on PATH for the release builds that follow (cargo-leptos
# runs wasm-opt once per wasm file, about 120 in a split build, and binaryen's npm build
# spends 2.7 s of CPU starting each time: scripts/wasm-opt/server.mjs loads it once).
# Needs setup.sh --release-tools; stop_resident_wasm_opt stops it (from an exit trap too).
WASM_OPT_PID=
WASM_OPT_DIR=
start_resident_wasm_opt() {
    local dir module
    module=$ROOT/.tools/binaryen/node_modules/binaryen/index.js
    [ -f "$module" ] || die "binaryen is not installed (scripts/setup.sh --release-tools)"
    dir=$(mktemp -d "${TMPDIR:-/tmp}/rosace-wasm-opt.XXXXXX")
    WASM_OPT_DIR=$dir
    mkdir "$dir/bin"
    ln -s "$ROOT/scripts/wasm-opt/client.mjs" "$dir/bin/wasm-opt"
    export ROSACE_WASM_OPT_SOCKET=$dir/socket
    node "$ROOT/scripts/wasm-opt/server.mjs" "$ROSACE_WASM_OPT_SOCKET" "$module" >"$dir/log" 2>&1 &
    WASM_OPT_PID=$!
    local i
    for ((i = 0; i < 120; i++)); do
        grep -q '^ready' "$dir/log" 2>/dev/null && break
        kill -0 "$WASM_OPT_PID" 2>/dev/null || { cat "$dir/log" >&2; die "the resident wasm-opt did not start"; }
        sleep 0.25
    done
    grep -q '^ready' "$dir/log" || die "the resident wasm-opt did not start within 30 s"
    export PATH="$dir/bin:$PATH"
}

stop_resident_wasm_opt() {
    stop_pid "$WASM_OPT_PID"
    WASM_OPT_PID=
    [ -z "$WASM_OPT_DIR" ] || rm -rf -- "$WASM_OPT_DIR"
    WASM_OPT_DIR=
}

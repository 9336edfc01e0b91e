#!/usr/bin/env bash
# scripts/bench/bench-first-page.sh — how long `scripts/run.sh` takes from a fresh machine to
# its first page, for one or more commits, one after the other: each from a new clone, with
# an empty CARGO_HOME (so cargo-leptos and wasm-bindgen-cli are built and every crate is
# downloaded), an empty npm cache and an empty target folder, and only the rustup proxies on
# PATH (no tool installed earlier is found). Prints the seconds to the first answer of
# http://127.0.0.1:3000/ and the set-up's own time per commit. A benchmark: it prints
# figures and never fails on them. Needs the Rust toolchain (rustup), Debian's packages and
# port 3000 free; run it on an otherwise idle machine (it takes 12-20 minutes per commit).
#
# Usage: scripts/bench/bench-first-page.sh [commit...]   (default: HEAD)
# Environment:
#   ROSACE_BENCH_KEEP=1   keep the scratch folders (clone, CARGO_HOME, run log)
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"

case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
[[ $# -gt 0 ]] || set -- HEAD
have_cmd rustup || die "rustup not found"
ensure_addr_free 127.0.0.1:3000

RUSTUP_BIN=$(dirname -- "$(command -v rustup)")
run_pid=
scratch=
# setsid makes each run its own process group: stop all of it (cargo-leptos, the server),
# on an interrupt too.
stop_run() {
    [[ -n "$run_pid" ]] || return 0
    kill -TERM -- "-$run_pid" 2>/dev/null || true
    wait "$run_pid" 2>/dev/null || true
    for _ in $(seq 1 20); do
        addr_answers 127.0.0.1:3000 || break
        sleep 1
    done
    pkill -TERM -f "$scratch/clone/target/" 2>/dev/null || true
    run_pid=
}
trap_cleanup stop_run
for commit in "$@"; do
    rev=$(git -C "$ROOT" rev-parse --short "$commit")
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/rosace-first-page.XXXXXX")
    mkdir -p "$scratch/cargo" "$scratch/npm" "$scratch/bin"
    # The rustup proxies alone: cargo-leptos or wasm-bindgen installed beside them must not
    # be found.
    for tool in cargo rustc rustup rustdoc rustfmt; do
        ln -s "$RUSTUP_BIN/$tool" "$scratch/bin/$tool"
    done
    git clone -q "$ROOT" "$scratch/clone"
    git -C "$scratch/clone" checkout -q "$rev"
    start=$(date +%s)
    (
        cd "$scratch/clone"
        unset CARGO_TARGET_DIR
        export CARGO_HOME="$scratch/cargo" npm_config_cache="$scratch/npm"
        export PATH="$scratch/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        exec setsid scripts/run.sh >"$scratch/run.log" 2>&1
    ) &
    run_pid=$!
    seconds=
    while kill -0 "$run_pid" 2>/dev/null; do
        if curl -s -o /dev/null --max-time 5 http://127.0.0.1:3000/; then
            seconds=$(($(date +%s) - start))
            break
        fi
        sleep 3
    done
    setup=$(sed -n 's/.*Set-up done after \([0-9]*\)s.*/\1/p' "$scratch/run.log" | head -n 1)
    stop_run
    if [[ -z "$seconds" ]]; then
        echo "$rev: no first page (run.sh ended; log: $scratch/run.log)"
        continue
    fi
    printf '%s: first page after %d s (%d min %02d s); set-up done after %s s\n' \
        "$rev" "$seconds" $((seconds / 60)) $((seconds % 60)) "${setup:-?}"
    keep_or_remove "$scratch"
done

#!/usr/bin/env bash
# scripts/run.sh — set up what is missing, build, and run the shop on http://127.0.0.1:3000
# with an embedded SQLite database in ./data (created, migrated and filled with demo data
# on first start). Pass --release for an optimised build (slower to build, faster pages);
# -h prints this.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

RELEASE=()
# Debug builds use the `local` profile (Cargo.toml: dependencies unoptimised, except the few a
# local shop feels), as cargo-leptos does (`bin-profile-dev`, `lib-profile-dev`).
SERVER_PROFILE=(--profile=local)
FRONT_PROFILE=(--profile=local)
# shellcheck disable=SC2054 # "rust,npm" is one argument: the list of groups
SETUP_FLAGS=(--only rust,npm)
if [[ "${1:-}" == "--release" ]]; then
  RELEASE=(--release)
  SERVER_PROFILE=(--release)
  FRONT_PROFILE=(--profile=wasm-release)
  SETUP_FLAGS+=(--release-tools)
fi

# The server's build needs neither cargo-leptos nor the browser build: start it now, beside
# the tool installs and cargo-leptos' browser build (target/front), instead of after them.
# It is the command cargo-leptos runs for the server (same features and environment,
# LEPTOS_OUTPUT_NAME coming from .cargo/config.toml), so cargo-leptos then finds it done
# (or waits for it). Its errors, if any, come again from cargo-leptos.
mkdir -p "$(target_dir)"
PREBUILD_LOG=$(target_dir)/run-server-prebuild.log
# Once built, `server prepare` migrates and creates the demo data (14 s on a first start)
# while the tools still install, instead of after them.
SERVER_BIN=$(target_dir)/${SERVER_PROFILE[0]#--profile=}/server
[[ ${#RELEASE[@]} -gt 0 ]] && SERVER_BIN=$(target_dir)/release/server
{
  cargo build "${SERVER_PROFILE[@]}" --package=server --bin=server --no-default-features \
    && "$SERVER_BIN" prepare
} >"$PREBUILD_LOG" 2>&1 &
PREBUILD_PID=$!
# The browser side's build too, beside them: the command cargo-leptos runs for it (with
# `--split`, the relocations wasm-split needs) into its folder, target/front (on a fresh
# machine the front end then no longer starts after the tools: 4 min on 2 cores).
FRONT_LOG=$(target_dir)/run-front-prebuild.log
mkdir -p "$(target_dir)/front"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
RUSTFLAGS="-Clink-args=--emit-relocs" cargo build "${FRONT_PROFILE[@]}" --package=app --lib \
  --target-dir="$(target_dir)/front" --target=wasm32-unknown-unknown --no-default-features \
  --features=hydrate >"$FRONT_LOG" 2>&1 &
FRONT_PID=$!
# The server's build runs in a subshell (build, then prepare): its children get the signal too.
stop_prebuild() {
  pkill -TERM -P "$PREBUILD_PID" 2>/dev/null || true
  stop_pid "$PREBUILD_PID"; stop_pid "$FRONT_PID"; stop_resident_wasm_opt
}
trap_cleanup stop_prebuild
echo "Building the server and the browser side in the background (logs: $PREBUILD_LOG, $FRONT_LOG)."

# The tools' installs yield the cores to the two builds above: those end in long
# one-core stretches (the app and server crates), the installs are hundreds of small
# crates that fill whatever core is free, so the builds' serial ends no longer wait
# behind them (docs/setup.md).
nice -n 10 scripts/setup.sh "${SETUP_FLAGS[@]}"
(cd frontend-react && npm run build --silent)
echo "Set-up done after ${SECONDS}s. Building and starting the shop; open http://127.0.0.1:3000 when it says it is listening."
# The shop must not start while `server prepare` still writes the demo data: both would
# create it. Its failure is not fatal: the shop's own start-up does the same and says why.
wait "$PREBUILD_PID" || true
# A release build runs wasm-opt on each of its ~120 WASM files: one resident wasm-opt.
if [[ ${#RELEASE[@]} -gt 0 ]]; then start_resident_wasm_opt; fi
# --split: page-specific islands are lazy and live in their own WASM chunks.
cargo leptos serve --split "${RELEASE[@]}"

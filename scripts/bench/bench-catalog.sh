#!/usr/bin/env bash
# scripts/bench/bench-catalog.sh — requests/s and p99 of a 48-item sale catalog page (the
# first page of the open-door SEO variant of sale 1001, France), side by side with nginx
# serving the same bytes as a static file. A benchmark: it prints figures and never fails
# on them. Same environment switches as scripts/bench/bench-home.sh
# (ROSACE_BENCH_NO_BUILD=1 reuses the release build, ROSACE_BENCH_SECONDS sets the wrk
# duration).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"
case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
exec "$(dirname -- "${BASH_SOURCE[0]}")/bench-home.sh" "/c/vente/1001/0?site=1"

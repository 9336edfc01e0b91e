#!/usr/bin/env bash
# scripts/bench/bench-import.sh — how long the feed import takes for a 10,000-product feed
# (10 sales of 1,000 products, 3 options each: 30,000 options), with the release server
# binary's `server import` on a scratch database: a dry run, the first import, the same
# feed again (nothing changes) and the feed with every stock edited (30,000 guarded
# updates). A benchmark: it prints figures and never fails on them.
#
# Environment:
#   ROSACE_BENCH_NO_BUILD=1     reuse the existing release build
#   ROSACE_BENCH_PRODUCTS=N     products in the feed (default 10000)
#   DATABASE_URL                a PostgreSQL database to import into (default: a scratch SQLite file)
#   ROSACE_BENCH_KEEP=1         keep the scratch folder
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"
case ${1:-} in
    -h | --help) usage_from_header "$0"; exit 0 ;;
esac
cd "$ROOT"
need_cmd python3 "Debian's python3"
PRODUCTS=${ROSACE_BENCH_PRODUCTS:-10000}
SERVER_BIN=$(target_dir)/release/server
if [ "${ROSACE_BENCH_NO_BUILD:-0}" != 1 ]; then
    note "building the release server (cargo build --release -p server)"
    cargo build --release -p server >&2
fi
[ -x "$SERVER_BIN" ] || die "no release server binary at $SERVER_BIN"

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rosace-bench-import.XXXXXX")
cleanup() { keep_or_remove "$SCRATCH"; }
trap_cleanup cleanup

gen() { # $1 = stock offset, $2 = file
    python3 - "$PRODUCTS" "$1" >"$2" <<'PY'
import json, sys
products, offset = int(sys.argv[1]), int(sys.argv[2])
per_sale = 1000
sales = []
for s in range((products + per_sale - 1) // per_sale):
    items = []
    for p in range(s * per_sale, min(products, (s + 1) * per_sale)):
        items.append({"ref": f"p{p}", "name": f"Produit {p}", "brand": f"Marque {p % 40}", "color": "bleu",
                      "price": f"{10 + p % 90}.90", "retail_price": f"{100 + p % 90}.00",
                      "data_sheet": "<p>Laine</p>",
                      "options": [{"ref": f"p{p}-{size}", "label": size, "stock": 5 + offset + i}
                                  for i, size in enumerate(["S", "M", "L"])]})
    sales.append({"ref": f"s{s}", "site": 1, "name": f"Vente {s}", "offer_type": "FlashSale",
                  "opens": "2026-12-01T08:00:00Z", "closes": "2026-12-04T20:00:00Z", "products": items})
print(json.dumps({"sales": sales}))
PY
}
gen 0 "$SCRATCH/feed.json"
gen 1 "$SCRATCH/feed-edited.json"
note "feed: $PRODUCTS products, $(du -h "$SCRATCH/feed.json" | cut -f1)"

run() { # label, args...
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    env ROSACE_DATA_DIR="$SCRATCH/data" ROSACE_DEMO_DATA=false RUST_LOG=warn "$SERVER_BIN" import "$@" >"$SCRATCH/out.txt" 2>&1 || { cat "$SCRATCH/out.txt" >&2; die "$label failed"; }
    end=$(date +%s.%N)
    printf '%-34s %7.2f s   %s\n' "$label" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$(tail -n 1 "$SCRATCH/out.txt")"
}
mkdir -p "$SCRATCH/data"
run "dry run" "$SCRATCH/feed.json" --dry-run
run "first import" "$SCRATCH/feed.json"
run "same feed again" "$SCRATCH/feed.json"
run "every stock edited" "$SCRATCH/feed-edited.json"

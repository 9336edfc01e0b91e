#!/usr/bin/env bash
# scripts/bench/page-weight.sh — how heavy the home page's JS and WASM are on the wire.
#
# Prints, for each JS and WASM file the page loads, its raw size, its gzip -9 size and,
# when `brotli` is on PATH, its brotli (quality 11) size, then totals per kind and overall.
#
#   scripts/bench/page-weight.sh [BASE_URL]       read BASE_URL/?site=1 from a running
#                                                 server (default http://127.0.0.1:3100),
#                                                 find the files it loads and download them
#   scripts/bench/page-weight.sh --files [SITE]   no server: measure every .js/.mjs/.wasm
#                                                 under SITE/pkg and SITE/widgets
#                                                 (default target/site)
#
# Files found in the page: <script src>, <link rel="modulepreload" href>, <link href>
# ending in .js/.mjs/.wasm (Leptos' `rel="preload" as="fetch"` for the wasm), and any
# /pkg/… or /widgets/… .js/.wasm path in the HTML (the hydration script imports them);
# then, recursively, the static imports (`import … from "…"`, `import "…"`) of each JS
# file. Dynamic import() inside JS files is not followed (loaded later, if at all).
# ROSACE_PAGE_PATH changes the page (default /?site=1). Sizes are in bytes.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib.sh"
PAGE_PATH=${ROSACE_PAGE_PATH:-/?site=1}
usage() { usage_from_header "$0"; }

MODE=url
BASE=http://127.0.0.1:3100
SITE=$ROOT/target/site
case ${1:-} in
    -h | --help) usage; exit 0 ;;
    --files)
        MODE=files
        if [ $# -ge 2 ]; then SITE=$2; fi
        [ $# -le 2 ] || die "too many arguments"
        ;;
    -*) usage >&2; exit 2 ;;
    "") ;;
    *)
        BASE=${1%/}
        [ $# -le 1 ] || die "too many arguments"
        ;;
esac

HAVE_BROTLI=0
if have_cmd brotli; then HAVE_BROTLI=1; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rosace-page-weight.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# name<TAB>local file, in the order found
LIST=$WORK/list.tsv
: >"$LIST"

# ------------------------------------------------------------ collecting the files

# Where REF, found in the page or module at FROM (a path on BASE, or a full URL), points:
# a path on BASE (cleaned of ./ and ../), or a full URL when it is on another host.
resolve_path() {
    local ref=$1 from=$2 dir q=""
    ref=${ref%%#*}
    case $ref in
        //*) ref=${BASE%%//*}$ref ;;
    esac
    case $ref in
        "$BASE"/*) ref=${ref#"$BASE"} ;;
        http://* | https://*) printf '%s\n' "$ref"; return 0 ;;
        /*) ;;
        *)
            case $from in
                http://* | https://*) printf '%s\n' "${from%/*}/$ref"; return 0 ;;
            esac
            dir=${from%%\?*}
            dir=${dir%/*}
            ref=$dir/$ref
            ;;
    esac
    case $ref in *\?*) q="?${ref#*\?}"; ref=${ref%%\?*} ;; esac
    # Lexical clean-up only: the paths need not exist on this machine.
    printf '%s%s\n' "$(realpath -ms -- "$ref")" "$q"
}

# References to JS/WASM in an HTML file, one per line, in document order.
html_refs() {
    local html=$1 tag
    # Tags first: <script src=…>, <link rel=modulepreload href=…>, <link href=….js|.wasm>
    tr '\n' ' ' <"$html" | grep -oiE '<(script|link)[[:space:]][^>]*>' | while IFS= read -r tag; do
        local val
        val=$(printf '%s' "$tag" | sed -nE 's/.*[[:space:]](src|href)[[:space:]]*=[[:space:]]*["'\'']?([^"'\'' >]+).*/\2/ip')
        [ -n "$val" ] || continue
        case $tag in
            "<script"* | "<SCRIPT"*) printf '%s\n' "$val" ;;
            *)
                if printf '%s' "$tag" | grep -qiE 'rel[[:space:]]*=[[:space:]]*["'\'']?modulepreload'; then
                    printf '%s\n' "$val"
                elif printf '%s' "${val%%\?*}" | grep -qiE '\.(m?js|wasm)$'; then
                    printf '%s\n' "$val"
                fi
                ;;
        esac
    done
    # Then any /pkg/… or /widgets/… script or wasm path in the text (hydration script).
    grep -oE '(https?://[^/"'\'' ]+)?/(pkg|widgets)/[A-Za-z0-9_./@~+-]+\.(m?js|wasm)' "$html" || true
}

# Static imports of a JS module, one per line.
js_imports() {
    grep -oE '(\bfrom|\bimport)[[:space:]]*["'\''][^"'\'']+\.m?js["'\'']' "$1" \
        | sed -E 's/^(from|import)[[:space:]]*["'\'']([^"'\'']+)["'\'']$/\2/' || true
}

declare -A SEEN=()
QUEUE=()

# One entry per file: the same path with another query string counts once.
enqueue() {
    local path=$1 key
    [ -n "$path" ] || return 0
    key=${path%%\?*}
    [ -z "${SEEN[$key]:-}" ] || return 0
    SEEN[$key]=1
    QUEUE+=("$path")
}

if [ "$MODE" = url ]; then
    have_cmd curl || die "curl is needed"
    page_url=$BASE$PAGE_PATH
    if ! curl -fsS --max-time 20 -o "$WORK/page.html" "$page_url" 2>"$WORK/curl.err"; then
        cat "$WORK/curl.err" >&2
        die "cannot read $page_url; is the server running? (or measure the built files: $0 --files)"
    fi
    while IFS= read -r ref; do
        enqueue "$(resolve_path "$ref" "$PAGE_PATH")"
    done < <(html_refs "$WORK/page.html")

    i=0
    while [ "$i" -lt "${#QUEUE[@]}" ]; do
        path=${QUEUE[$i]}
        i=$((i + 1))
        local_file=$WORK/f$i
        case $path in http://* | https://*) url=$path ;; *) url=$BASE$path ;; esac
        if ! curl -fsS --max-time 60 -o "$local_file" "$url" 2>"$WORK/curl.err"; then
            note "warning: cannot download $path: $(head -c 200 "$WORK/curl.err")"
            continue
        fi
        printf '%s\t%s\n' "$path" "$local_file" >>"$LIST"
        case ${path%%\?*} in
            *.js | *.mjs)
                while IFS= read -r ref; do
                    enqueue "$(resolve_path "$ref" "$path")"
                done < <(js_imports "$local_file")
                ;;
        esac
    done
    echo "page: $page_url"
else
    [ -d "$SITE" ] || die "no folder $SITE (build the site first, or give the site folder)"
    found=0
    for sub in pkg widgets; do
        [ -d "$SITE/$sub" ] || continue
        while IFS= read -r f; do
            printf '/%s\t%s\n' "${f#"$SITE"/}" "$f" >>"$LIST"
            found=1
        done < <(find "$SITE/$sub" -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.wasm' \) | LC_ALL=C sort)
    done
    [ "$found" = 1 ] || die "no .js/.mjs/.wasm files under $SITE/pkg or $SITE/widgets"
    echo "files: $SITE/{pkg,widgets}"
fi

[ -s "$LIST" ] || die "the page loads no JS or WASM file that could be found"

# ------------------------------------------------------------ measuring

# Stdin, so that gzip stores no file name: the size a server would send.
gz_size() { gzip -9 -n -c <"$1" | wc -c; }
br_size() { brotli -q 11 -c <"$1" | wc -c; }

kib() { awk -v b="$1" 'BEGIN { printf "%.1f KiB", b / 1024 }'; }

declare -A TOT_RAW=([js]=0 [wasm]=0 [all]=0) TOT_GZ=([js]=0 [wasm]=0 [all]=0) TOT_BR=([js]=0 [wasm]=0 [all]=0)
declare -A COUNT=([js]=0 [wasm]=0 [all]=0)

width=4
while IFS=$'\t' read -r name _; do
    [ "${#name}" -le "$width" ] || width=${#name}
done <"$LIST"

row() {
    if [ "$HAVE_BROTLI" = 1 ]; then
        printf "%-${width}s  %10s  %10s  %10s\n" "$1" "$2" "$3" "$4"
    else
        printf "%-${width}s  %10s  %10s\n" "$1" "$2" "$3"
    fi
}

row file raw gzip-9 brotli
while IFS=$'\t' read -r name file; do
    raw=$(wc -c <"$file")
    gz=$(gz_size "$file")
    br=-
    if [ "$HAVE_BROTLI" = 1 ]; then br=$(br_size "$file"); fi
    case ${name%%\?*} in *.wasm) kind=wasm ;; *) kind=js ;; esac
    for k in "$kind" all; do
        TOT_RAW[$k]=$((TOT_RAW[$k] + raw))
        TOT_GZ[$k]=$((TOT_GZ[$k] + gz))
        COUNT[$k]=$((COUNT[$k] + 1))
        if [ "$HAVE_BROTLI" = 1 ]; then TOT_BR[$k]=$((TOT_BR[$k] + br)); fi
    done
    row "$name" "$raw" "$gz" "$br"
done <"$LIST"

echo
for k in js wasm all; do
    [ "${COUNT[$k]}" -gt 0 ] || [ "$k" = all ] || continue
    br=-
    if [ "$HAVE_BROTLI" = 1 ]; then br=${TOT_BR[$k]}; fi
    row "total $k (${COUNT[$k]})" "${TOT_RAW[$k]}" "${TOT_GZ[$k]}" "$br"
done
summary="total: raw $(kib "${TOT_RAW[all]}"), gzip -9 $(kib "${TOT_GZ[all]}")"
if [ "$HAVE_BROTLI" = 1 ]; then summary+=", brotli $(kib "${TOT_BR[all]}")"; fi
echo "$summary"
if [ "$HAVE_BROTLI" = 0 ]; then echo "(brotli not on PATH: no brotli column; apt-get install brotli)"; fi

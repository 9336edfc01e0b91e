//! The product page's bundle section (`product::bundle`): the products sold together, an
//! option of each, what the bundle costs in them, and a server form that puts them all in
//! the cart. Changing an option asks the server for the section again (`data-enhance-refresh`,
//! the page with `option_{productId}` in its address), so the total is always the server's;
//! without scripts each option says its own price where it has one.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::catalog_api::{Bundle, BundleItem, BundlePrice};
use crate::product::bundle::{bundle_price, BundleRefusal, FORM_ROUTE};

/// Messages the form may come back with (`?error=`): only these keys, and the cart's own
/// (`cart.errors.*`), are shown.
const ERRORS: [&str; 4] = [
    "product.bundle.not_in_bundle",
    "product.bundle.sold_out",
    "errors.not_found",
    "errors.general_retry.notification",
];

fn shown_error(key: &str) -> bool {
    ERRORS.contains(&key)
        || key.strip_prefix("cart.errors.").is_some_and(|rest| {
            !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        })
}

/// The options a page address asks for (`option_{productId}`), one per product at most.
pub fn chosen_in(bundle: &Bundle, value_of: impl Fn(&str) -> Option<String>) -> Vec<i64> {
    bundle
        .items
        .iter()
        .filter_map(|i| value_of(&format!("option_{}", i.product_id)))
        .filter_map(|v| v.trim().parse::<i64>().ok())
        .collect()
}

#[component]
pub fn BundleSection(
    bundle: Bundle,
    /// The product page's path, where the form comes back to.
    path: String,
    chosen: Vec<i64>,
    error: Option<String>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    // Options the address names that are not the bundle's, or sold out since, give way to
    // the first in stock: the section then shows what the form would add.
    let priced: Result<BundlePrice, BundleRefusal> =
        bundle_price(&bundle, &chosen).or_else(|_| bundle_price(&bundle, &[]));
    let error = error.filter(|k| shown_error(k)).map(|k| ctx.t(&k));
    let sold_out = priced.is_err().then(|| ctx.t("product.bundle.sold_out"));
    let count = bundle.items.len().to_string();
    let (no_error, refresh) = (error.is_none(), path.clone());
    let items = bundle
        .items
        .iter()
        .map(|item| {
            let option = priced.as_ref().ok().and_then(|p| {
                p.lines
                    .iter()
                    .find(|l| l.product_id == item.product_id)
                    .map(|l| l.option_id)
            });
            view! { <BundleRow item=item.clone() sale_id=bundle.sale_id option /> }
        })
        .collect_view();
    let total = priced.as_ref().ok().map(|p| {
        let discount = crate::site::format::discount_percent(p.price.value, p.price.retail_value);
        view! {
            <p class="bundle__total" data-testid="bundle-price">
                {ctx.t("product.bundle.total")}" "
                <strong>{ctx.money(p.price.value)}</strong>" "
                <s>{ctx.money(p.price.retail_value)}</s>
                {discount.map(|d| view! { " "<span class="product__discount">{format!("-{d}%")}</span> })}
            </p>
        }
    });
    view! {
        <section id="bundle" class="bundle" aria-labelledby="bundle-title" data-testid="bundle"
            data-enhance-region="bundle">
            <h2 id="bundle-title">{ctx.t("product.bundle.title")}</h2>
            <p class="bundle__intro">{ctx.t_with("product.bundle.intro", &[("count", &count)])}</p>
            <p class="account-notice account-notice--error" role="alert" hidden=no_error
                data-testid="bundle-error" data-enhance-announce="">{error}</p>
            <form method="post" action=FORM_ROUTE class="bundle__form" data-enhance=""
                data-enhance-refresh=refresh>
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <input type="hidden" name="saleId" value=bundle.sale_id.to_string() />
                <input type="hidden" name="bundleId" value=bundle.id.to_string() />
                <input type="hidden" name="returnTo" value=path />
                <ul class="bundle__items">{items}</ul>
                {total}
                {sold_out.map(|m| view! { <p class="bundle__sold-out" data-testid="bundle-sold-out">{m}</p> })}
                <button type="submit" class="button button--primary" data-testid="bundle-add"
                    disabled=priced.is_err()>
                    {ctx.t_with("product.bundle.add", &[("count", &count)])}
                </button>
            </form>
        </section>
    }
}

#[component]
fn BundleRow(item: BundleItem, sale_id: i64, option: Option<i64>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let href = format!("/product/{sale_id}/{}", item.product_id);
    let field = format!("bundle-option-{}", item.product_id);
    let price = item
        .options
        .iter()
        .find(|o| Some(o.id) == option)
        .map(|o| o.price.value)
        .unwrap_or(item.price.value);
    let options = item
        .options
        .iter()
        .map(|o| {
            // An option at a price of its own says it, so the total holds without scripts.
            let label = if o.price.value != item.price.value {
                format!("{} · {}", o.label, ctx.money(o.price.value))
            } else {
                o.label.clone()
            };
            let label = if o.stock > 0 {
                label
            } else {
                format!("{label} ({})", ctx.t("product.out_of_stock"))
            };
            view! {
                <option value=o.id.to_string() selected={Some(o.id) == option} disabled={o.stock <= 0}>{label}</option>
            }
        })
        .collect_view();
    view! {
        <li class="bundle__item" data-testid="bundle-item" data-product-id=item.product_id>
            <div class="bundle__picture">
                <img src=item.image_url.clone() alt="" width="96" height="96" loading="lazy" />
            </div>
            <div class="bundle__text">
                <p class="bundle__brand">{item.brand.clone()}</p>
                <p class="bundle__name"><a href=href>{item.name.clone()}</a></p>
                <label class="bundle__option" for=field.clone()>{ctx.t("product.options")}</label>
                <select id=field name=format!("option_{}", item.product_id) data-enhance-refresh=""
                    data-testid="bundle-option">
                    {options}
                </select>
                <p class="bundle__price">{ctx.money(price)}</p>
            </div>
        </li>
    }
}

//! Product page. Options, favourites and the data sheet come with the shopping-core work;
//! this page already carries the report-illegal-content widget.
#[cfg(feature = "ssr")]
pub mod store;

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::context::RequestCtx;
use crate::model::catalog::ProductDetail;
use crate::pages::not_found::NotFound;
use crate::routes::ResolvedRoute;
use crate::shell::SeoMeta;

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "product/detail")]
pub async fn fetch_product(
    site_id: u16,
    sale_id: i64,
    product_id: i64,
) -> Result<Option<ProductDetail>, ServerFnError> {
    let state =
        use_context::<crate::state::AppState>().ok_or_else(|| ServerFnError::new("no state"))?;
    store::product(&state.db, site_id, sale_id, product_id, crate::state::now())
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "Cannot fetch product");
            ServerFnError::new("errors.general_retry.notification")
        })
}

#[component]
pub fn ProductPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let key = (
        ctx.site_id,
        route.get_id("campaignId").unwrap_or(0),
        route.get_id("productId").unwrap_or(0),
    );
    let product = Resource::new(move || key, |(s, c, p)| fetch_product(s, c, p));
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let path = path.clone();
                move || {
                    let path = path.clone();
                    Suspend::new(async move {
                        match product.await {
                            Ok(Some(p)) => view! { <ProductView product=p path /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <p class="error" role="alert">{RequestCtx::current().t("errors.general_retry.notification")}</p> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

/// Schema.org Product/Offer for crawlers. `<` is escaped so the data can never close the
/// script element.
pub fn json_ld(product: &ProductDetail, url: &str) -> String {
    let in_stock = product.options.iter().any(|o| o.stock > 0);
    let data = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": product.name,
        "brand": { "@type": "Brand", "name": product.brand },
        "image": product.image_url,
        "sku": product.id.to_string(),
        "offers": {
            "@type": "Offer",
            "url": url,
            "priceCurrency": "EUR",
            "price": format!("{}.{:02}", product.price_cents / 100, product.price_cents % 100),
            "availability": if in_stock { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" },
        }
    });
    data.to_string().replace('<', "\\u003c")
}

#[component]
fn ProductView(product: ProductDetail, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let ld = json_ld(&product, &ctx.url_on(site.site_id, &path));
    let discount =
        crate::site::format::discount_percent(product.price_cents, product.retail_price_cents);
    let description = ctx.t_with(
        "product.description",
        &[
            ("product", &product.name),
            ("brand", &product.brand),
            ("sale", &product.sale_name),
        ],
    );
    view! {
        <SeoMeta title=product.name.clone() description path />
        <script type="application/ld+json" inner_html=ld></script>
        <article class="product" data-product-id=product.id>
            <img class="product__image" src=product.image_url.clone() alt=product.name.clone() width="480" height="480" />
            <div class="product__info">
                <p class="product__brand">{product.brand.clone()}</p>
                <h1 class="product__name">{product.name.clone()}</h1>
                <p class="product__prices">
                    <span class="product__price" data-testid="product-price">{ctx.money(product.price_cents)}</span>
                    <s class="product__retail">{ctx.money(product.retail_price_cents)}</s>
                    {discount.map(|d| view! { <span class="product__discount">{format!("-{d}%")}</span> })}
                </p>
                <p class="product__options-title">{ctx.t("product.options")}</p>
                <ul class="product__options">
                    {product
                        .options
                        .iter()
                        .map(|o| {
                            let label = if o.stock > 0 {
                                o.label.clone()
                            } else {
                                format!("{} · {}", o.label, ctx.t("product.out_of_stock"))
                            };
                            view! { <li class:product__option--out=o.stock == 0>{label}</li> }
                        })
                        .collect_view()}
                </ul>
            </div>
        </article>
        <section class="product__report" aria-labelledby="report-title">
            <h2 id="report-title">{ctx.t("product.report.title")}</h2>
            <rosace-dsa-form
                site-id=site.site_id.to_string()
                locale=site.translation_locale
                sale-id=product.sale_id.to_string()
                product-id=product.id.to_string()
                data-testid="dsa-widget"
            ></rosace-dsa-form>
            <script type="module" src="/widgets/dsa-form.js"></script>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalog::ProductOption;

    #[test]
    fn json_ld_is_a_schema_org_offer_that_cannot_break_out() {
        let p = ProductDetail {
            id: 7,
            sale_id: 1,
            sale_name: "S".into(),
            name: "Robe </script><b>".into(),
            brand: "Noa".into(),
            image_url: "/img/product/7.svg".into(),
            price_cents: 1990,
            retail_price_cents: 4990,
            options: vec![ProductOption {
                id: 1,
                label: "M".into(),
                stock: 0,
            }],
        };
        let ld = json_ld(&p, "https://x/p");
        assert!(!ld.contains('<'));
        let v: serde_json::Value = serde_json::from_str(&ld).unwrap();
        assert_eq!(v["@type"], "Product");
        assert_eq!(v["name"], "Robe </script><b>");
        assert_eq!(v["offers"]["price"], "19.90");
        assert_eq!(v["offers"]["availability"], "https://schema.org/OutOfStock");
    }
}

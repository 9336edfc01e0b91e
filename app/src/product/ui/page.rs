//! Product page (spec 000 §2, §3 "Product state", §4): images, prices, options refreshed
//! once interactive, the favourite toggle, the sanitised data sheet, delivery mode, seller
//! kind and the report-illegal-content widget. Complete in the server HTML.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::catalog::ProductDetail;
use crate::model::catalog_api::{Availability, ItemOption, Price};
use crate::product::api::{fetch_product, ProductQuery};
use crate::product::rules;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::not_found::{NotFound, Removed};
use crate::ui::SeoMeta;

#[component]
pub fn ProductPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let key = (
        ctx.site_id,
        route.get_id("campaignId").unwrap_or(0),
        route.get_id("productId").unwrap_or(0),
    );
    let product = Resource::new(
        move || key,
        |(site_id, sale_id, product_id)| {
            fetch_product(ProductQuery {
                site_id,
                sale_id,
                product_id,
            })
        },
    );
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
                            Err(e) if e.to_string().contains(rules::REMOVED_KEY) => {
                                view! { <Removed /> }.into_any()
                            }
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
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
    let price = rules::shown_price(&product.options, None, &product_price(product)).value;
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
            "price": format!("{}.{:02}", price / 100, price % 100),
            "availability": if in_stock { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" },
        }
    });
    data.to_string().replace('<', "\\u003c")
}

/// Options as the options call returns them (spec 000 §7 Item options).
#[derive(Clone, Debug, serde::Deserialize)]
struct OptionsReply {
    options: Vec<crate::model::catalog_api::ItemOption>,
}

/// The options refresh of spec 000 §4: loading, then replaced on success, or the error kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionsState {
    pub loading: bool,
    pub error: Option<String>,
}

fn product_price(product: &ProductDetail) -> Price {
    Price {
        value: product.price_cents,
        retail_value: product.retail_price_cents,
        unit: "EUR".into(),
    }
}

/// The prices, the options, their refresh and the add button: the product page's island.
/// Only one option: it is chosen already. The prices and the picture are the chosen
/// option's (coverage P9).
#[island(lazy)]
pub(crate) fn ProductBuy(
    sale_id: i64,
    product_id: i64,
    options: Vec<ItemOption>,
    /// The product's own price and picture, for options without their own.
    price: Price,
    image_url: String,
    cart_type: String,
) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    // The options are refreshed from the browser as soon as it runs.
    crate::site::i18n::shown_later([
        "product.options.loading",
        "product.options.error",
        "common.retry",
        "product.out_of_stock",
        "product.in_basket",
        "product.max_reached",
        "product.few_left",
        "product.selected",
        "product.choose_option",
    ]);
    let initial = options;
    let ctx = RequestCtx::current();
    // A size the member picked before this island came up (a slow phone, an in-app
    // navigation) is kept: hydration would otherwise uncheck it.
    let picked =
        picked_before_hydration().filter(|id| initial.iter().any(|o| o.id == *id && o.stock > 0));
    let selected = RwSignal::new(
        picked.or_else(|| (initial.len() == 1 && initial[0].stock > 0).then(|| initial[0].id)),
    );
    let options = RwSignal::new(initial);
    let state = RwSignal::new(OptionsState::default());
    let refresh = move || {
        state.set(OptionsState {
            loading: true,
            error: None,
        });
        leptos::task::spawn_local(async move {
            let url = format!("/api/catalog/v1/sale/{sale_id}/item/{product_id}/options");
            match crate::client::call("GET", &url, None)
                .await
                .map(|r| r.json::<OptionsReply>())
            {
                Ok(Some(reply)) => {
                    // A chosen option that sold out meanwhile is unselected.
                    if let Some(id) = selected.get_untracked() {
                        if !reply.options.iter().any(|o| o.id == id && o.stock > 0) {
                            selected.set(None);
                        }
                    }
                    options.set(reply.options);
                    state.set(OptionsState::default());
                }
                // The session ended: sign in, then back to this product.
                Err(crate::client::CallError::Unauthorized) => crate::client::to_sign_in(),
                Ok(None) | Err(_) => {
                    leptos::logging::warn!("Cannot fetch options");
                    state.set(OptionsState {
                        loading: false,
                        error: Some("product.options.error".into()),
                    });
                }
            }
        });
    };
    // Stock moves fast during a sale: the server HTML may be seconds old, so the options are
    // refreshed once the page is interactive.
    Effect::new(move |_| refresh());
    // The picture beside the island is the chosen option's: the island owns no other part
    // of the page, so it sets the two attributes itself.
    #[cfg(feature = "hydrate")]
    {
        let image_url = image_url.clone();
        Effect::new(move |_| {
            let src = options.with(|o| rules::shown_image(o, selected.get(), &image_url));
            if let Some(img) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(".product__image").ok().flatten())
            {
                if img.get_attribute("src").as_deref() != Some(src.as_str()) {
                    let _ = img.set_attribute("srcset", &rules::srcset(&src));
                    let _ = img.set_attribute("src", &src);
                }
            }
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = &image_url;
    let price = StoredValue::new(price);
    let shown_price =
        move || options.with(|o| price.with_value(|p| rules::shown_price(o, selected.get(), p)));
    let t = move |k: &str| RequestCtx::current().t(k);
    let option_list = move || {
        options
            .get()
            .into_iter()
            .map(|o| {
                let out = o.stock == 0;
                let id = o.id;
                let status = match o.availability {
                    Availability::OutOfStock => Some(t("product.out_of_stock")),
                    Availability::InBasket => Some(t("product.in_basket")),
                    Availability::MaxReached => Some(t("product.max_reached")),
                    Availability::Available if o.stock <= 3 => Some(
                        RequestCtx::current().t_with("product.few_left", &[("count", &o.stock.to_string())]),
                    ),
                    Availability::Available => None,
                };
                view! {
                    <li>
                        <label class="option" class:option--out=out class:option--selected=move || selected.get() == Some(id) data-availability=format!("{:?}", o.availability)>
                            <input
                                type="radio"
                                name="option"
                                value=id.to_string()
                                disabled=out
                                // In the server HTML too: the option already chosen.
                                checked=selected.get_untracked() == Some(id)
                                prop:checked=move || selected.get() == Some(id)
                                on:change=move |_| selected.set(Some(id))
                                data-testid="product-option"
                            />
                            <span class="option__label">{o.label.clone()}</span>
                            {status.map(|s| view! { <span class="option__status">{s}</span> })}
                        </label>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <p class="product__prices">
            <span class="product__price" data-testid="product-price">{move || RequestCtx::current().money(shown_price().value)}</span>
            <s class="product__retail" data-testid="product-retail">{move || RequestCtx::current().money(shown_price().retail_value)}</s>
            {move || {
                let p = shown_price();
                crate::site::format::discount_percent(p.value, p.retail_value)
                    .map(|d| view! { <span class="product__discount">{format!("-{d}%")}</span> })
            }}
        </p>
        <fieldset class="product__options" aria-busy=move || state.get().loading.to_string()>
            <legend class="product__options-title">{ctx.t("product.options")}</legend>
            <ul class="options" data-testid="product-options">{option_list}</ul>
            {move || state.get().loading.then(|| view! { <p class="loading" aria-live="polite">{t("product.options.loading")}</p> })}
            {move || state.get().error.map(|key| view! {
                <p class="error" role="alert">
                    {t(&key)}" "
                    <button type="button" class="link-button" on:click=move |_| refresh()>{t("common.retry")}</button>
                </p>
            })}
        </fieldset>
        <p class="product__selected" data-testid="selected-option">
            {move || {
                let chosen = selected.get().and_then(|id| options.get().into_iter().find(|o| o.id == id));
                match chosen {
                    Some(o) => RequestCtx::current().t_with("product.selected", &[("option", &o.label)]),
                    None => t("product.choose_option"),
                }
            }}
        </p>
        <crate::cart::ui::add::AddToCart sale_id selected cart_type=cart_type.clone() on_added=move |_| refresh() />
    }
}

/// The option radio already checked in the server HTML's form, if any. On the server: the
/// option of the add a visitor began before signing in (`PendingAdd`), rendered checked.
fn picked_before_hydration() -> Option<i64> {
    #[cfg(not(feature = "hydrate"))]
    {
        use_context::<PendingOption>().and_then(|p| p.0)
    }
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("[data-testid=\"product-options\"] input[name=\"option\"]:checked")
                    .ok()
                    .flatten()
            })
            .and_then(|input| input.get_attribute("value"))
            .and_then(|v| v.parse().ok())
    }
}

/// The option of a pending add, which `ProductView` read from the page's address, for the
/// server render of its island (an island rendered on its own has no address to read).
#[cfg(not(feature = "hydrate"))]
#[derive(Clone, Copy)]
struct PendingOption(Option<i64>);

#[component]
fn ProductView(product: ProductDetail, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let ld = json_ld(&product, &ctx.url_on(site.site_id, &path));
    let description = ctx.t_with(
        "product.description",
        &[
            ("product", &product.name),
            ("brand", &product.brand),
            ("sale", &product.sale_name),
        ],
    );
    let (sale_id, product_id) = (product.sale_id, product.id);
    let delivery_key = format!("product.delivery.{}", product.delivery_mode.clamp(0, 3));
    let seller_key = format!("product.seller.{}", product.seller_kind);
    let datasheet = product.html_datasheet.clone();
    let cart_type = crate::cart::rules::cart_type_for_seller(&product.seller_kind).to_string();
    let pending = {
        let query = leptos_router::hooks::use_query_map().get_untracked();
        rules::pending_add(|k| query.get(k), &product.options, &cart_type)
    };
    #[cfg(not(feature = "hydrate"))]
    provide_context(PendingOption(pending.as_ref().map(|p| p.option_id)));
    let image = rules::shown_image(
        &product.options,
        pending.as_ref().map(|p| p.option_id),
        &product.image_url,
    );
    // Back from signing in with the choice a visitor made: said where the add button is.
    let pending = pending.and_then(|p| {
        let option = product.options.iter().find(|o| o.id == p.option_id)?;
        let text = ctx.t_with(
            "product.pending_add",
            &[("option", &option.label), ("count", &p.quantity.to_string())],
        );
        Some(view! {
            <p class="product__pending" role="status" data-testid="pending-add" data-quantity=p.quantity>{text}</p>
        })
    });
    #[cfg(feature = "ssr")]
    crate::site::i18n::Widget::DsaForm.rendered();
    // The product of a themed sale wears the sale's theme, as its catalog page does.
    let theme = crate::site::theme::Theme::for_sale(site.palette, &product.theme, "");
    let sheet_class = if theme.is_special() {
        format!("product__datasheet {}", theme.css_class())
    } else {
        "product__datasheet".to_string()
    };
    let size_guide = size_guide(&product.options);
    let bundle = product.bundle.clone().map(|bundle| {
        let query = leptos_router::hooks::use_query_map().get_untracked();
        let chosen = super::bundle::chosen_in(&bundle, |k| query.get(k));
        let error = query.get("error");
        view! { <super::bundle::BundleSection bundle path=path.clone() chosen error /> }
    });
    view! {
        <SeoMeta title=product.name.clone() description path />
        <script type="application/ld+json" inner_html=ld></script>
        <article class=theme.block_class("product") data-product-id=product.id data-theme=theme.name()>
            <div class="product__media">
                <img class="product__image" src=image.clone() srcset=rules::srcset(&image)
                    sizes="(max-width: 640px) 100vw, 480px" alt=product.name.clone() width="480" height="480" />
                {crate::ui::personal::Marks::current().map(|m| m.require(product_id))}
                <crate::ui::favourite::FavouriteButton sale_id item_id=product_id initial=product.favorite compact=false />
            </div>
            <div class="product__info">
                <p class="product__brand">
                    {match product.brand_id {
                        Some(id) => view! { <a href=format!("/b/{id}") data-testid="product-brand">{product.brand.clone()}</a> }.into_any(),
                        None => product.brand.clone().into_any(),
                    }}
                </p>
                <h1 class="product__name">{product.name.clone()}</h1>
                {pending}
                <ProductBuy sale_id product_id options=product.options.clone()
                    price=product_price(&product) image_url=product.image_url.clone()
                    cart_type />
                {size_guide}
                <dl class="product__facts">
                    <dt>{ctx.t("product.delivery")}</dt>
                    <dd data-testid="delivery-mode">{ctx.t(&delivery_key)}</dd>
                    <dt>{ctx.t("product.seller")}</dt>
                    <dd data-testid="seller-kind">{ctx.t_with(&seller_key, &[("brand", site.brand.name())])}</dd>
                </dl>
            </div>
        </article>
        {bundle}
        <section class=sheet_class aria-labelledby="datasheet-title">
            <h2 id="datasheet-title">{ctx.t("product.datasheet")}</h2>
            <div class="datasheet" data-testid="datasheet" inner_html=datasheet></div>
        </section>
        // The React widget loads when the member opens the section (`pages/navigation.ts`): it
        // would otherwise double the product page's first load for a form few people use.
        <section class="product__report" aria-label=ctx.t("product.report.title")>
            <details class="product__report-box" data-widget=crate::ui::assets::widget("dsa-form")>
                <summary data-testid="dsa-open">{ctx.t("product.report.title")}</summary>
                <rosace-dsa-form
                    site-id=site.site_id.to_string()
                    locale=site.translation_locale
                    sale-id=product.sale_id.to_string()
                    product-id=product.id.to_string()
                    data-testid="dsa-widget"
                ></rosace-dsa-form>
            </details>
        </section>
    }
}

/// The product's size guide (`size_chart`), folded under its summary; nothing for a product
/// whose sizes make no table.
fn size_guide(options: &[ItemOption]) -> Option<impl IntoView> {
    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    let chart = crate::product::size_chart::size_chart(&labels)?;
    let ctx = RequestCtx::current();
    let heads = chart
        .systems
        .iter()
        .map(|s| view! { <th scope="col">{ctx.t(&format!("product.size_system.{s}"))}</th> })
        .collect_view();
    let rows = chart
        .rows
        .into_iter()
        .map(|r| {
            view! {
                <tr>
                    <th scope="row">{r.size}</th>
                    {r.conversions.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    Some(view! {
        <details class="size-guide" data-testid="size-guide" data-kind=chart.kind>
            <summary>{ctx.t("product.size_guide")}</summary>
            <table>
                <caption>{ctx.t("product.size_guide.caption")}</caption>
                <thead><tr>{heads}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_ld_is_a_schema_org_offer_that_cannot_break_out() {
        let p = ProductDetail {
            id: 7,
            sale_id: 1,
            sale_name: "S".into(),
            name: "Robe </script><b>".into(),
            brand: "Noa".into(),
            brand_id: Some(3),
            image_url: "/img/product/7.svg".into(),
            price_cents: 1990,
            retail_price_cents: 4990,
            options: vec![ItemOption {
                id: 1,
                label: "M".into(),
                stock: 0,
                availability: Availability::OutOfStock,
                price: Price {
                    value: 1790,
                    retail_value: 4990,
                    unit: "EUR".into(),
                },
                preview: None,
            }],
            favorite: false,
            color: "rouge".into(),
            tier: "ORDINARY".into(),
            delivery_mode: 0,
            seller_kind: "fs".into(),
            html_datasheet: String::new(),
            theme: String::new(),
            bundle: None,
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

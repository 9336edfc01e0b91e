//! The product's fixed parts: the price box with its notices, the description with its
//! bullet points and tabs, and the schema.org data for crawlers.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::TravelProduct;

/// Schema.org `Product` with an `AggregateOffer` (the trip's price starts at `lowPrice`).
/// `<` is escaped so the data can never close the script element.
pub fn json_ld(product: &TravelProduct, url: &str, currency: &str) -> String {
    let money = |c: i64| format!("{}.{:02}", c / 100, c % 100);
    let in_stock = product.packages.iter().any(|p| !p.is_out_of_stock);
    serde_json::json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": product.title,
        "description": product.bullet_points.join(" · "),
        "image": product.image,
        "sku": product.id.to_string(),
        "category": "Trip",
        "offers": {
            "@type": "AggregateOffer",
            "url": url,
            "priceCurrency": currency,
            "lowPrice": money(product.price.value),
            "availability": if in_stock { "https://schema.org/InStock" } else { "https://schema.org/SoldOut" },
        }
    })
    .to_string()
    .replace('<', "\\u003c")
}

/// "From 499 € / person", the struck retail value, and the lowest price of the last 30
/// days (the EU Omnibus notice), with the payment facilities.
#[component]
pub fn PriceBox(product: TravelProduct) -> impl IntoView {
    let ctx = RequestCtx::current();
    let price = &product.price;
    let discount = crate::site::format::discount_percent(price.value, price.retail_value);
    let facilities = price.payment_facilities.clone();
    view! {
        <section class="trip__price" aria-label=ctx.t("travel.product.price")>
            <p class="trip__from">
                <span class="trip__prefix">{price.text.prefix.clone()}</span>" "
                <strong class="trip__amount" data-testid="trip-price-from">{ctx.money(price.value)}</strong>
                " / "{price.unit.clone()}
            </p>
            {(price.retail_value > price.value).then(|| view! {
                <p class="trip__retail">
                    {ctx.t("travel.product.retail")}" "<s>{ctx.money(price.retail_value)}</s>
                    {discount.map(|d| view! { " "<span class="product__discount">{format!("-{d}%")}</span> })}
                </p>
            })}
            <p class="trip__notice" data-testid="retail-price-notice">
                {ctx.t_with("travel.product.lowest_30_days", &[("price", &ctx.money(price.retail_price_notice))])}
            </p>
            {(!facilities.is_empty()).then(|| view! {
                <p class="trip__facilities">
                    {ctx.t("travel.product.payment_facilities")}" "{facilities.join(", ")}
                </p>
            })}
        </section>
    }
}

/// The description (sanitised on the server when read), its bullet points and the tabs,
/// each tab a titled section so the page reads whole without scripts.
#[component]
pub fn Description(product: TravelProduct) -> impl IntoView {
    let ctx = RequestCtx::current();
    let bullets = product
        .bullet_points
        .iter()
        .map(|b| view! { <li>{b.clone()}</li> })
        .collect_view();
    let tabs = product
        .tabs
        .iter()
        .enumerate()
        .map(|(i, tab)| {
            let id = format!("trip-tab-{i}");
            let labelled = id.clone();
            view! {
                <section class="trip__tab" aria-labelledby=labelled>
                    <h3 id=id>{tab.title.clone()}</h3>
                    <p>{tab.content.clone()}</p>
                </section>
            }
        })
        .collect_view();
    view! {
        <section class="trip__about" aria-labelledby="trip-about">
            <h2 id="trip-about">{ctx.t("travel.product.about")}</h2>
            <ul class="trip__bullets">{bullets}</ul>
            <div class="trip__description" inner_html=product.description.clone()></div>
            {tabs}
        </section>
    }
}

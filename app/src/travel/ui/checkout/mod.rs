//! Travel checkout `/t/p/{campaignId}/{productId}/checkout` (spec 001 §2): the summary of
//! the configuration carried in the URL, then the travellers, the member's address and
//! the payment (the form island). The address is chosen among the member's saved ones,
//! server-rendered inside the island (`address::ui::checkout::DeliveryChoice`, the
//! favourite preselected, adding one comes back here). A configuration that cannot be
//! booked says why and leads back to the product; an empty address book says so and
//! offers to add one.
pub(crate) mod form;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::address::ui::checkout::DeliveryChoice;
use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::travel::api::product::{fetch_travel_checkout, CheckoutLoad};
use crate::travel::rules::BookingBlock;
use crate::travel::ui::product::show_date;
use crate::ui::error_template::ErrorNotice;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

/// The checkout query's keys (`travel::rules::checkout_query`).
const KEYS: [&str; 7] = [
    "package", "city", "days", "nights", "checkin", "party", "benefits",
];

#[component]
pub fn TravelCheckoutPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let query = use_query_map();
    let campaign_id = route.get_id("campaignId").unwrap_or(0);
    let product_id = route.get_id("productId").unwrap_or(0);
    let key = move || {
        query.with(|q| {
            KEYS.iter()
                .filter_map(|k| q.get(k).map(|v| format!("{k}={v}")))
                .collect::<Vec<_>>()
                .join("&")
        })
    };
    let load = Resource::new(key, move |q| {
        fetch_travel_checkout(campaign_id, product_id, q)
    });
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let path = path.clone();
                move || {
                    let path = path.clone();
                    // This page with its query: where adding an address comes back to.
                    let here = format!("{path}?{}", key());
                    Suspend::new(async move {
                        match load.await {
                            Ok(Some(load)) => view! { <CheckoutView load path here /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn CheckoutView(load: CheckoutLoad, path: String, here: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t("travel.checkout.title");
    let description = ctx.t_with(
        "travel.product.meta",
        &[("title", &load.title), ("destination", &load.destination)],
    );
    let product_path = format!("/t/p/{}/{}", load.campaign_id, load.product_id);
    let party = load.participants.iter().fold([0u32; 3], |mut n, p| {
        n[p.kind as usize] += 1;
        n
    });
    let party_text = ["adults", "children", "babies"]
        .iter()
        .zip(party)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| {
            ctx.t_with(
                &format!("travel.checkout.count_{k}"),
                &[("n", &n.to_string())],
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let benefits = load
        .benefits
        .iter()
        .map(|(_, label, price)| view! { <li>{label.clone()}" "<span>{format!("+{}", ctx.money(*price))}</span></li> })
        .collect_view();
    // The configuration's blocks lead back to the product; an empty address book only
    // needs an address added (the step below says so and links to the address page).
    let address_field = BookingBlock::MissingAddress.field();
    let no_address = load.blocks.iter().any(|(field, _)| *field == address_field);
    let config_blocked = load.blocks.iter().any(|(field, _)| *field != address_field);
    let blocked = !load.blocks.is_empty();
    let blocks = load
        .blocks
        .iter()
        .map(|(field, text)| view! { <li data-field=field.clone()>{text.clone()}</li> })
        .collect_view();
    // A form sent natively (a click before the island runs) reloads this checkout: it
    // carries the configuration again, and its typed fields have no names.
    let query = here
        .split_once('?')
        .map(|(_, q)| q.to_string())
        .unwrap_or_default();
    let config_fields = move || {
        crate::travel::rules::query_pairs(&query)
            .into_iter()
            .filter(|(k, _)| KEYS.contains(&k.as_str()))
            .map(|(name, value)| view! { <input type="hidden" name=name value=value /> })
            .collect_view()
    };
    let choice = move || {
        view! {
            <DeliveryChoice back_to=here.clone() title_key="travel.checkout.address" none_key="travel.checkout.no_address" />
        }
    };
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <div class="trip-checkout">
            <h1>{title}</h1>
            <section class="trip-checkout__summary" aria-labelledby="trip-summary-title" data-testid="trip-summary">
                <h2 id="trip-summary-title">{load.title.clone()}</h2>
                <dl class="trip-checkout__facts">
                    <dt>{ctx.t("travel.configurator.package")}</dt><dd>{load.package_title.clone()}</dd>
                    <dt>{ctx.t("travel.configurator.city")}</dt><dd>{load.city.clone()}</dd>
                    <dt>{ctx.t("travel.checkout.dates")}</dt>
                    <dd data-testid="trip-checkout-dates">{ctx.t_with("travel.configurator.dates", &[("checkin", &show_date(&load.checkin)), ("checkout", &show_date(&load.checkout))])}</dd>
                    <dt>{ctx.t("travel.configurator.duration")}</dt>
                    <dd>{ctx.t_with("travel.configurator.stay", &[("days", &load.days.to_string()), ("nights", &load.nights.to_string())])}</dd>
                    <dt>{ctx.t("travel.party.title")}</dt><dd>{party_text}</dd>
                    <dt>{ctx.t("travel.configurator.per_person")}</dt><dd>{ctx.money(load.per_person)}</dd>
                </dl>
                {(!load.benefits.is_empty()).then(|| view! { <ul class="trip-checkout__benefits">{benefits}</ul> })}
                <p class="trip-checkout__total">{ctx.t("travel.configurator.total")}" "<strong data-testid="trip-checkout-total">{ctx.money(load.total)}</strong></p>
                <a href=product_path.clone()>{ctx.t("travel.checkout.change")}</a>
            </section>
            {if blocked {
                view! {
                    <section class="trip-checkout__blocked" role="alert" data-testid="trip-checkout-blocked">
                        <p>{ctx.t("travel.configurator.blocked")}</p>
                        <ul>{blocks}</ul>
                        {config_blocked.then(|| view! {
                            <a class="button button--primary" href=product_path>{ctx.t("travel.checkout.back")}</a>
                        })}
                    </section>
                    {no_address.then(choice)}
                }.into_any()
            } else {
                view! { <form::CheckoutForm load>{choice()}{config_fields()}</form::CheckoutForm> }.into_any()
            }}
        </div>
    }
}

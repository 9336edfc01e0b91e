//! The checkout's address step, server-rendered inside a checkout island's children (the
//! cart, the travel checkout): the member's addresses as radio buttons with the favourite
//! (else the first) chosen, a way to add one that comes back to the checkout, and a link to
//! the address book. The island reads the chosen `deliveryAddressId` ([`chosen_address`])
//! when it pays; the server refuses to take payment without an address of the member's.
//! No `addresses.js` here: the cart is at its first-load budget, and the cart's inline
//! form posts and comes back without it; the travel checkout links to the address page
//! with its own path as `returnTo` (same-site relative paths only: `rules::return_path`).
use leptos::prelude::*;

use super::draft;
use super::form::AddressForm;
use super::page::{address_lines, PAGE};
use crate::address::api::fetch_addresses;
use crate::address::model::Address;
use crate::address::rules::{default_address, return_path};
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;

/// The radio group's name, read by the checkout islands.
pub const CHOICE_NAME: &str = "deliveryAddressId";

/// The address the member chose in the server-rendered step (none: the server takes their
/// favourite, or refuses payment when they have none). Read by the checkout islands.
pub fn chosen_address() -> Option<i64> {
    #[cfg(feature = "hydrate")]
    {
        let selector = format!("input[name=\"{CHOICE_NAME}\"]:checked");
        web_sys::window()?
            .document()?
            .query_selector(&selector)
            .ok()??
            .get_attribute("value")?
            .parse()
            .ok()
    }
    #[cfg(not(feature = "hydrate"))]
    None
}

/// The address page's form, opened to come back to `back_to` (a same-site relative path)
/// once the address is saved.
pub fn add_address_link(back_to: &str) -> String {
    match return_path(Some(back_to)) {
        Some(path) => format!(
            "{PAGE}?returnTo={}#address-form",
            crate::routes::encode_query_value(&path)
        ),
        None => format!("{PAGE}#address-form"),
    }
}

/// The address step. `back_to` (a checkout's own path and query): adding an address is a
/// link to the address page that comes back here; without it (the cart), an inline form.
#[component]
pub fn DeliveryChoice(
    #[prop(optional)] back_to: Option<String>,
    /// The heading's key (default `address.checkout.title`).
    #[prop(optional)]
    title_key: Option<&'static str>,
    /// The key of the message shown when the address book is empty (default
    /// `address.checkout.none`).
    #[prop(optional)]
    none_key: Option<&'static str>,
) -> impl IntoView {
    let title = RequestCtx::current().t(title_key.unwrap_or("address.checkout.title"));
    // The cart's step in a member template: the member's addresses come per request.
    let hole = crate::ui::personal::Marks::current()
        .filter(|_| back_to.is_none() && title_key.is_none() && none_key.is_none());
    if let Some(marks) = hole {
        return view! {
            <section class="delivery-choice" aria-labelledby="delivery-title" data-testid="delivery-choice" id="delivery">
                <h2 id="delivery-title">{title}</h2>
                {marks.hole(crate::ui::personal::Hole::Delivery)}
            </section>
        }
        .into_any();
    }
    let load = Resource::new(|| (), |_| fetch_addresses());
    let none_key = none_key.unwrap_or("address.checkout.none");
    view! {
        <section class="delivery-choice" aria-labelledby="delivery-title" data-testid="delivery-choice" id="delivery">
            <h2 id="delivery-title">{title.clone()}</h2>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let title = title.clone();
                    move || {
                        let (back_to, title) = (back_to.clone(), title.clone());
                        Suspend::new(async move {
                            match load.await {
                                Ok(list) => view! { <Choices list back_to title none_key /> }.into_any(),
                                Err(_) => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </section>
    }
    .into_any()
}

/// The cart's delivery step of a member template, for the member of `ctx`: their
/// addresses (none: the step's error notice, as the page shows when they cannot be read).
#[cfg(feature = "ssr")]
pub fn render_hole(ctx: RequestCtx, list: Option<Vec<Address>>) -> String {
    crate::ui::personal::render_fragment(ctx, move || match list {
        Some(list) => {
            let title = RequestCtx::current().t("address.checkout.title");
            view! { <Choices list back_to=None title none_key="address.checkout.none" /> }
                .into_any()
        }
        None => view! { <ErrorNotice /> }.into_any(),
    })
}

#[component]
fn Choices(
    list: Vec<Address>,
    back_to: Option<String>,
    /// The step's heading, again as the radio group's legend.
    title: String,
    none_key: &'static str,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let chosen = default_address(&list).map(|a| a.id);
    let draft = draft::read();
    let open = list.is_empty() || draft.as_ref().is_some_and(|d| d.is_refused());
    let none = list.is_empty();
    // The address book's own page comes back here too.
    let manage = match back_to.as_deref().and_then(|b| return_path(Some(b))) {
        Some(path) => format!(
            "{PAGE}?returnTo={}",
            crate::routes::encode_query_value(&path)
        ),
        None => PAGE.to_string(),
    };
    view! {
        <p class="delivery-choice__none" data-testid="delivery-none" hidden=!none>{ctx.t(none_key)}</p>
        <fieldset class="delivery-choice__list" hidden=none>
            <legend class="visually-hidden">{title}</legend>
            {list.into_iter().map(|a| {
                let lines = address_lines(&(&a).into());
                let id = format!("delivery-{}", a.id);
                view! {
                    <p class="delivery-option" data-testid="delivery-option" data-address-id=a.id.to_string()>
                        <input type="radio" id=id.clone() name=CHOICE_NAME value=a.id.to_string() checked=Some(a.id) == chosen />
                        <label for=id>
                            <span class="delivery-option__name">{lines.first().cloned()}</span>
                            " "<span class="delivery-option__rest">{lines[1..].join(", ")}</span>
                        </label>
                    </p>
                }
            }).collect_view()}
        </fieldset>
        {match back_to {
            Some(back_to) => view! {
                <p class="delivery-choice__add"><a class="button" href=add_address_link(&back_to) data-testid="delivery-add-link">{ctx.t("address.checkout.add")}</a></p>
            }.into_any(),
            None => view! {
                <details class="delivery-choice__add" open=open data-testid="delivery-add">
                    <summary>{ctx.t("address.checkout.add")}</summary>
                    <AddressForm draft=draft.filter(|d| d.is_refused()) editing=None return_to="cart" id_prefix="delivery-address" />
                </details>
            }.into_any(),
        }}
        <p><a href=manage data-testid="delivery-manage">{ctx.t("address.checkout.manage")}</a></p>
    }
}

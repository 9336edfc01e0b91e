//! The cart's delivery address step (server-rendered inside the cart island's children):
//! the member's addresses as radio buttons with the favourite (else the first) chosen, a
//! form to add one that posts and comes back to the cart, and a link to the address book.
//! The cart island reads the chosen `deliveryAddressId` when it pays; the server refuses
//! to take payment without an address of the member's. No `addresses.js` here: the cart
//! is at its first-load budget, and the inline form posts and comes back without it.
use leptos::prelude::*;

use super::draft;
use super::form::AddressForm;
use super::page::{address_lines, messages, PAGE};
use crate::address::api::fetch_addresses;
use crate::address::model::Address;
use crate::address::rules::default_address;
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;

/// The radio group's name, read by the cart island.
pub const CHOICE_NAME: &str = "deliveryAddressId";

#[component]
pub fn DeliveryChoice() -> impl IntoView {
    let load = Resource::new(|| (), |_| fetch_addresses());
    view! {
        <section class="delivery-choice" aria-labelledby="delivery-title" data-testid="delivery-choice" id="delivery" data-messages=messages()>
            <h2 id="delivery-title">{RequestCtx::current().t("address.checkout.title")}</h2>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok(list) => view! { <Choices list /> }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn Choices(list: Vec<Address>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let chosen = default_address(&list).map(|a| a.id);
    let draft = draft::read();
    let open = list.is_empty() || draft.as_ref().is_some_and(|d| d.is_refused());
    let none = list.is_empty();
    view! {
        <p class="delivery-choice__none" data-testid="delivery-none" hidden=!none>{ctx.t("address.checkout.none")}</p>
        <fieldset class="delivery-choice__list" hidden=none>
            <legend class="visually-hidden">{ctx.t("address.checkout.title")}</legend>
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
        <details class="delivery-choice__add" open=open data-testid="delivery-add">
            <summary>{ctx.t("address.checkout.add")}</summary>
            <AddressForm draft=draft.filter(|d| d.is_refused()) editing=None return_to="cart" id_prefix="delivery-address" />
        </details>
        <p><a href=PAGE data-testid="delivery-manage">{ctx.t("address.checkout.manage")}</a></p>
    }
}

//! The add-to-cart button of the product page: the single-item payload of spec 000 §5
//! through the cart rules, the cart state transitions of §4, and the §8 codes' messages.
use leptos::prelude::*;

use crate::cart::rules::{cart_payload, reduce_cart, AddContext, CartAction, CartInput, CartState};
use crate::cart::ui::{cart_call, CART};
use crate::context::RequestCtx;

#[component]
pub fn AddToCart(
    sale_id: i64,
    selected: RwSignal<Option<i64>>,
    #[prop(into)] on_added: Callback<()>,
    /// The cart type of the product (`cart_type_for_seller`); the flash-sale cart if none.
    #[prop(optional, into)]
    cart_type: Option<String>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    // After a click: the button's states, and the add's error answers.
    crate::site::i18n::shown_later(
        [
            "common.loading",
            "cart.added",
            "cart.see",
            "product.choose_option",
            "cart.errors.*",
        ]
        .into_iter()
        .chain(crate::client::EDGE_ERROR_KEYS),
    );
    let state = RwSignal::new(CartState::default());
    let message = RwSignal::new(None::<String>);
    let member = ctx.is_member();
    let cart_type = StoredValue::new(cart_type);
    // How many the first add puts in: what a visitor chose before signing in (the page's
    // pending add), else one.
    let quantity = StoredValue::new(pending_quantity());
    let add = move |_| {
        let Some(option_id) = selected.get_untracked() else {
            message.set(Some("product.choose_option".into()));
            return;
        };
        if !member {
            // Signed in, the visitor comes back to this choice (`PendingAdd`).
            let kind = cart_type.with_value(|t| {
                t.clone()
                    .unwrap_or_else(|| crate::cart::rules::DEFAULT_CART_TYPE.into())
            });
            crate::client::to_sign_in_returning(|path, search| {
                crate::product::rules::address_with_pending_add(path, search, option_id, 1, &kind)
            });
            return;
        }
        state.update(|s| *s = reduce_cart(s, &CartAction::Request { params: None }));
        message.set(None);
        let context = AddContext {
            sale_id: Some(sale_id),
            origin: Some("product".into()),
            bundle_id: None,
        };
        let (path, body) = cart_payload(
            &CartInput::Single {
                product_id: option_id,
                quantity: quantity.get_value(),
            },
            cart_type.with_value(|t| t.clone()).as_deref(),
            Some(&context),
            None,
        );
        leptos::task::spawn_local(async move {
            let result = cart_call("POST", &format!("{CART}{path}"), Some(body)).await;
            match result {
                Ok(reply) => {
                    state.update(|s| {
                        *s = reduce_cart(
                            s,
                            &CartAction::AddItemSuccess {
                                status: reply.status,
                            },
                        )
                    });
                    quantity.set_value(1);
                    on_added.run(());
                    crate::ui::cart_count::CartCount::refresh();
                }
                Err(e) => {
                    state.update(|s| {
                        *s = reduce_cart(
                            s,
                            &CartAction::Failure {
                                error: e.message_key(),
                            },
                        )
                    });
                    message.set(Some(e.message_key()));
                }
            }
        });
    };
    let t = |k: &str| RequestCtx::current().t(k);
    view! {
        <div class="add-to-cart">
            <button type="button" class="button button--primary add-to-cart__button" data-testid="add-to-cart"
                on:click=add disabled=move || state.get().loading aria-busy=move || state.get().loading.to_string()>
                {move || if state.get().loading { t("common.loading") } else { t("cart.add") }}
            </button>
            {move || state.get().new_item.then(|| view! {
                <p class="add-to-cart__done" role="status" data-testid="added-to-cart">
                    {t("cart.added")}" "<a href="/cart">{t("cart.see")}</a>
                </p>
            })}
            {move || message.get().map(|key| view! { <p class="error" role="alert" data-testid="add-error">{t(&key)}</p> })}
        </div>
    }
}

/// The quantity of the pending add the server rendered beside the options, if any (its
/// `data-quantity`), else one.
fn pending_quantity() -> i64 {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("[data-testid=\"pending-add\"]")
                    .ok()
                    .flatten()
            })
            .and_then(|p| p.get_attribute("data-quantity"))
            .and_then(|q| q.parse().ok())
            .unwrap_or(1)
    }
    #[cfg(not(feature = "hydrate"))]
    1
}

//! Reopening a recent order brings its items back into the cart (spec 000 §3
//! `order_to_reopen`), to add more before paying again: the detail page's one island.
use leptos::prelude::*;

use crate::cart::ui::cart_call;
use crate::context::RequestCtx;

#[island(lazy)]
pub fn ReopenButton(order_id: i64, cart_type: String, label: String) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let reopen = move |_| {
        busy.set(true);
        let body = serde_json::json!({ "order_to_reopen": order_id.to_string(), "cart_type": cart_type.clone() });
        leptos::task::spawn_local(async move {
            match cart_call(
                "POST",
                &format!("{}/item", crate::cart::ui::CART),
                Some(body),
            )
            .await
            {
                Ok(reply) => match crate::cart::ui::state_notice(&reply) {
                    Some(key) => error.set(Some(key)),
                    None => crate::client::navigate("/cart"),
                },
                Err(e) => error.set(Some(e.message_key())),
            }
            busy.set(false);
        });
    };
    view! {
        <p class="order-detail__reopen">
            <button type="button" class="button" data-testid="order-reopen" on:click=reopen disabled=move || busy.get()>{label}</button>
        </p>
        {move || error.get().map(|k| view! { <p class="error" role="alert">{RequestCtx::current().t(&k)}</p> })}
    }
}

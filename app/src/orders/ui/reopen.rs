//! Reopening a recent order brings its items back into the cart (spec 000 §3
//! `order_to_reopen`), to add more before paying again. A server form (no
//! island): `/postsales/orders/{id}/aftersale/reopen` reopens the order
//! through the cart service and leads to the cart, or back here with the cart's message.
use leptos::prelude::*;

use super::after_sale::form_action;

#[component]
pub fn ReopenForm(order_id: i64, xsrf: String, label: String) -> impl IntoView {
    view! {
        <form class="order-detail__reopen" method="post" action=form_action(order_id, "reopen") data-testid="order-reopen-form">
            <input type="hidden" name="_xsrf" value=xsrf />
            <button type="submit" class="button" data-testid="order-reopen">{label}</button>
        </form>
    }
}

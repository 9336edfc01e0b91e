//! The order detail's after-sale actions (invoice, return): owned by the invoices/returns
//! work of #14, which replaces this placeholder that renders nothing.
use leptos::prelude::*;

#[component]
pub fn AfterSaleActions(order: crate::model::cart::Order) -> impl IntoView {
    let _ = order;
}

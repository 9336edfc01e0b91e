//! A deal's add-to-cart button: the product page's `AddToCart` (same payload, states and
//! messages) with the deal's one option chosen. Lazy: its code loads with the first deal
//! tile, not with every page (budget.spec.ts).
use leptos::prelude::*;

#[island(lazy)]
pub fn AddDeal(sale_id: i64, option_id: i64) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let selected = RwSignal::new(Some(option_id));
    view! { <crate::cart::ui::add::AddToCart sale_id selected on_added=|_: ()| () /> }
}

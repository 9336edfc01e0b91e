//! Travel product `/t/p/{campaignId}/{productId}` and `/voyages/p/...`.
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelProductPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

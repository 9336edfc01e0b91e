//! Travel checkout `/t/p/{campaignId}/{productId}/checkout`.
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelCheckoutPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

//! Travel catalogs `/t/c/{campaignId}[/{universeId}]` and `/voyages/c/...`.
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelCatalogPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

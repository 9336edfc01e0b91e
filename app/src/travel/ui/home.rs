//! The travel home `/home/travel` (and `/voyage`, `/voyages`).
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelHomePage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

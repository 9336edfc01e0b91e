//! Travel search `/t/s` and its results `/t/r`.
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelSearchPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

#[component]
pub fn TravelResultsPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

//! The travel technical error page `/t/error`.
use leptos::prelude::*;

use crate::routes::ResolvedRoute;

#[component]
pub fn TravelErrorPage(route: ResolvedRoute, path: String) -> impl IntoView {
    view! { <crate::ui::placeholder::Placeholder route path /> }
}

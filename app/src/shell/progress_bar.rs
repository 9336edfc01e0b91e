//! A thin bar at the top while the next page loads (`pages/navigation.ts` sets the modifier).
use leptos::prelude::*;

#[component]
pub fn ProgressBar() -> impl IntoView {
    view! { <div class="progress-bar" aria-hidden="true" data-testid="progress-bar"></div> }
}

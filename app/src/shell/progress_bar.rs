//! A thin bar at the top while the router loads the next page.
use leptos::prelude::*;

/// A thin bar at the top while the router loads the next page.
#[component]
pub fn ProgressBar(is_routing: ReadSignal<bool>) -> impl IntoView {
    view! {
        <div
            class="progress-bar"
            class:progress-bar--active=move || is_routing.get()
            role="progressbar"
            aria-hidden=move || (!is_routing.get()).to_string()
        ></div>
    }
}

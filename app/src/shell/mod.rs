//! The shell (spec 000 §2, §9): header, footer, progress bar. The page switch is in `app.rs`.
mod footer;
mod header;

pub use footer::Footer;
pub use header::Header;

use crate::site::Brand;
use leptos::prelude::*;

pub fn theme_color(brand: Brand) -> &'static str {
    match brand {
        Brand::Rosace => "#d6336c",
        Brand::Violeta => "#6f2dbd",
    }
}

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

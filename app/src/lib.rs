//! Rosace: the Leptos app (server-rendered with `ssr`, hydrated in the browser with `hydrate`).
#![recursion_limit = "256"]

pub mod app;
pub mod auth;
pub mod cart;
pub mod catalog;
pub mod client;
pub mod context;
pub mod dsa;
pub mod home;
pub mod model;
pub mod onboarding;
#[cfg(feature = "ssr")]
pub mod platform;
pub mod product;
pub mod routes;
pub mod search;
pub mod shell;
pub mod site;
pub mod text;
pub mod ui;

pub use app::{shell, App};

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
    // The loader hydrates the islands right after this returns, each in a microtask; a
    // zero timeout runs once they all are. The marker is for tests and for CSS that should
    // only apply once the page is interactive.
    leptos::prelude::set_timeout(
        || {
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = root.set_attribute("data-hydrated", "true");
            }
        },
        std::time::Duration::ZERO,
    );
}

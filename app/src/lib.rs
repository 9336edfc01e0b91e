//! Rosace: the Leptos app (server-rendered with `ssr`, hydrated in the browser with `hydrate`).
#![recursion_limit = "256"]

pub mod account;
pub mod address;
pub mod app;
pub mod auth;
pub mod brands;
pub mod cart;
pub mod catalog;
pub mod client;
pub mod communications;
pub mod content;
pub mod context;
pub mod diagnostics;
pub mod dsa;
pub mod experiments;
pub mod help;
pub mod home;
/// Every island's keys, read by rendering it again (above the areas: it names them all).
#[cfg(feature = "ssr")]
pub mod island_keys;
pub mod model;
pub mod onboarding;
pub mod operations;
pub mod orders;
#[cfg(feature = "ssr")]
pub mod platform;
pub mod product;
pub mod promotions;
pub mod rosedeals;
pub mod routes;
pub mod search;
pub mod shell;
pub mod site;
pub mod sponsorship;
pub mod text;
pub mod travel;
pub mod ui;
pub mod wallet;

pub use app::{shell, App};

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
    // Islands mark the page hydrated as they come up (`ui::hydrated`); a page without
    // islands is interactive right away.
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        let none = doc.query_selector("leptos-island").ok().flatten().is_none();
        if let (true, Some(root)) = (none, doc.document_element()) {
            let _ = root.set_attribute("data-hydrated", "true");
        }
    }
}

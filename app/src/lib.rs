//! Rosace: the Leptos app (server-rendered with `ssr`, hydrated in the browser with `hydrate`).
#![recursion_limit = "256"]

pub mod auth;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod context;
pub mod dsa;
pub mod home;
pub mod http;
pub mod model;
pub mod onboarding;
pub mod pages;
pub mod product;
pub mod routes;
pub mod sanitize;
pub mod search;
pub mod shell;
pub mod site;
pub mod validation;

#[cfg(feature = "ssr")]
pub mod csrf;
#[cfg(feature = "ssr")]
pub mod db;
#[cfg(feature = "ssr")]
pub mod mail;
#[cfg(feature = "ssr")]
pub mod password;
#[cfg(feature = "ssr")]
pub mod ratelimit;
#[cfg(feature = "ssr")]
pub mod session;
#[cfg(feature = "ssr")]
pub mod state;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet};

use crate::context::RequestCtx;

/// The HTML document around the app. Rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let ctx_json = serde_json::to_string(&ctx).unwrap_or_default();
    #[cfg(feature = "ssr")]
    content_security_policy();
    view! {
        <!DOCTYPE html>
        <html lang=site.locale class=site.brand.css_class() data-ctx=ctx_json>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="theme-color" content=shell::theme_color(site.brand) />
                <link rel="icon" href=format!("/img/favicon/{}.svg", site.site_id) type="image/svg+xml" />
                <AutoReload options=options.clone() />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// CSP with the per-response nonce Leptos puts on its scripts: no inline script runs
/// without it. WebAssembly needs `wasm-unsafe-eval`; the widget's shadow-root styles need
/// inline styles.
#[cfg(feature = "ssr")]
fn content_security_policy() {
    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    let nonce = leptos::nonce::use_nonce()
        .map(|n| n.to_string())
        .unwrap_or_default();
    let policy = format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         font-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'"
    );
    if let Ok(value) = axum::http::HeaderValue::from_str(&policy) {
        response.insert_header(axum::http::header::CONTENT_SECURITY_POLICY, value);
    }
}

fn ctx_cart_count() -> i64 {
    RequestCtx::current().cart_count
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let ctx = RequestCtx::current();
    provide_context(ctx);
    catalog::favourites::Favourites::provide();
    checkout::badge::CartCount::provide(ctx_cart_count());
    view! {
        <Stylesheet id="leptos" href="/pkg/rosace.css" />
        <shell::Shell />
    }
}

#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
    // A marker for tests and for CSS that should only apply once the app is interactive.
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-hydrated", "true");
    }
}

//! The `data-hydrated` marker on `<html>`: set once every island of the first page is
//! interactive (lazy islands load their code first, so "the WASM started" is not enough).
//! Tests wait for it, and CSS may use it. After an in-app navigation `pages/navigation.ts` sets
//! it again once the new page's islands are hydrated.

/// Called first thing by every island (`#[island]`). In the browser it counts the islands
/// hydrated; on the server it marks the island's owner, so the translation keys its code
/// looks up go into the page's table (`site::i18n::page`).
pub fn island_ready() {
    crate::site::i18n::page::enter_island();
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    browser::island_ready();
}

/// Runs `stop` once, when an in-app navigation swaps this page out (`rosace:navigated`).
/// Islands are never disposed when `pages/navigation.ts` replaces the body (Leptos' island
/// hydration forgets their owners), so `on_cleanup` does not run then: an island holding a
/// timer or a window listener stops through this. Call it from an effect, which runs after
/// the navigation that hydrated the island has announced itself.
#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
pub fn on_page_swapped(stop: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let navigated = wasm_bindgen::closure::Closure::once_into_js(stop);
    let once = web_sys::AddEventListenerOptions::new();
    once.set_once(true);
    let _ = doc.add_event_listener_with_callback_and_add_event_listener_options(
        "rosace:navigated",
        navigated.unchecked_ref(),
        &once,
    );
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
mod browser {
    use std::cell::Cell;

    thread_local! {
        static READY: Cell<u32> = const { Cell::new(0) };
    }

    pub fn island_ready() {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(root) = doc.document_element() else {
            return;
        };
        if root.has_attribute("data-hydrated") || root.has_attribute("data-navigated") {
            return;
        }
        let ready = READY.with(|r| {
            r.set(r.get() + 1);
            r.get()
        });
        let expected = doc
            .query_selector_all("leptos-island:not(leptos-island leptos-island)")
            .map(|list| list.length())
            .unwrap_or(0);
        if ready >= expected {
            // After this island's own hydration, which runs once its body has returned.
            leptos::prelude::set_timeout(
                move || {
                    let _ = root.set_attribute("data-hydrated", "true");
                },
                std::time::Duration::ZERO,
            );
        }
    }
}

//! A home's information toast (spec 000 §3 informationSectionToast): a line of information
//! at the top of the home, server-rendered for everyone. Once hydrated it gets a close
//! button; closing it keeps it closed for the rest of the visit (session storage, per home
//! and text: a new message shows again). Without scripts it simply stays.
use leptos::prelude::*;

/// Session-storage key of a closed toast; `key` is [`crate::home::rules::toast_key`].
pub fn storage_key(key: &str) -> String {
    format!("rosace.home.toast.{key}")
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// A lazy island around the toast's server-rendered text.
// On the server the close handler captures no storage key and is `Copy`, in the browser it
// is not: the clone is needed there (a `Callback` instead added weight to the product page).
// The allow is unconditional: the island's name is a hash of its whole item, attributes
// included, so a `cfg_attr` gave the server and the browser two names and the island never
// hydrated.
#[allow(clippy::clone_on_copy)]
#[island(lazy)]
pub fn InfoToast(key: String, children: Children) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = crate::context::RequestCtx::current();
    let storage_key = storage_key(&key);
    let closed = RwSignal::new(false);
    // The button only once it works: it is added after hydration, so a page without
    // scripts offers none.
    let live = RwSignal::new(false);
    Effect::new({
        let storage_key = storage_key.clone();
        move |_| {
            #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
            {
                let was_closed = storage()
                    .and_then(|s| s.get_item(&storage_key).ok().flatten())
                    .is_some();
                closed.set(was_closed);
                live.set(true);
            }
            #[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
            let _ = &storage_key;
        }
    });
    let close = move |_| {
        closed.set(true);
        #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
        if let Some(s) = storage() {
            let _ = s.set_item(&storage_key, "closed");
        }
    };
    let label = ctx.t("home.toast.close");
    view! {
        <div class="home__toast" role="status" data-testid="home-toast" hidden=move || closed.get()>
            <div class="home__toast-text">{children()}</div>
            <Show when=move || live.get()>
                <button type="button" class="home__toast-close" aria-label=label.clone()
                    data-testid="home-toast-close" on:click=close.clone()>
                    "×"
                </button>
            </Show>
        </div>
    }
}

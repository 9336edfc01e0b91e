//! The favourite toggle (spec 000 §4): PUT when the item is not a favourite, DELETE when it
//! is. On success the flag flips everywhere the item shows on the page; on failure nothing
//! changes and the failure is logged; an authorization failure sends the member to sign in.
use std::collections::HashMap;

use leptos::prelude::*;

use crate::client::{self, CallError};

/// PUT adds (not a favourite yet), DELETE removes (spec 000 §7).
pub fn favourite_method(is_favorite: bool) -> &'static str {
    if is_favorite {
        "DELETE"
    } else {
        "PUT"
    }
}

/// Flags changed in this tab, by item id. Items not in the map keep their server flag.
/// In the browser one map lives as long as the page's WASM, shared by every favourite
/// island, so a flag flipped on a product page shows on the catalog tile after going back.
#[derive(Clone)]
pub struct Favourites(ArcRwSignal<HashMap<i64, bool>>);

#[cfg(feature = "hydrate")]
thread_local! {
    static STORE: Favourites = Favourites(ArcRwSignal::new(HashMap::new()));
}

impl Favourites {
    #[cfg(feature = "hydrate")]
    pub fn use_store() -> Self {
        STORE.with(Clone::clone)
    }

    /// On the server nothing was flipped yet: each render starts from the server's flags.
    #[cfg(not(feature = "hydrate"))]
    pub fn use_store() -> Self {
        Favourites(ArcRwSignal::new(HashMap::new()))
    }

    pub fn is_favourite(&self, item_id: i64, from_server: bool) -> bool {
        self.0
            .with(|m| m.get(&item_id).copied())
            .unwrap_or(from_server)
    }

    pub fn url(sale_id: i64, item_id: i64) -> String {
        format!("/api/catalog/v2/sale/{sale_id}/item/{item_id}/favorite")
    }

    /// Flips the flag through the API; the new flag, or the error (state unchanged).
    pub async fn toggle(
        &self,
        sale_id: i64,
        item_id: i64,
        current: bool,
    ) -> Result<bool, CallError> {
        let method = favourite_method(current);
        match client::call(method, &Self::url(sale_id, item_id), None).await {
            Ok(_) => {
                self.0.update(|m| {
                    m.insert(item_id, !current);
                });
                Ok(!current)
            }
            Err(e) => {
                leptos::logging::warn!(
                    "{}",
                    if current {
                        "Cannot remove from favorite"
                    } else {
                        "Cannot add to favorite"
                    }
                );
                if e == CallError::Unauthorized {
                    client::to_sign_in();
                }
                Err(e)
            }
        }
    }
}

/// The heart button as an island, for server-rendered tiles and the product page: the only
/// part of them that runs in the browser.
#[island]
pub fn FavouriteButton(sale_id: i64, item_id: i64, initial: bool, compact: bool) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    view! { <FavouriteToggle sale_id item_id initial compact /> }
}

/// A heart button bound to the tab's store. Inside another island use this, not
/// `FavouriteButton`: an island nested in an island would be hydrated twice.
#[component]
pub fn FavouriteToggle(sale_id: i64, item_id: i64, initial: bool, compact: bool) -> impl IntoView {
    let ctx = crate::context::RequestCtx::current();
    let store = Favourites::use_store();
    let on = {
        let store = store.clone();
        Memo::new(move |_| store.is_favourite(item_id, initial))
    };
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(false);
    let (add_label, remove_label) = (ctx.t("favourite.add"), ctx.t("favourite.remove"));
    let error_text = ctx.t("favourite.error");
    let member = ctx.is_member();
    let click = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        if !member {
            client::to_sign_in();
            return;
        }
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        failed.set(false);
        let current = store.is_favourite(item_id, initial);
        let store = store.clone();
        leptos::task::spawn_local(async move {
            let result = store.toggle(sale_id, item_id, current).await;
            failed.set(result.is_err());
            busy.set(false);
        });
    };
    view! {
        <button
            type="button"
            class="favourite"
            class:favourite--on=move || on.get()
            class:favourite--compact=compact
            aria-pressed=move || on.get().to_string()
            aria-busy=move || busy.get().to_string()
            aria-label=move || if on.get() { remove_label.clone() } else { add_label.clone() }
            data-testid="favourite-toggle"
            on:click=click
        >
            <span aria-hidden="true">{move || if on.get() { "♥" } else { "♡" }}</span>
        </button>
        {move || failed.get().then(|| view! { <span class="favourite__error" role="alert">{error_text.clone()}</span> })}
    }
}

#[cfg(test)]
mod tests {
    use super::favourite_method;

    #[test]
    fn put_adds_delete_removes() {
        assert_eq!(favourite_method(false), "PUT");
        assert_eq!(favourite_method(true), "DELETE");
    }
}

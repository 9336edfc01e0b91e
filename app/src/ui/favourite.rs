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

/// Flags changed on this page, by item id. Items not in the map keep their server flag.
#[derive(Clone, Copy)]
pub struct Favourites(RwSignal<HashMap<i64, bool>>);

impl Favourites {
    /// Provided once by the app, so the flags live as long as the app does: a flag flipped
    /// on a product page shows on the catalog tile after going back.
    pub fn provide() {
        provide_context(Favourites(RwSignal::new(HashMap::new())));
    }

    pub fn use_store() -> Self {
        use_context::<Favourites>().expect("Favourites::provide() in App")
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

/// A heart button bound to the page's store.
#[component]
pub fn FavouriteButton(
    sale_id: i64,
    item_id: i64,
    initial: bool,
    #[prop(optional)] compact: bool,
) -> impl IntoView {
    let ctx = crate::context::RequestCtx::current();
    let store = Favourites::use_store();
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(false);
    let on = move || store.is_favourite(item_id, initial);
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
            class:favourite--on=on
            class:favourite--compact=compact
            aria-pressed=move || on().to_string()
            aria-busy=move || busy.get().to_string()
            aria-label=move || if on() { remove_label.clone() } else { add_label.clone() }
            data-testid="favourite-toggle"
            on:click=click
        >
            <span aria-hidden="true">{move || if on() { "♥" } else { "♡" }}</span>
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

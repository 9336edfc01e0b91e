//! Page kinds. Pages that later work builds show a localized placeholder of their kind.
pub mod not_found;
mod placeholder;

use leptos::prelude::*;

use crate::routes::{login_redirect, PageKind, ResolvedRoute};

pub fn render(route: ResolvedRoute, path: String) -> AnyView {
    match route.kind {
        PageKind::Home => view! { <crate::home::HomePage route path /> }.into_any(),
        PageKind::Product => view! { <crate::product::ProductPage route path /> }.into_any(),
        PageKind::Catalog if route.get("campaignId").is_some() => {
            view! { <crate::catalog::page::CatalogPage route path /> }.into_any()
        }
        PageKind::Cart => view! { <crate::checkout::cart_page::CartPage path /> }.into_any(),
        PageKind::MyOrders => view! { <crate::checkout::orders::OrdersPage path /> }.into_any(),
        PageKind::OrderDetails if route.get_id("orderId").is_some() => {
            let order_id = route.get_id("orderId");
            view! { <crate::checkout::orders::OrdersPage path order_id=order_id.unwrap_or(0) /> }
                .into_any()
        }
        PageKind::Brand => view! { <crate::catalog::lists::BrandPage route path /> }.into_any(),
        PageKind::Search => view! { <crate::search::SearchPage path /> }.into_any(),
        PageKind::Favourites => view! { <crate::catalog::lists::FavouritesPage path /> }.into_any(),
        PageKind::Authentication | PageKind::Registration | PageKind::Portal => {
            view! { <crate::auth::pages::AuthPage route path /> }.into_any()
        }
        _ => view! { <placeholder::Placeholder route path /> }.into_any(),
    }
}

/// Client-side guard for in-app navigation to a members-only page.
pub fn redirect_to_login(path: &str, search: &str) -> impl IntoView {
    let target = login_redirect(&crate::routes::with_query(path, search));
    #[cfg(feature = "hydrate")]
    {
        if let Some(window) = web_sys::window() {
            let _ = window.location().assign(&target);
        }
    }
    let href = target.clone();
    view! { <p class="page__redirect"><a href=href>{target}</a></p> }
}

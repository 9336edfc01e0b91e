//! The shell (spec 000 §2, §9): header, footer, progress bar, and the page switch.
mod footer;
mod header;
mod seo;

pub use seo::SeoMeta;

use leptos::prelude::*;
use leptos_router::{
    components::{Route, Router, Routes},
    hooks::use_location,
    path, SsrMode,
};

use crate::context::RequestCtx;
use crate::pages;
use crate::routes::{self, Access, PageKind};
use crate::site::Brand;

pub fn theme_color(brand: Brand) -> &'static str {
    match brand {
        Brand::Rosace => "#d6336c",
        Brand::Violeta => "#6f2dbd",
    }
}

#[component]
pub fn Shell() -> impl IntoView {
    let (is_routing, set_is_routing) = signal(false);
    view! {
        <Router set_is_routing>
            <ProgressBar is_routing />
            // One catch-all route: the route table in `routes.rs` is the single source of
            // truth, shared with the server's access rules. Async SSR: complete HTML first.
            <Routes fallback=|| view! { <Page /> }>
                <Route path=path!("") view=Page ssr=SsrMode::Async />
                <Route path=path!("/*any") view=Page ssr=SsrMode::Async />
            </Routes>
        </Router>
    }
}

/// A thin bar at the top while the router loads the next page.
#[component]
fn ProgressBar(is_routing: ReadSignal<bool>) -> impl IntoView {
    view! {
        <div
            class="progress-bar"
            class:progress-bar--active=move || is_routing.get()
            role="progressbar"
            aria-hidden=move || (!is_routing.get()).to_string()
        ></div>
    }
}

#[component]
fn Page() -> impl IntoView {
    let location = use_location();
    move || {
        let path = location.pathname.get();
        let ctx = RequestCtx::current();
        let route = routes::resolve(&path);
        let kind = route.as_ref().map(|r| r.kind);
        let simplified = kind.is_some_and(PageKind::simplified_header);
        let transparent = kind == Some(PageKind::Home);
        let body = match route {
            None => pages::not_found::NotFound().into_any(),
            Some(route) if route.access() == Access::MembersOnly && !ctx.is_member() => {
                // The server already redirects full page loads; this covers in-app navigation.
                pages::redirect_to_login(&path, &location.search.get_untracked()).into_any()
            }
            Some(route) => pages::render(route, path.clone()),
        };
        view! {
            <header::Header simplified transparent />
            <main id="main" class="page">{body}</main>
            <footer::Footer path=path.clone() />
            <crate::onboarding::OnboardingLayer back=crate::routes::with_query(&path, &location.search.get_untracked()) home=transparent />
        }
    }
}

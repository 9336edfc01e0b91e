//! The app: the HTML document (`shell`), the root component (`App`), the router and the
//! page switch from the route table's page kinds to the areas' pages.
use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, MetaTags};
use leptos_router::{
    components::{Route, Router, Routes},
    hooks::use_location,
    path, SsrMode,
};

use crate::context::RequestCtx;
use crate::routes::{self, Access, PageKind, ResolvedRoute};
use crate::shell::{Footer, Header, ProgressBar};
use crate::ui::not_found::NotFound;

/// The HTML document around the app. Rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    // A member template gets the member's own context per request (`ui::personal`).
    let ctx_json = match crate::ui::personal::Marks::current() {
        Some(marks) => marks.ctx(),
        None => serde_json::to_string(&ctx).unwrap_or_default(),
    };
    let islands = page_has_islands();
    // The texts the page's browser code reads, in its language (see `site::i18n::page`):
    // recorded while the body renders, written after it.
    #[cfg(feature = "ssr")]
    let i18n = islands.then(|| {
        let keys = crate::site::i18n::PageKeys::for_render();
        view! { <PageTable keys lang=ctx.lang() /> }
    });
    #[cfg(not(feature = "ssr"))]
    let i18n = None::<()>;
    #[cfg(feature = "ssr")]
    content_security_policy();
    // What the form enhancement says when a post gets no answer (it does not send it again).
    let failed = ctx.t("errors.general_retry.notification");
    // The control of the `member_programmatic_navigation` holdback follows every link with a
    // page load (`frontend-react/src/pages/navigation.ts` reads this).
    let page_loads = (!ctx
        .experiments
        .on(crate::model::experiments::Feature::ProgrammaticNavigation))
    .then_some("pages");
    view! {
        <!DOCTYPE html>
        <html lang=site.locale class=site.palette.css_class() data-ctx=ctx_json data-failed=failed data-hydrated=(!islands).then_some("true") data-navigation=page_loads>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="theme-color" content=crate::shell::theme_color(site.palette) />
                <link rel="icon" href=format!("/img/favicon/{}.svg", site.site_id) type="image/svg+xml" />
                <HashedStylesheet options=options.clone() id="leptos" />
                <AutoReload options=options.clone() />
                {islands.then(|| view! {
                    <IdleDeadline />
                    <HydrationScripts options islands=true />
                    <ShellScript />
                })}
                <MetaTags />
            </head>
            <body>
                <App />
                {i18n}
            </body>
        </html>
    }
}

/// The page's table (`<script id="i18n">`): the keys recorded while the body rendered.
/// Async routes stream in order, and this future is not ready at its first poll: it runs
/// once everything before it in the document has rendered, every island included, however
/// late its data came.
#[cfg(feature = "ssr")]
#[component]
fn PageTable(keys: crate::site::i18n::PageKeys, lang: &'static str) -> impl IntoView {
    Suspend::new(async move {
        let mut polled = false;
        std::future::poll_fn(|cx| {
            if std::mem::replace(&mut polled, true) {
                std::task::Poll::Ready(())
            } else {
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        let table = crate::site::i18n::page_table_json_for(lang, keys.keys());
        view! { <script type="application/json" id=crate::site::i18n::PAGE_TABLE_ID inner_html=table></script> }
    })
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
    // Social sign-in's form is answered by a redirect to the provider: its origin must be
    // an allowed form action.
    let providers = crate::auth::social::form_origins();
    let policy = format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         font-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self' {providers}"
    );
    if let Ok(value) = axum::http::HeaderValue::from_str(&policy) {
        response.insert_header(axum::http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Page kinds without any island (the sign-in steps: a simplified header and plain forms)
/// load no WASM at all, and are interactive as soon as they show.
fn page_has_islands() -> bool {
    #[cfg(feature = "ssr")]
    {
        let path = use_context::<axum::http::request::Parts>()
            .map(|p| p.uri.path().to_string())
            .unwrap_or_default();
        !routes::resolve(&path).is_some_and(|r| r.kind.simplified_header())
    }
    #[cfg(not(feature = "ssr"))]
    true
}

/// Gives Leptos' idle-time start of the islands a 2 s deadline (why: in the script). Inline,
/// as the island script it must run before; the nonce lets it past the policy. The one
/// inline script of ours, typed and tested in `frontend-react` like the others.
#[component]
fn IdleDeadline() -> impl IntoView {
    // Sent without its comments, which every page would otherwise carry.
    static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("../../frontend-react/src/pages/idle-deadline.js")
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with("//") && !line.starts_with("/**"))
            .collect::<Vec<_>>()
            .join("\n")
    });
    let nonce = leptos::nonce::use_nonce();
    view! { <script nonce=nonce inner_html=SCRIPT.as_str()></script> }
}

/// The shop pages' module (`frontend-react/src/pages/shell.ts`): in-app navigation without
/// a framework router in the browser (same-site links fetch the next page's HTML, swap the
/// body and head tags, and hydrate its islands, so the WASM and its cart count and
/// favourites stores stay loaded) and the enhancement of server forms. A content-hashed
/// file, not inline: every page's HTML is lighter and the browser keeps the script.
#[component]
fn ShellScript() -> impl IntoView {
    view! { <script type="module" src=crate::ui::assets::script("shell")></script> }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let ctx = RequestCtx::current();
    provide_context(ctx);
    view! {
        <Shell />
    }
}

#[component]
pub fn Shell() -> impl IntoView {
    view! {
        <Router>
            <ProgressBar />
            // One catch-all route: the route table in `routes.rs` is the single source of
            // truth, shared with the server's access rules. Async SSR: complete HTML first.
            <Routes fallback=|| view! { <Page /> }>
                <Route path=path!("") view=Page ssr=SsrMode::Async />
                <Route path=path!("/*any") view=Page ssr=SsrMode::Async />
            </Routes>
        </Router>
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
            None => NotFound().into_any(),
            Some(route) if route.access() == Access::MembersOnly && !ctx.is_member() => {
                // The server already redirects full page loads; this covers in-app navigation.
                redirect_to_login(&route, &path, &location.search.get_untracked()).into_any()
            }
            Some(route) => render(route, path.clone()),
        };
        let preview = ctx.preview_at.map(|at| {
            let c = crate::site::format::civil_from_unix(at, 0);
            let date = format!(
                "{}-{:02}-{:02} {:02}:{:02}",
                c.year, c.month, c.day, c.hour, c.minute
            );
            view! {
                <p class="operator-preview" role="status" data-testid="operator-preview">
                    {ctx.t_with("shell.operator_preview", &[("date", &date)])}" "
                    <a href="/backoffice/preview">{ctx.t("shell.operator_preview_end")}</a>
                </p>
            }
        });
        view! {
            <Header simplified transparent path=path.clone() />
            // In the page's flow below the header, which may be fixed over the top.
            <main id="main" class="page">{preview}{body}</main>
            <Footer path=path.clone() />
            <crate::onboarding::ui::OnboardingLayer back=crate::routes::with_query(&path, &location.search.get_untracked()) home=transparent />
        }
    }
}

/// The page of a resolved route: each kind to its area's page. The match names every
/// kind (no catch-all), so a new kind cannot ship without its page.
pub fn render(route: ResolvedRoute, path: String) -> AnyView {
    match route.kind {
        PageKind::Home => view! { <crate::home::ui::HomePage route path /> }.into_any(),
        PageKind::Product if route.get("campaignId").is_none() => {
            let id = route.get_id("productId").unwrap_or(0);
            view! { <crate::operations::ui::ProductByIdPage id /> }.into_any()
        }
        PageKind::Product => view! { <crate::product::ui::ProductPage route path /> }.into_any(),
        PageKind::Catalog if route.get("campaignId").is_some() => {
            view! { <crate::catalog::ui::CatalogPage route path /> }.into_any()
        }
        PageKind::Catalog if route.get("slug").is_some() => {
            let slug = route.get("slug").unwrap_or_default().to_string();
            let search = use_location().search.get_untracked();
            view! { <crate::operations::ui::TravelCatalogBySlugPage slug search /> }.into_any()
        }
        PageKind::Catalog => {
            let id = route.get_id("catalogId").unwrap_or(0);
            let search = use_location().search.get_untracked();
            view! { <crate::operations::ui::CatalogByIdPage id search /> }.into_any()
        }
        PageKind::Cart => view! { <crate::cart::ui::cart_page::CartPage path /> }.into_any(),
        PageKind::BrandsPlace => view! { <crate::brands::ui::BrandsPlacePage /> }.into_any(),
        PageKind::Sales => view! { <crate::home::ui::open_door::SalesPage /> }.into_any(),
        PageKind::Navigation => view! { <crate::shell::navigation::NavigationPage /> }.into_any(),
        PageKind::Operation => view! { <crate::operations::ui::OperationPage path /> }.into_any(),
        // A site whose sponsorship is off has no such page (its menus do not offer it).
        PageKind::Sponsorship
            if crate::shell::rules::SPONSORSHIP_OFF_SITES
                .contains(&crate::context::RequestCtx::current().site_id) =>
        {
            NotFound().into_any()
        }
        PageKind::Sponsorship => {
            view! { <crate::sponsorship::ui::SponsorshipPage path /> }.into_any()
        }
        PageKind::MyOrders => view! { <crate::orders::ui::list::OrdersListPage path /> }.into_any(),
        // The route table only resolves numeric ids; anything else names no order.
        PageKind::OrderDetails => match route.get_id("orderId") {
            Some(order_id) => {
                view! { <crate::orders::ui::detail::OrderDetailPage path order_id /> }.into_any()
            }
            None => NotFound().into_any(),
        },
        PageKind::Brand => view! { <crate::catalog::ui::BrandPage route path /> }.into_any(),
        PageKind::Search => view! { <crate::search::ui::SearchPage /> }.into_any(),
        PageKind::OperationSelection => {
            view! { <crate::operations::ui::selection::SelectionPage route path /> }.into_any()
        }
        PageKind::Favourites => view! { <crate::catalog::ui::FavouritesPage path /> }.into_any(),
        PageKind::Authentication | PageKind::Registration | PageKind::Portal => {
            view! { <crate::auth::ui::AuthPage route path /> }.into_any()
        }
        PageKind::Travel => {
            view! { <crate::travel::ui::home::TravelHomePage route path /> }.into_any()
        }
        PageKind::TravelSearch => {
            view! { <crate::travel::ui::search::TravelSearchPage route path /> }.into_any()
        }
        PageKind::TravelResults => {
            view! { <crate::travel::ui::search::TravelResultsPage route path /> }.into_any()
        }
        PageKind::TravelCatalog => {
            view! { <crate::travel::ui::catalog::TravelCatalogPage route path /> }.into_any()
        }
        PageKind::TravelProduct => {
            view! { <crate::travel::ui::product::TravelProductPage route path /> }.into_any()
        }
        PageKind::TravelCheckout => {
            view! { <crate::travel::ui::checkout::TravelCheckoutPage route path /> }.into_any()
        }
        PageKind::TravelError => {
            view! { <crate::travel::ui::error_page::TravelErrorPage route path /> }.into_any()
        }
        PageKind::Wallet => view! { <crate::wallet::ui::page::WalletPage path /> }.into_any(),
        PageKind::Deals => view! { <crate::rosedeals::ui::DealsPage route path /> }.into_any(),
        PageKind::Communications => {
            view! { <crate::communications::ui::CommunicationsPage path /> }.into_any()
        }
        PageKind::VouchersPromos => {
            view! { <crate::promotions::ui::VouchersPage path /> }.into_any()
        }
        PageKind::Addresses => {
            view! { <crate::address::ui::page::AddressesPage path /> }.into_any()
        }
        PageKind::MyAccount => {
            view! { <crate::account::ui::home::MyAccountPage path /> }.into_any()
        }
        PageKind::PersonalData => {
            view! { <crate::account::ui::personal::PersonalDataPage path /> }.into_any()
        }
        PageKind::HelpForm => {
            view! { <crate::help::ui::form::HelpFormPage route path /> }.into_any()
        }
        PageKind::MyNotifications => {
            view! { <crate::help::ui::centre::MessageCentrePage path /> }.into_any()
        }
        PageKind::Chat => view! { <crate::help::ui::chat::ChatPage path /> }.into_any(),
        PageKind::ContactSelector => {
            view! { <crate::help::ui::pages::ContactSelectorPage path /> }.into_any()
        }
        PageKind::PostSalesError => {
            view! { <crate::help::ui::pages::PostSalesErrorPage path /> }.into_any()
        }
        PageKind::AboutUs | PageKind::PrivacyPolicy | PageKind::GeneralConditions => {
            match crate::content::rules::Document::of(route.kind) {
                Some(doc) => view! { <crate::content::ui::DocumentPage doc /> }.into_any(),
                None => NotFound().into_any(),
            }
        }
        PageKind::Landing => view! { <crate::content::ui::LandingPage route path /> }.into_any(),
        PageKind::PostSales => view! { <crate::content::ui::PostSalesPage path /> }.into_any(),
        PageKind::Loyalty => view! { <crate::content::ui::LoyaltyPage path /> }.into_any(),
        PageKind::Logout => view! { <crate::content::ui::LogoutRedirect /> }.into_any(),
        PageKind::MobileMenu => view! { <crate::shell::menu::MobileMenuPage /> }.into_any(),
    }
}

/// Client-side guard for in-app navigation to a members-only page.
pub fn redirect_to_login(route: &ResolvedRoute, path: &str, search: &str) -> impl IntoView {
    let target = crate::routes::visitor_redirect(route, path, search);
    #[cfg(feature = "hydrate")]
    {
        if let Some(window) = web_sys::window() {
            let _ = window.location().assign(&target);
        }
    }
    let href = target.clone();
    view! { <p class="page__redirect"><a href=href>{target}</a></p> }
}

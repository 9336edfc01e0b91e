//! Two small members' pages that gather links rather than hold data: `/postsales`, the
//! after-sale hub (orders, message centre, help, returns' home, favourites, addresses,
//! wallet, rose deals), and `/checkout/loyalty`, the premium programme (what Premium and
//! the delivery pass give, and where to add them: the cart's loyalty item).
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::ui::SeoMeta;

/// One destination of a hub: path, title key, text key.
type Entry = (&'static str, &'static str, &'static str);

/// The after-sale destinations, each a page that exists (spec 001 §2 post-sales area).
pub const POSTSALES_ENTRIES: [Entry; 8] = [
    ("/gr/my-orders", "menu.orders", "content.postsales.orders"),
    (
        "/gr/my-notifications/",
        "page.mynotifications",
        "content.postsales.notifications",
    ),
    (
        "/postsales/contactselector",
        "page.contactselector",
        "content.postsales.contact",
    ),
    ("/helpform", "menu.help", "content.postsales.helpform"),
    (
        "/postsales/favourites",
        "page.favourites",
        "content.postsales.favourites",
    ),
    (
        "/postsales/myaccount/addresses/",
        "page.addresses",
        "content.postsales.addresses",
    ),
    (
        "/postsales/myaccount/wallet/",
        "page.wallet",
        "content.postsales.wallet",
    ),
    ("/rosedeals", "page.deals", "content.postsales.deals"),
];

#[component]
fn Hub(
    title: String,
    intro: String,
    path: String,
    testid: &'static str,
    entries: Vec<(String, String, String)>,
) -> impl IntoView {
    view! {
        <SeoMeta title=title.clone() description=intro.clone() path indexable=false />
        <section class="content-hub" data-testid=testid aria-labelledby="content-hub-title">
            <h1 id="content-hub-title">{title}</h1>
            <p class="content-hub__intro">{intro}</p>
            <ul class="content-hub__list">
                {entries
                    .into_iter()
                    .map(|(href, name, text)| view! {
                        <li class="content-hub__item">
                            <a class="content-hub__link" href=href>{name}</a>
                            <p>{text}</p>
                        </li>
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

#[component]
pub fn PostSalesPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let entries = POSTSALES_ENTRIES
        .iter()
        .map(|(href, name, text)| (href.to_string(), ctx.t(name), ctx.t(text)))
        .collect();
    view! {
        <Hub title=ctx.t("page.postsales") intro=ctx.t("content.postsales.intro") path testid="postsales-hub" entries />
    }
}

#[component]
pub fn LoyaltyPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let entries = vec![
        (
            "/cart".to_string(),
            ctx.t("cart.loyalty.premium"),
            ctx.t_with("content.loyalty.premium", &[("brand", brand)]),
        ),
        (
            "/cart".to_string(),
            ctx.t("cart.loyalty.pass"),
            ctx.t("content.loyalty.pass"),
        ),
        (
            format!(
                "{}#{}",
                crate::content::rules::Document::GeneralConditions.path(),
                super::document::section_anchor("loyalty")
            ),
            ctx.t("page.generalconditions"),
            ctx.t("content.loyalty.conditions"),
        ),
    ];
    view! {
        <Hub title=ctx.t("page.loyalty") intro=ctx.t_with("content.loyalty.intro", &[("brand", brand)]) path testid="loyalty-page" entries />
    }
}

/// `/gr/authentication/logout/` (the site base variant the server's own logout route
/// does not take): sends the browser to `/authentication/logout/`, which ends the session.
#[component]
pub fn LogoutRedirect() -> impl IntoView {
    const TARGET: &str = "/authentication/logout/";
    #[cfg(feature = "ssr")]
    leptos_axum::redirect(TARGET);
    let ctx = RequestCtx::current();
    view! { <p class="page__redirect"><a href=TARGET>{ctx.t("page.logout")}</a></p> }
}

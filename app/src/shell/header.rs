//! The fixed header (spec 001 §2): home tabs and header categories, logo, search field,
//! cart link with its count, login element (the account menu when signed in), the
//! message-centre widget and the lateral menu. Server HTML, complete without scripts (the
//! burger is a link to `/menu`); the shell module (`pages/header.ts`) opens the menus in place, keeps the header
//! cache and fills the categories' flyouts from it. Only the cart count is an island: it
//! follows adds made on the page.
use leptos::prelude::*;

use super::content::{load_content, page_preview_date};
use super::menu::{AccountMenu, LateralMenu};
use super::model::{HeaderContent, HeaderMessage, HomeHeader};
use crate::context::RequestCtx;
use crate::ui::cart_count::CartCount;
use crate::ui::personal::Hole;

fn logo(ctx: &RequestCtx) -> impl IntoView {
    let site = ctx.site();
    let brand = site.brand.name();
    view! {
        <a class="header__logo" href="/" aria-label=ctx.t_with("header.logo.label", &[("brand", brand)])>
            <img src=site.logo_url() alt=brand width="188" height="50" />
        </a>
    }
}

/// Sign-in pages get the simplified header (logo only), which needs no script. The full
/// header's glue is in the shell module (`frontend-react/src/pages/header.ts`).
#[component]
pub fn Header(simplified: bool, transparent: bool, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    if simplified {
        return view! { <header class="header header--simplified">{logo(&ctx)}</header> }
            .into_any();
    }
    let fallback = {
        let ctx = ctx.clone();
        move || view! { <header class="header"><div class="header__inner">{logo(&ctx)}<span class="header__placeholder" aria-hidden="true"></span></div></header> }
    };
    view! {
        <Suspense fallback>
            {move || {
                let path = path.clone();
                let preview = page_preview_date();
                Suspend::new(async move {
                    let content = load_content(preview).await;
                    view! { <FullHeader content transparent path /> }
                })
            }}
        </Suspense>
    }
    .into_any()
}

fn current_tab<'a>(tabs: &'a [HomeHeader], path: &str) -> Option<&'a HomeHeader> {
    let path = path
        .strip_prefix("/gr")
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    tabs.iter().find(|t| {
        let href = t.href.strip_prefix("/gr").unwrap_or(&t.href);
        href == path
            || (t.name == "default" && (path == "/home/default" || path == "/h/default"))
            // The travel home has a members' and an open-door address: either is its tab.
            || (t.kind == "TRAVEL"
                && matches!(path, "/home/travel" | "/voyages" | "/voyage" | "/voyage/default"))
    })
}

/// The button that opens a home tab's modules or a category's flyout (`pages/header.ts` toggles
/// `aria-expanded` and the flyout's `hidden`; Enter, Space and Escape work from the keyboard).
#[component]
fn FlyoutToggle(controls: String, name: String, testid: &'static str) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <button
            type="button"
            class="header__more"
            aria-expanded="false"
            aria-controls=controls
            aria-label=ctx.t_with("shell.header.more", &[("name", &name)])
            data-testid=testid
        ></button>
    }
}

#[component]
fn FullHeader(content: HeaderContent, transparent: bool, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let member = ctx.is_member();
    let tab = current_tab(&content.home_tabs, &path);
    let current = tab.map(|t| t.id);
    // Transparent over a home whose hero band is dark enough (`homes.header_hero`); the
    // script keeps it so only while the page is at its top (solid without scripts).
    let hero = tab
        .filter(|t| transparent && t.transparent && !t.hero_color.is_empty())
        .map(|t| t.hero_color.clone());
    let transparent = hero.is_some();
    let marks = crate::ui::personal::Marks::current();
    let member_key = match &marks {
        Some(marks) => marks.member(),
        None => ctx.member_id.map(|m| m.to_string()).unwrap_or_default(),
    };
    let tabs = content
        .home_tabs
        .iter()
        .map(|t| {
            let modules = (!t.modules.is_empty()).then(|| {
                let id = format!("home-modules-{}", t.id);
                view! {
                    <FlyoutToggle controls=id.clone() name=t.label.clone() testid="home-modules-toggle" />
                    <ul class="header__flyout header__modules" id=id data-testid="home-modules" hidden>
                        {t.modules.iter().map(|m| view! {
                            <li><a href=m.href.clone() data-testid="home-module">{m.label.clone()}</a></li>
                        }).collect_view()}
                    </ul>
                }
            });
            view! {
                <li class="header__tab-item">
                    <a class="header__tab" href=t.href.clone() aria-current=(Some(t.id) == current).then_some("page") data-testid="home-tab">
                        {t.label.clone()}
                    </a>
                    {modules}
                </li>
            }
        })
        .collect_view();
    let categories = content
        .categories
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let id = format!("flyout-{i}");
            view! {
                <li class="header__category" data-category=i.to_string()>
                    <a href=c.href.clone() data-testid="header-category">{c.label.clone()}</a>
                    <FlyoutToggle controls=id.clone() name=c.label.clone() testid="category-toggle" />
                    <div class="header__flyout" id=id data-flyout=i.to_string() hidden>
                        <span class="header__skeleton" aria-hidden="true"></span>
                        <span class="header__skeleton" aria-hidden="true"></span>
                    </div>
                </li>
            }
        })
        .collect_view();
    let login = if member {
        view! { <AccountMenu /> }.into_any()
    } else {
        view! {
            <a class="header__login" href="/gr/authentication" data-testid="login-element">
                {ctx.t("header.login")}
            </a>
        }
        .into_any()
    };
    view! {
        <header
            class="header"
            class:header--transparent=transparent
            data-header=""
            data-site=ctx.site_id.to_string()
            data-member=member_key
            data-status-text=ctx.t("shell.header.failed")
        >
            <div class="header__inner">
                <a
                    class="header__burger"
                    href="/menu"
                    role="button"
                    aria-controls="lateral-menu"
                    aria-expanded="false"
                    aria-label=ctx.t("header.menu.open")
                    data-testid="burger"
                >
                    <span></span>
                    <span></span>
                    <span></span>
                </a>
                {logo(&ctx)}
                <form class="header__search" action="/find" method="get" role="search">
                    <label class="visually-hidden" for="header-search">
                        {ctx.t("header.search.label")}
                    </label>
                    <input
                        id="header-search"
                        name="q"
                        type="search"
                        placeholder=ctx.t("header.search.placeholder")
                        autocomplete="off"
                    />
                </form>
                <nav class="header__actions" aria-label=ctx.t("header.actions.label")>
                    <a class="header__search-link" href="/find" aria-label=ctx.t("header.search.label")>
                        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                            <path d="M10 2a8 8 0 0 1 6.3 12.9l5.4 5.4-1.4 1.4-5.4-5.4A8 8 0 1 1 10 2zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12z" fill="currentColor"></path>
                        </svg>
                    </a>
                    {match &marks {
                        // A member template: the member's own bell and count, per request.
                        Some(marks) => {
                            record_holes_keys();
                            view! { {marks.hole(Hole::Bell)} {marks.hole(Hole::CartLink)} }.into_any()
                        }
                        None => view! { <MessageCentre messages=content.messages.clone() /> <CartLink /> }.into_any(),
                    }}
                    {login}
                </nav>
            </div>
            <LateralMenu />
        </header>
        // The home tabs and categories: a row below the fixed bar that scrolls with the
        // page (56 + 57 = 113 px on phones, 69 + 76 = 145 px from tablets on).
        <nav
            class="header__nav"
            class:header__nav--hero=hero.is_some()
            style=hero.as_ref().map(|c| format!("--hero: {c}"))
            aria-label=ctx.t("shell.header.nav")
        >
            <ul class="header__tabs" data-testid="home-tabs">{tabs}</ul>
            <ul class="header__categories" data-testid="header-categories">{categories}</ul>
            <p class="header__status" data-testid="header-status" role="status"></p>
        </nav>
    }
}

/// The message-centre widget: the bell with the unread count (to the message centre) and,
/// on hover or focus, the newest messages.
#[component]
fn MessageCentre(messages: Vec<HeaderMessage>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let unread = ctx.unread_count.max(0);
    let bell_label = if unread > 0 {
        ctx.t_with("help.bell.unread", &[("count", &unread.to_string())])
    } else {
        ctx.t("header.messages")
    };
    let list = ctx.is_member().then(|| {
        let items = messages
            .into_iter()
            .map(|m| {
                view! {
                    <li class:bell__unread=!m.read>
                        <a href=m.href data-testid="bell-message">{m.label}</a>
                    </li>
                }
            })
            .collect_view();
        let empty = content_is_empty(unread, &ctx);
        view! {
            <div class="bell__panel" data-testid="bell-panel">
                <ul>{items}</ul>
                {empty}
                <a class="bell__all" href="/gr/my-notifications/">{ctx.t("shell.bell.all")}</a>
            </div>
        }
    });
    view! {
        <div class="bell">
            <a class="header__messages" href="/gr/my-notifications/" aria-label=bell_label data-testid="header-bell" data-unread=unread.to_string() data-enhance-sync="bell">
                <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                    <path d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6V11a6 6 0 0 0-5-5.9V4a1 1 0 0 0-2 0v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z" fill="currentColor"></path>
                </svg>
                {(unread > 0).then(|| view! {
                    <span class="header__cart-count header__messages-count" aria-hidden="true" data-testid="bell-count">{unread}</span>
                })}
            </a>
            {list}
        </div>
    }
}

fn content_is_empty(unread: i64, ctx: &RequestCtx) -> Option<impl IntoView> {
    (unread == 0).then(|| view! { <p class="bell__empty">{ctx.t("shell.bell.none_unread")}</p> })
}

/// The cart link: an island, so the count follows the adds made on the page.
#[island]
pub(crate) fn CartLink() -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    CartCount::sync_with_page();
    let cart_count = CartCount::current();
    view! {
        <a class="header__cart" href="/cart" data-testid="cart-link">
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                <path d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM5.2 4l.9 2H20l-3.6 7H8.1l-.9 2H19v2H4l2.3-4.4L3.6 4H1V2h3.5z" fill="currentColor"></path>
            </svg>
            <span class="visually-hidden">{ctx.t("header.cart")}</span>
            {move || {
                let n = cart_count.as_ref().map(CartCount::get).unwrap_or(0);
                (n > 0).then(|| view! {
                    <span class="header__cart-count" data-testid="cart-count">{n}</span>
                })
            }}
        </a>
    }
}

/// A member template's page table is written with the template, but its holes are rendered
/// per request: the keys their islands read (the cart link's) are recorded here, from the
/// holes rendered for the stand-in (under the page's owner, so into its table) and thrown
/// away. An island's keys do not depend on whose count or messages it shows
/// (`tests/api/page_table.rs` checks filled pages against their islands).
fn record_holes_keys() {
    #[cfg(feature = "ssr")]
    for hole in [Hole::Bell, Hole::CartLink] {
        use leptos::tachys::view::RenderHtml;
        // A child of the page's owner: its contexts (the key collector, the stand-in's
        // request) and its arena; a root of its own would replace the render's.
        Owner::new().with(|| {
            let _ = hole_view(hole, Vec::new()).to_html();
        });
    }
}

/// The view of a member template's hole.
#[cfg(feature = "ssr")]
fn hole_view(hole: Hole, messages: Vec<HeaderMessage>) -> AnyView {
    match hole {
        Hole::Bell => view! { <MessageCentre messages /> }.into_any(),
        Hole::CartLink => view! { <CartLink /> }.into_any(),
        // Pages' holes, not the header's: `address::ui::checkout::render_hole`,
        // `orders::ui::list::render_hole`.
        Hole::Delivery | Hole::Orders => ().into_any(),
    }
}

/// A region of a member template, rendered for the member of this request: the bell with
/// `messages` (the member's newest, `service::bell_messages`) or the cart link.
#[cfg(feature = "ssr")]
pub fn render_hole(hole: Hole, ctx: RequestCtx, messages: Vec<HeaderMessage>) -> String {
    crate::ui::personal::render_fragment(ctx, move || hole_view(hole, messages))
}

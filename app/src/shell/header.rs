use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::ui::cart_count::CartCount;

fn logo(ctx: &RequestCtx) -> impl IntoView {
    let site = ctx.site();
    let brand = site.brand.name();
    view! {
        <a class="header__logo" href="/" aria-label=ctx.t_with("header.logo.label", &[("brand", brand)])>
            <img src=site.logo_url() alt=brand width="120" height="32" />
        </a>
    }
}

/// The fixed header: logo, search field, cart, login element, message centre, lateral menu.
/// Sign-in pages get the simplified header (logo only), which needs no script.
#[component]
pub fn Header(simplified: bool, transparent: bool) -> impl IntoView {
    if simplified {
        let ctx = RequestCtx::current();
        return view! { <header class="header header--simplified">{logo(&ctx)}</header> }
            .into_any();
    }
    view! { <HeaderBar transparent /> }.into_any()
}

/// The full header, an island: the burger opens the lateral menu and the cart count
/// follows adds made on the page.
#[island]
fn HeaderBar(transparent: bool) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    let logo = logo(&ctx);
    CartCount::sync_with_page();
    let cart_count = CartCount::current();
    let (menu_open, set_menu_open) = signal(false);
    let member = ctx.is_member();
    // The message centre's unread count, counted by the server for this page (help area).
    let unread = ctx.unread_count.max(0);
    let bell_label = if unread > 0 {
        ctx.t_with("help.bell.unread", &[("count", &unread.to_string())])
    } else {
        ctx.t("header.messages")
    };
    let login = if member {
        let name = ctx.member_first_name.clone().unwrap_or_default();
        view! {
            <a class="header__login" href="/gr/myaccount" data-testid="login-element">
                {ctx.t_with("header.account.hello", &[("name", &name)])}
            </a>
        }
        .into_any()
    } else {
        view! {
            <a class="header__login" href="/gr/authentication" data-testid="login-element">
                {ctx.t("header.login")}
            </a>
        }
        .into_any()
    };
    let menu_items: Vec<(&str, &str, bool)> = vec![
        ("/", "menu.home", false),
        ("/gr/myaccount", "menu.account", true),
        ("/gr/my-orders", "menu.orders", true),
        ("/postsales/favourites", "menu.favourites", true),
        ("/vouchers-promotions", "menu.vouchers", true),
        ("/home/travel", "menu.travel", true),
        ("/rosedeals", "menu.rosedeals", true),
        ("/gr/sponsorship", "menu.sponsorship", true),
        ("/helpform", "menu.help", true),
        ("/gr/aboutus", "menu.aboutus", false),
    ];
    let ctx_menu = ctx.clone();
    view! {
        <header class="header" class:header--transparent=transparent>
            <div class="header__inner">
                <button
                    class="header__burger"
                    type="button"
                    aria-controls="lateral-menu"
                    aria-expanded=move || menu_open.get().to_string()
                    aria-label=ctx.t("header.menu.open")
                    data-testid="burger"
                    on:click=move |_| set_menu_open.update(|open| *open = !*open)
                >
                    <span></span>
                    <span></span>
                    <span></span>
                </button>
                {logo}
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
                    <a class="header__messages" href="/gr/my-notifications/" aria-label=bell_label data-testid="header-bell" data-unread=unread.to_string()>
                        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                            <path d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6V11a6 6 0 0 0-5-5.9V4a1 1 0 0 0-2 0v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z" fill="currentColor"></path>
                        </svg>
                        {(unread > 0).then(|| view! {
                            <span class="header__cart-count header__messages-count" aria-hidden="true" data-testid="bell-count">{unread}</span>
                        })}
                    </a>
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
                    {login}
                </nav>
            </div>
            <nav
                id="lateral-menu"
                class="lateral-menu"
                class:lateral-menu--open=move || menu_open.get()
                aria-label=ctx.t("menu.label")
                data-testid="lateral-menu"
            >
                <ul>
                    {menu_items
                        .into_iter()
                        .filter(|(_, _, logged_in)| member || !logged_in)
                        .map(|(href, key, _)| {
                            view! {
                                <li>
                                    <a href=href on:click=move |_| set_menu_open.set(false)>
                                        {ctx_menu.t(key)}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                    {member.then(|| view! {
                        // A full page load: the server ends the session. The token lets
                        // browsers without Fetch Metadata sign out too (review L1).
                        <li><a href=crate::auth::rules::logout_href(&ctx_menu.xsrf) rel="external" data-testid="logout">{ctx_menu.t("menu.logout")}</a></li>
                    })}
                </ul>
            </nav>
        </header>
    }
}

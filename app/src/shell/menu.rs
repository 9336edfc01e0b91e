//! The lateral menu (burger), the account menu (login element of a member) and the mobile
//! full-screen menu page `/menu` (spec 000 §2, 001 §2). Items and sections come from
//! `rules.rs`; what the visitor may see is filtered there (loggedIn items only for members).
use leptos::prelude::*;

use super::header::load_content;
use super::rules::{self, LinkKind, MenuItem, MenuSwitches};
use crate::context::RequestCtx;

fn href_of(ctx: &RequestCtx, item: &MenuItem) -> String {
    if item.id == "disconnect" {
        // A full page load: the server ends the session. The token lets browsers without
        // Fetch Metadata sign out too (review L1).
        crate::auth::rules::logout_href(&ctx.xsrf)
    } else {
        item.href.clone()
    }
}

/// One link of a menu, opened as its link kind says.
fn link(ctx: &RequestCtx, item: &MenuItem, testid: &'static str) -> impl IntoView {
    let blank = item.kind == LinkKind::Blank;
    let external = item.id == "disconnect";
    view! {
        <a
            href=href_of(ctx, item)
            target=blank.then_some("_blank")
            rel=if blank { Some("noopener") } else if external { Some("external") } else { None }
            data-testid=if external { "logout" } else { testid }
            data-item=item.id.clone()
            data-kind=format!("{:?}", item.kind)
            data-clears-session=item.clears_session.then_some("true")
        >
            {ctx.t(&item.label_key)}
        </a>
    }
}

fn items_for(ctx: &RequestCtx) -> Vec<MenuItem> {
    use crate::model::experiments::Feature;
    let switches = MenuSwitches {
        rosedeals_entry: ctx.experiments.on(Feature::RosedealsMenu),
        favourites_entry: ctx.experiments.on(Feature::FavouritesPage),
        ..MenuSwitches::default()
    };
    rules::visible(rules::lateral_menu_items(switches), ctx.is_member())
}

/// The burger's menu: a drawer of 293 px on phones, a dropdown from the desktop width on.
/// The information item opens the legal side panel.
#[component]
pub fn LateralMenu() -> impl IntoView {
    let ctx = RequestCtx::current();
    let items = items_for(&ctx);
    let legal = items
        .iter()
        .find(|i| !i.children.is_empty())
        .map(|i| i.children.clone())
        .unwrap_or_default();
    let entries = items
        .iter()
        .map(|i| {
            if i.children.is_empty() {
                view! { <li>{link(&ctx, i, "menu-item")}</li> }.into_any()
            } else {
                view! {
                    <li>
                        <button type="button" class="lateral-menu__more" aria-controls="menu-legal" aria-expanded="false" data-testid="menu-information">
                            {ctx.t(&i.label_key)}
                        </button>
                    </li>
                }
                .into_any()
            }
        })
        .collect_view();
    let sign_in = (!ctx.is_member()).then(|| {
        view! { <li><a href="/gr/authentication" data-testid="menu-login">{ctx.t("header.login")}</a></li> }
    });
    view! {
        <nav id="lateral-menu" class="lateral-menu" aria-label=ctx.t("menu.label") data-testid="lateral-menu">
            <ul>{sign_in}{entries}</ul>
            <div id="menu-legal" class="side-panel" data-testid="legal-panel" hidden>
                <button type="button" class="side-panel__back" data-close-panel="">{ctx.t("shell.menu.back")}</button>
                <p class="side-panel__title">{ctx.t("shell.menu.information")}</p>
                <ul>
                    {legal.iter().map(|i| view! { <li>{link(&ctx, i, "legal-item")}</li> }).collect_view()}
                </ul>
            </div>
        </nav>
    }
}

/// The login element of a member: a disclosure with the account menu's sections.
#[component]
pub fn AccountMenu() -> impl IntoView {
    let ctx = RequestCtx::current();
    let name = ctx.member_first_name.clone().unwrap_or_default();
    let sections = rules::visible(rules::account_sections(), true);
    view! {
        <details class="account-menu" data-testid="account-menu">
            <summary class="header__login" data-testid="login-element">
                {ctx.t_with("header.account.hello", &[("name", &name)])}
            </summary>
            <ul class="account-menu__list" aria-label=ctx.t("shell.account.label")>
                {sections.iter().map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
            </ul>
        </details>
    }
}

/// `/menu`: the mobile full-screen menu as a plain page (back link, title, entries): the
/// burger's target without scripts. With scripts it slides in from the left in 150 ms.
#[component]
pub fn MobileMenuPage() -> impl IntoView {
    let ctx = RequestCtx::current();
    let items = items_for(&ctx);
    let member = ctx.is_member();
    let title = ctx.t("page.menu");
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    view! {
        <crate::ui::SeoMeta title description path="/menu".to_string() indexable=false />
        <section class="mobile-menu" data-testid="mobile-menu">
            <a class="mobile-menu__back" href="/" data-testid="mobile-menu-back">{ctx.t("shell.menu.back")}</a>
            <h1 class="mobile-menu__title">{ctx.t("page.menu")}</h1>
            <Suspense fallback=|| view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    let content = load_content().await;
                    let ctx = RequestCtx::current();
                    view! {
                        <h2 class="mobile-menu__heading">{ctx.t("shell.menu.homes")}</h2>
                        <ul class="mobile-menu__list">
                            {content.home_tabs.iter().map(|t| view! { <li><a href=t.href.clone()>{t.label.clone()}</a></li> }).collect_view()}
                        </ul>
                        <h2 class="mobile-menu__heading">{ctx.t("shell.menu.categories")}</h2>
                        <ul class="mobile-menu__list" data-testid="mobile-menu-categories">
                            {content.categories.iter().map(|c| view! {
                                <li>
                                    <a href=c.href.clone()>{c.label.clone()}</a>
                                    <ul>{c.items.iter().map(|i| view! { <li><a href=i.href.clone()>{i.label.clone()}</a></li> }).collect_view()}</ul>
                                </li>
                            }).collect_view()}
                        </ul>
                    }
                })}
            </Suspense>
            <h2 class="mobile-menu__heading">{ctx.t("menu.label")}</h2>
            <ul class="mobile-menu__list" data-testid="mobile-menu-items">
                {(!member).then(|| view! { <li><a href="/gr/authentication" data-testid="menu-login">{ctx.t("header.login")}</a></li> })}
                {items.iter().map(|i| {
                    if i.children.is_empty() {
                        view! { <li>{link(&ctx, i, "menu-item")}</li> }.into_any()
                    } else {
                        view! {
                            <li>
                                <span class="mobile-menu__group">{ctx.t(&i.label_key)}</span>
                                <ul>{i.children.iter().map(|c| view! { <li>{link(&ctx, c, "legal-item")}</li> }).collect_view()}</ul>
                            </li>
                        }.into_any()
                    }
                }).collect_view()}
            </ul>
            {member.then(|| view! {
                <h2 class="mobile-menu__heading">{ctx.t("shell.account.label")}</h2>
                <ul class="mobile-menu__list" data-testid="mobile-menu-account">
                    {rules::account_sections().iter().filter(|s| s.id != "menu").map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
                </ul>
            })}
        </section>
    }
}

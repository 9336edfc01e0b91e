//! The lateral menu (burger), the account menu (login element of a member) and the mobile
//! full-screen menu page `/menu` (spec 000 §2, 001 §2). Items and sections come from
//! `rules.rs`; what the visitor may see is filtered there (loggedIn items only for members).
use leptos::prelude::*;

use super::content::{load_content, page_preview_date};
use super::rules::{self, LinkKind, MenuItem, MenuSwitches};
use crate::context::RequestCtx;
use crate::model::experiments::Feature;

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

/// The switches of this request: the same function as the menu config call's.
fn switches_for(ctx: &RequestCtx) -> MenuSwitches {
    rules::menu_switches(ctx.site_id, &ctx.experiments)
}

fn items_for(ctx: &RequestCtx) -> Vec<MenuItem> {
    rules::visible(
        rules::lateral_menu_items(switches_for(ctx)),
        ctx.is_member(),
    )
}

fn sections_for(ctx: &RequestCtx) -> Vec<MenuItem> {
    rules::visible(rules::account_sections(switches_for(ctx)), ctx.is_member())
}

/// The burger's menu: a drawer of 293 px on phones, a dropdown from the desktop width on.
/// The information item opens the legal side panel.
#[component]
pub fn LateralMenu() -> AnyView {
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
                        <button type="button" class="lateral-menu__more" aria-controls="menu-legal" aria-expanded="false" data-testid="menu-information" data-item=i.id.clone()>
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
    if ctx.experiments.on(Feature::BurgerMenuRevamp) {
        return view! { <RevampedLateralMenu items sign_in=sign_in.is_some() /> }.into_any();
    }
    view! {
        <nav id="lateral-menu" class="lateral-menu" aria-label=ctx.t("menu.label") data-testid="lateral-menu" data-menu="classic">
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
    .into_any()
}

/// `member_burger_menu_revamp`: the information links open in place (a disclosure the
/// browser opens, no side panel to go back from), and a member finds the account's entries
/// in the burger too, as on the menu page, so a phone reaches them in one tap.
#[component]
fn RevampedLateralMenu(items: Vec<MenuItem>, sign_in: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let entries = items
        .iter()
        .map(|i| {
            if i.children.is_empty() {
                view! { <li>{link(&ctx, i, "menu-item")}</li> }.into_any()
            } else {
                view! {
                    <li>
                        <details class="lateral-menu__group" data-testid="menu-information" data-item=i.id.clone()>
                            <summary>{ctx.t(&i.label_key)}</summary>
                            <ul>{i.children.iter().map(|c| view! { <li>{link(&ctx, c, "legal-item")}</li> }).collect_view()}</ul>
                        </details>
                    </li>
                }
                .into_any()
            }
        })
        .collect_view();
    let account = ctx.is_member().then(|| {
        let sections = sections_for(&ctx);
        view! {
            <div class="lateral-menu__account">
                <p class="lateral-menu__heading" id="lateral-account">{ctx.t("shell.account.label")}</p>
                <ul aria-labelledby="lateral-account" data-testid="lateral-account">
                    {sections.iter().filter(|s| s.id != "menu").map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
                </ul>
            </div>
        }
    });
    view! {
        <nav id="lateral-menu" class="lateral-menu" aria-label=ctx.t("menu.label") data-testid="lateral-menu" data-menu="revamped">
            <ul>
                {sign_in.then(|| view! { <li><a href="/gr/authentication" data-testid="menu-login">{ctx.t("header.login")}</a></li> })}
                {entries}
            </ul>
            {account}
        </nav>
    }
}

/// The login element of a member: a disclosure with the account menu's sections.
#[component]
pub fn AccountMenu() -> impl IntoView {
    let ctx = RequestCtx::current();
    let name = ctx.member_first_name.clone().unwrap_or_default();
    let sections = sections_for(&ctx);
    let list = if ctx.experiments.on(Feature::MenuRevamp) {
        // `member_menu_revamp`: the same sections under three headings.
        view! {
            <div class="account-menu__groups" data-menu="revamped">
                {rules::account_groups(sections).into_iter().map(|(key, group)| {
                    let id = format!("account-{}", key.rsplit('.').next().unwrap_or(key));
                    view! {
                        <p class="account-menu__heading" id=id.clone()>{ctx.t(key)}</p>
                        <ul class="account-menu__list" aria-labelledby=id data-testid="account-group">
                            {group.iter().map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
                        </ul>
                    }
                }).collect_view()}
            </div>
        }
        .into_any()
    } else {
        view! {
            <ul class="account-menu__list" aria-label=ctx.t("shell.account.label") data-menu="classic">
                {sections.iter().map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <details class="account-menu" data-testid="account-menu">
            <summary class="header__login" data-testid="login-element">
                {ctx.t_with("header.account.hello", &[("name", &name)])}
            </summary>
            {list}
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
                {move || {
                    let preview = page_preview_date();
                    Suspend::new(async move {
                    let content = load_content(preview).await;
                    let ctx = RequestCtx::current();
                    view! {
                        <h2 class="mobile-menu__heading">{ctx.t("shell.menu.homes")}</h2>
                        <ul class="mobile-menu__list" data-testid="mobile-menu-homes">
                            {content.home_tabs.iter().map(|t| view! {
                                <li>
                                    <a href=t.href.clone()>{t.label.clone()}</a>
                                    {(!t.modules.is_empty()).then(|| view! {
                                        <ul>{t.modules.iter().map(|m| view! { <li><a href=m.href.clone() data-testid="home-module">{m.label.clone()}</a></li> }).collect_view()}</ul>
                                    })}
                                </li>
                            }).collect_view()}
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
                })}}
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
            <h2 class="mobile-menu__heading" id="apps">{ctx.t("shell.menu.apps")}</h2>
            <p class="mobile-menu__note">{ctx.t_with("shell.menu.apps_text", &[("brand", brand)])}</p>
            <ul class="mobile-menu__list mobile-menu__apps" data-testid="mobile-menu-apps">
                {rules::app_store_links(ctx.site().brand).into_iter().map(|(store, href)| view! {
                    <li><a href=href rel="noopener" data-testid="app-store-link">{store}</a></li>
                }).collect_view()}
            </ul>
            {member.then(|| view! {
                <h2 class="mobile-menu__heading">{ctx.t("shell.account.label")}</h2>
                <ul class="mobile-menu__list" data-testid="mobile-menu-account">
                    {sections_for(&ctx).iter().filter(|s| s.id != "menu").map(|s| view! { <li>{link(&ctx, s, "account-section")}</li> }).collect_view()}
                </ul>
            })}
        </section>
    }
}

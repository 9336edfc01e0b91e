//! `/myaccount` (and `/gr/myaccount`): the tabs of spec 001 §2. "Manage" shows who is
//! signed in and the account menu's sections built so far; "deactivate" asks a reason;
//! "delete forever" says what goes and what stays, STEP1 then STEP2. Each confirmation is
//! a server-rendered step without scripts (`?step=confirm`) and a modal <dialog> with them.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::frame::{messages, FormBase, ProfileFrame, Tab, FORM_ACTION};
use crate::account::api::fetch_account;
use crate::account::model::AccountView;
use crate::account::rules::DEACTIVATION_REASONS;
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;

/// The account menu's sections (spec 001 §2 "Account menu sections") whose pages exist.
const MENU: [(&str, &str, &str); 7] = [
    (
        "personal-data",
        "/myaccount/memberdata",
        "account.menu.personal_data",
    ),
    (
        "address-book",
        "/postsales/myaccount/addresses/",
        "account.menu.address_book",
    ),
    (
        "wallet",
        "/postsales/myaccount/wallet/",
        "account.menu.wallet",
    ),
    ("my-orders", "/my-orders", "account.menu.my_orders"),
    (
        "favourites",
        "/postsales/favourites",
        "account.menu.favourites",
    ),
    (
        "vouchers-promos",
        "/vouchers-promotions",
        "account.menu.vouchers",
    ),
    (
        "notifications-alerts",
        "/memberaccount/communications",
        "account.menu.notifications",
    ),
];

const MESSAGES: [&str; 3] = [
    "account.deactivate.error.reason",
    "common.loading",
    "account.delete.done",
];

#[component]
pub fn MyAccountPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let tab = match query.get("tab").as_deref() {
        Some("deactivate") => Tab::Deactivate,
        Some("delete") => Tab::Delete,
        _ => Tab::Manage,
    };
    let confirm = query.get("step").as_deref() == Some("confirm");
    let reason = query.get("reason").unwrap_or_default();
    let load = Resource::new(|| (), |_| fetch_account());
    view! {
        <ProfileFrame page="home" title=ctx.t("page.myaccount") path tab messages_json=messages(&MESSAGES)>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let reason = reason.clone();
                    move || {
                        let reason = reason.clone();
                        Suspend::new(async move {
                            match load.await {
                                Ok(v) => match tab {
                                    Tab::Manage => view! { <Manage view=v /> }.into_any(),
                                    Tab::Deactivate => view! { <Deactivate view=v confirm reason /> }.into_any(),
                                    Tab::Delete => view! { <Delete confirm /> }.into_any(),
                                },
                                Err(_) => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </ProfileFrame>
    }
}

#[component]
fn Manage(view: AccountView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let p = view.profile;
    let name = format!("{} {}", p.first_name, p.last_name);
    view! {
        <section class="account-section" aria-labelledby="manage-title">
            <h2 id="manage-title">{ctx.t_with("account.manage.hello", &[("name", name.trim())])}</h2>
            <p class="account-hint" data-testid="account-email">{ctx.t_with("account.manage.email", &[("email", &p.email)])}</p>
            <ul class="profile-menu" data-testid="account-menu">
                {MENU.into_iter().map(|(section, href, key)| {
                    let ctx = RequestCtx::current();
                    view! { <li><a href=href data-section=section>{ctx.t(key)}</a></li> }
                }).collect_view()}
                <li><a href=crate::auth::rules::logout_href(&ctx.xsrf) rel="external" data-section="disconnect">{ctx.t("menu.logout")}</a></li>
            </ul>
        </section>
    }
}

/// The confirmation dialog the script opens (none without scripts: the step replaces it).
#[component]
fn ConfirmDialog(id: &'static str, title: String, body: String, confirm: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title_id = format!("{id}-title");
    view! {
        <dialog id=id class="account-dialog" aria-labelledby=title_id.clone() data-testid=id>
            <h2 id=title_id.clone()>{title}</h2>
            <p>{body}</p>
            <p class="profile-actions">
                <button type="button" class="button button--primary" data-dialog-confirm="" data-testid=format!("{id}-confirm")>{confirm}</button>
                <button type="button" class="button button--tertiary" data-dialog-cancel="">{ctx.t("account.cancel")}</button>
            </p>
        </dialog>
    }
}

#[component]
fn Deactivate(view: AccountView, confirm: bool, reason: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let chosen = DEACTIVATION_REASONS.contains(&reason.as_str());
    let step = if confirm && chosen {
        let label = view
            .reasons
            .iter()
            .find(|r| r.value == reason)
            .map(|r| r.label.clone())
            .unwrap_or_default();
        view! {
            <form method="post" action=FORM_ACTION class="account-form" data-testid="deactivate-confirm-form">
                <FormBase action="deactivate" />
                <input type="hidden" name="reason" value=reason.clone() />
                <p><strong>{ctx.t("account.deactivate.confirm.title")}</strong></p>
                <p>{ctx.t_with("account.deactivate.confirm.reason", &[("reason", &label)])}</p>
                <p class="profile-actions">
                    <button type="submit" class="button button--primary" data-testid="deactivate-confirm">{ctx.t("account.deactivate.submit")}</button>
                    <a href="/myaccount?tab=deactivate">{ctx.t("account.cancel")}</a>
                </p>
            </form>
        }
        .into_any()
    } else {
        let missing = confirm && !chosen;
        view! {
            <form method="get" action="/myaccount" class="account-form" novalidate data-confirm="deactivate-dialog" data-testid="deactivate-form">
                <input type="hidden" name="tab" value="deactivate" />
                <input type="hidden" name="step" value="confirm" />
                <fieldset aria-describedby="reason-error">
                    <legend>{ctx.t("account.deactivate.reason.label")}</legend>
                    {view.reasons.iter().map(|r| {
                        let id = format!("reason-{}", r.value.to_ascii_lowercase());
                        view! {
                            <p class="field field--check">
                                <input type="radio" id=id.clone() name="reason" value=r.value.clone() data-testid=id.clone() />
                                <label for=id>{r.label.clone()}</label>
                            </p>
                        }
                    }).collect_view()}
                    <span class="field__error" id="reason-error" data-error-for="reason" hidden=!missing>
                        {missing.then(|| ctx.t("account.deactivate.error.reason"))}
                    </span>
                </fieldset>
                <button type="submit" class="button button--primary" data-testid="deactivate-submit">{ctx.t("account.deactivate.submit")}</button>
            </form>
            <ConfirmDialog id="deactivate-dialog" title=ctx.t("account.deactivate.confirm.title")
                body=ctx.t("account.deactivate.confirm.body") confirm=ctx.t("account.deactivate.submit") />
        }
        .into_any()
    };
    view! {
        <section class="account-section" aria-labelledby="deactivate-title">
            <h2 id="deactivate-title">{ctx.t("account.tabs.deactivate")}</h2>
            <p class="account-hint">{ctx.t("account.deactivate.intro")}</p>
            {step}
        </section>
    }
}

#[component]
fn Delete(confirm: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let step = if confirm {
        view! {
            <form method="post" action=FORM_ACTION class="account-form" data-testid="delete-confirm-form">
                <FormBase action="delete" />
                <p><strong>{ctx.t("account.delete.confirm.title")}</strong></p>
                <p>{ctx.t("account.delete.confirm.body")}</p>
                <p class="profile-actions">
                    <button type="submit" class="button button--primary" data-testid="delete-confirm">{ctx.t("account.delete.submit")}</button>
                    <a href="/myaccount?tab=delete">{ctx.t("account.cancel")}</a>
                </p>
            </form>
        }
        .into_any()
    } else {
        view! {
            <form method="get" action="/myaccount" class="account-form" data-confirm="delete-dialog" data-testid="delete-form">
                <input type="hidden" name="tab" value="delete" />
                <input type="hidden" name="step" value="confirm" />
                <button type="submit" class="button button--primary" data-testid="delete-submit">{ctx.t("account.delete.submit")}</button>
            </form>
            <ConfirmDialog id="delete-dialog" title=ctx.t("account.delete.confirm.title")
                body=ctx.t("account.delete.confirm.body") confirm=ctx.t("account.delete.submit") />
        }
        .into_any()
    };
    view! {
        <section class="account-section" aria-labelledby="delete-title" data-step="STEP1" data-testid="delete-step1">
            <h2 id="delete-title">{ctx.t("account.tabs.delete")}</h2>
            <p>{ctx.t("account.delete.intro")}</p>
            <ul class="profile-list">
                <li>{ctx.t("account.delete.erased")}</li>
                <li>{ctx.t("account.delete.kept")}</li>
                <li>{ctx.t("account.delete.email_free")}</li>
            </ul>
            {step}
        </section>
        <section class="account-section" aria-labelledby="deleted-title" data-step="STEP2" data-testid="delete-step2" hidden>
            <h2 id="deleted-title">{ctx.t("account.delete.done")}</h2>
            <p>{ctx.t("account.delete.done.body")}</p>
            <a class="button button--primary" href="/" rel="external">{ctx.t("account.delete.home")}</a>
        </section>
    }
}

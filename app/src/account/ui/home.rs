//! `/myaccount` (and `/gr/myaccount`): the tabs of spec 001 §2. "Manage" shows who is
//! signed in and the account menu's sections built so far; "deactivate" asks a reason;
//! "delete forever" says what goes and what stays. Each confirmation is a server-rendered
//! step (`?step=confirm`): a dialog holding the form that acts, in the page without
//! scripts, modal with the enhancement script.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::frame::{form_action, known_notice, FormBase, ProfileFrame, Tab};
use crate::account::api::fetch_account;
use crate::account::model::AccountView;
use crate::account::rules::DEACTIVATION_REASONS;
use crate::auth::api::fetch_reauth;
use crate::auth::ui::reauth::{ReauthPassword, ReauthProvider};
use crate::context::RequestCtx;
use crate::model::reauth::ReauthView;
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
    let reauth = Resource::new(|| (), |_| fetch_reauth());
    // A refused proof reopens the dialog with its message beside the password field.
    let reauth_error = query
        .get("error")
        .filter(|k| k.starts_with("reauth."))
        .and_then(|k| known_notice(&k));
    view! {
        <ProfileFrame page="home" title=ctx.t("page.myaccount") path tab>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let reason = reason.clone();
                    move || {
                        let reason = reason.clone();
                        Suspend::new(async move {
                            match (load.await, reauth.await) {
                                (Ok(v), Ok(r)) => match tab {
                                    Tab::Manage => view! { <Manage view=v /> }.into_any(),
                                    Tab::Deactivate => view! { <Deactivate view=v confirm reason reauth=r error=reauth_error /> }.into_any(),
                                    Tab::Delete => view! { <Delete confirm reauth=r error=reauth_error /> }.into_any(),
                                },
                                _ => view! { <ErrorNotice /> }.into_any(),
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

/// The confirmation step: the form that acts, in a dialog; "cancel" closes it (and goes
/// back to the tab without scripts).
#[component]
fn ConfirmDialog(
    /// The form's `action` and the dialog's testid prefix: `deactivate` or `delete`.
    action: &'static str,
    title: String,
    body: String,
    confirm: String,
    /// A second paragraph (the reason chosen).
    #[prop(optional)]
    detail: Option<String>,
    #[prop(optional)] reason: Option<String>,
    reauth: ReauthView,
    /// The key of a refused proof.
    error: Option<&'static str>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let id = format!("{action}-dialog");
    let title_id = format!("{id}-title");
    let back = format!("/myaccount?tab={action}");
    // "Sign in again" comes back to this dialog (with the reason chosen).
    let here = match &reason {
        Some(r) => format!(
            "{back}&step=confirm&reason={}",
            crate::routes::encode_query_value(r)
        ),
        None => format!("{back}&step=confirm"),
    };
    let field_id = if action == "delete" {
        "delete-reauth"
    } else {
        "deactivate-reauth"
    };
    view! {
        <dialog id=id.clone() class="account-dialog" aria-labelledby=title_id.clone() data-testid=id open data-enhance-modal="">
            <h2 id=title_id.clone()>{title}</h2>
            <p>{body}</p>
            {detail.map(|d| view! { <p>{d}</p> })}
            <ReauthProvider reauth=reauth.clone() return_to=here />
            <form method="post" action=form_action(action) novalidate data-enhance="" data-testid=format!("{action}-confirm-form")>
                <FormBase />
                {reason.map(|r| view! { <input type="hidden" name="reason" value=r /> })}
                <ReauthPassword reauth id=field_id error=error.map(|k| ctx.t(k)) />
                <p class="profile-actions">
                    <button type="submit" class="button button--primary" data-testid=format!("{action}-confirm")>{confirm}</button>
                    <a class="button button--tertiary" href=back data-testid=format!("{action}-cancel")>{ctx.t("account.cancel")}</a>
                </p>
            </form>
        </dialog>
    }
}

#[component]
fn Deactivate(
    view: AccountView,
    confirm: bool,
    reason: String,
    reauth: ReauthView,
    error: Option<&'static str>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let chosen = DEACTIVATION_REASONS.contains(&reason.as_str());
    let missing = confirm && !chosen;
    let dialog = (confirm && chosen).then(|| {
        let label = view
            .reasons
            .iter()
            .find(|r| r.value == reason)
            .map(|r| r.label.clone())
            .unwrap_or_default();
        view! {
            <ConfirmDialog action="deactivate" title=ctx.t("account.deactivate.confirm.title")
                body=ctx.t("account.deactivate.confirm.body")
                detail=ctx.t_with("account.deactivate.confirm.reason", &[("reason", &label)])
                confirm=ctx.t("account.deactivate.submit") reason=reason.clone() reauth=reauth.clone() error />
        }
    });
    view! {
        <section class="account-section" aria-labelledby="deactivate-title">
            <h2 id="deactivate-title">{ctx.t("account.tabs.deactivate")}</h2>
            <p class="account-hint">{ctx.t("account.deactivate.intro")}</p>
            <form method="get" action="/myaccount" class="account-form" novalidate data-enhance="" data-testid="deactivate-form">
                <input type="hidden" name="tab" value="deactivate" />
                <input type="hidden" name="step" value="confirm" />
                <fieldset aria-describedby="reason-error">
                    <legend>{ctx.t("account.deactivate.reason.label")}</legend>
                    {view.reasons.iter().map(|r| {
                        let id = format!("reason-{}", r.value.to_ascii_lowercase());
                        let checked = r.value == reason;
                        view! {
                            <p class="field field--check">
                                <input type="radio" id=id.clone() name="reason" value=r.value.clone() checked=checked data-testid=id.clone() />
                                <label for=id>{r.label.clone()}</label>
                            </p>
                        }
                    }).collect_view()}
                    <span class="field__error" id="reason-error" data-error-for="reason" hidden=!missing data-enhance-focus=missing.then_some("")>
                        {missing.then(|| ctx.t("account.deactivate.error.reason"))}
                    </span>
                </fieldset>
                <button type="submit" class="button button--primary" data-testid="deactivate-submit">{ctx.t("account.deactivate.submit")}</button>
            </form>
            {dialog}
        </section>
    }
}

#[component]
fn Delete(confirm: bool, reauth: ReauthView, error: Option<&'static str>) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="account-section" aria-labelledby="delete-title" data-testid="delete-step1">
            <h2 id="delete-title">{ctx.t("account.tabs.delete")}</h2>
            <p>{ctx.t("account.delete.intro")}</p>
            <p>
                <a href="/api/postsales/v1/account/export" download="my-data.json" data-testid="export-data">{ctx.t("account.export.link")}</a>
                {" "}{ctx.t("account.export.hint")}
            </p>
            <ul class="profile-list">
                <li>{ctx.t("account.delete.erased")}</li>
                <li>{ctx.t("account.delete.kept")}</li>
                <li>{ctx.t("account.delete.email_free")}</li>
            </ul>
            <form method="get" action="/myaccount" class="account-form" data-enhance="" data-testid="delete-form">
                <input type="hidden" name="tab" value="delete" />
                <input type="hidden" name="step" value="confirm" />
                <button type="submit" class="button button--primary" data-testid="delete-submit">{ctx.t("account.delete.submit")}</button>
            </form>
            {confirm.then(|| view! {
                <ConfirmDialog action="delete" title=ctx.t("account.delete.confirm.title")
                    body=ctx.t("account.delete.confirm.body") confirm=ctx.t("account.delete.submit")
                    reauth=reauth.clone() error />
            })}
        </section>
    }
}

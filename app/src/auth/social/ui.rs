//! The social sign-in pieces of the sign-in pages: the provider buttons (a server form,
//! shown only for configured providers), the association step (code 12), the third-party
//! registration (code 13, pre-filled from the ID token), and the account's linked
//! providers with their unlink forms. All plain HTML forms: no script needed.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

use super::rules::Provider;
use crate::auth::rules::{registration_fields, Visibility};
use crate::context::RequestCtx;

pub const START: &str = "/gr/authentication/social/start";
pub const ASSOCIATE: &str = "/gr/authentication/social/associate";
pub const REGISTER: &str = "/gr/authentication/social/register";
pub const UNLINK: &str = "/gr/authentication/social/unlink";
/// A signed-in member signing in again with a provider before a sensitive change.
pub const REAUTH: &str = "/gr/authentication/social/reauth";

/// "Continue with Google / Facebook / Apple": one form, one button per configured provider.
#[component]
pub fn SocialButtons(return_url: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    // A share link's sponsor, and where the visitor came from, go with them to the provider
    // and back (code 13).
    let query = leptos_router::hooks::use_query_map().get_untracked();
    let sponsor: Vec<(&'static str, String)> = crate::auth::attribution::CARRIED_KEYS
        .into_iter()
        .filter_map(|k| query.get(k).filter(|v| !v.is_empty()).map(|v| (k, v)))
        .collect();
    let enabled = super::enabled();
    let shown: Vec<Provider> = Provider::BUTTONS
        .into_iter()
        .filter(|p| enabled.contains(p))
        .collect();
    (!shown.is_empty()).then(|| {
        view! {
            <form class="auth__social" method="post" action=START data-testid="social-form">
                <p class="auth__or">{ctx.t("auth.social.or")}</p>
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <input type="hidden" name="returnurl" value=return_url />
                {sponsor.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v /> }).collect_view()}
                {shown.into_iter().map(|p| view! {
                    <button class="button auth__provider" type="submit" name="provider" value=p.slug()
                        data-provider=p.slug() data-testid=format!("social-{}", p.slug())>
                        {ctx.t_with("auth.social.continue", &[("provider", p.label())])}
                    </button>
                }).collect_view()}
            </form>
        }
    })
}

/// What the association and registration steps show of a pending identity.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PendingView {
    pub provider: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// The sponsor's code from the share link the sign-in started on (pre-filled).
    pub sponsor_code: String,
    pub godfather_id: String,
}

/// The identity waiting behind a ticket (nothing is used up by reading it).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/social/pending")]
pub async fn social_pending(ticket: String) -> Result<Option<PendingView>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    // Outside a request nobody holds the ticket.
    let binding = crate::platform::session::Binding::current()
        .unwrap_or(crate::platform::session::Binding(String::new()));
    if binding.0.is_empty() {
        return Ok(None);
    }
    let held = super::service::HeldTicket {
        ticket: &ticket,
        binding: &binding.0,
    };
    let p = super::service::pending(&state, held, ctx.site_id, crate::platform::state::now())
        .await
        .map_err(|e| crate::platform::state::server_fn_error(&e))?;
    Ok(p.map(|p| PendingView {
        provider: p.provider.label().to_string(),
        email: p.email,
        first_name: p.first_name,
        last_name: p.last_name,
        sponsor_code: p.sponsor.code,
        godfather_id: p.sponsor.godfather_id,
    }))
}

/// The association step (code 12) or the third-party registration (code 13).
#[component]
pub fn PendingStep(ticket: String, register: bool) -> impl IntoView {
    let load = Resource::new(
        {
            let ticket = ticket.clone();
            move || ticket.clone()
        },
        social_pending,
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let ticket = ticket.clone();
                move || {
                    let ticket = ticket.clone();
                    Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        match load.await {
                            Ok(Some(p)) if register => view! { <RegisterForm ticket p /> }.into_any(),
                            Ok(Some(p)) => view! { <AssociateForm ticket p /> }.into_any(),
                            _ => view! {
                                <p class="auth__error" role="alert" data-testid="auth-error">{ctx.t("auth.social.expired")}</p>
                                <a class="auth__back" href="/gr/authentication">{ctx.t("auth.back")}</a>
                            }
                            .into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn AssociateForm(ticket: String, p: PendingView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let args = [
        ("provider", p.provider.as_str()),
        ("email", p.email.as_str()),
    ];
    view! {
        <form class="auth__form" method="post" action=ASSOCIATE data-testid="associate-form" aria-labelledby="associate-title">
            <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
            <input type="hidden" name="ticket" value=ticket />
            <h2 id="associate-title">{ctx.t_with("auth.social.associate.title", &args)}</h2>
            <p>{ctx.t_with("auth.social.associate.intro", &args)}</p>
            <label for="password">{ctx.t("auth.password.label")}</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128" />
            <button class="button button--primary" type="submit">{ctx.t("auth.social.associate.submit")}</button>
            <a href=format!("/gr/authentication?step=recover&email={}", crate::routes::encode_query_value(&p.email))>{ctx.t("auth.recover.link")}</a>
        </form>
    }
}

#[component]
fn RegisterForm(ticket: String, p: PendingView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let cfg = registration_fields(ctx.site_id);
    let args = [
        ("provider", p.provider.as_str()),
        ("email", p.email.as_str()),
    ];
    view! {
        <form class="auth__form auth__form--register" method="post" action=REGISTER data-testid="social-register-form">
            <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
            <input type="hidden" name="ticket" value=ticket />
            <p>{ctx.t_with("auth.social.register.intro", &args)}</p>
            {(cfg.civility != Visibility::Hidden).then(|| view! {
                <fieldset class="auth__civility">
                    <legend>{ctx.t("auth.civility")}</legend>
                    <label><input type="radio" name="civility" value="2" required=cfg.civility == Visibility::Mandatory />{ctx.t("auth.civility.2")}</label>
                    <label><input type="radio" name="civility" value="1" />{ctx.t("auth.civility.1")}</label>
                    <label><input type="radio" name="civility" value="0" />{ctx.t("auth.civility.0")}</label>
                </fieldset>
            })}
            <label for="firstName">{ctx.t("auth.firstname")}</label>
            <input id="firstName" name="firstName" autocomplete="given-name" required value=p.first_name />
            <label for="lastName">{ctx.t("auth.lastname")}</label>
            <input id="lastName" name="lastName" autocomplete="family-name" required value=p.last_name />
            {(cfg.sponsorship_code != Visibility::Hidden).then(|| view! {
                <label for="sponsorshipCode">{ctx.t("auth.sponsorship")}</label>
                <input id="sponsorshipCode" name="sponsorshipCode" value=p.sponsor_code.clone() />
            })}
            <input type="hidden" name="godfatherid" value=p.godfather_id.clone() />
            {crate::auth::ui::consent::consent_checks(&ctx)}
            {(cfg.optin_partner != Visibility::Hidden).then(|| view! {
                <label class="auth__check"><input type="checkbox" name="optinPartner" value="1" />{ctx.t("auth.optin_partner")}</label>
            })}
            <button class="button button--primary" type="submit">{ctx.t("auth.register.submit")}</button>
        </form>
    }
}

/// A member's linked providers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LinkView {
    pub provider: String,
    pub label: String,
    pub email: String,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "auth/social/links")]
pub async fn social_links() -> Result<Vec<LinkView>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let member_id = ctx
        .member_id
        .ok_or_else(|| ServerFnError::new("errors.session_expired"))?;
    let links = super::service::links(&state, member_id)
        .await
        .map_err(|e| crate::platform::state::server_fn_error(&e))?;
    Ok(links
        .into_iter()
        .map(|(p, email, _)| LinkView {
            provider: p.slug().into(),
            label: p.label().into(),
            email,
        })
        .collect())
}

/// The account's "connected accounts" section: each link with its unlink form.
#[component]
pub fn LinkedAccounts() -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = leptos_router::hooks::use_query_map().get_untracked();
    let notice = query
        .get("social")
        .filter(|k| k.starts_with("auth.social.unlink."))
        .filter(|k| crate::site::i18n::lookup(crate::site::i18n::FALLBACK_LANG, k).is_some());
    let load = Resource::new(|| (), |_| social_links());
    view! {
        <section class="account-section" aria-labelledby="social-title" data-testid="social-links">
            <h2 id="social-title">{ctx.t("auth.social.links.title")}</h2>
            {notice.map(|k| view! { <p class="auth__info" role="status" data-testid="social-notice">{ctx.t(&k)}</p> })}
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let ctx = RequestCtx::current();
                    match load.await {
                        Ok(links) if !links.is_empty() => view! {
                            <ul class="social-links">
                                {links.into_iter().map(|l| view! {
                                    <li>
                                        <span>{format!("{} · {}", l.label, l.email)}</span>
                                        <form method="post" action=UNLINK>
                                            <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                                            <input type="hidden" name="provider" value=l.provider.clone() />
                                            <button class="button" type="submit" data-testid=format!("unlink-{}", l.provider)>
                                                {ctx.t_with("auth.social.links.unlink", &[("provider", &l.label)])}
                                            </button>
                                        </form>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        _ => view! { <p>{ctx.t("auth.social.links.none")}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

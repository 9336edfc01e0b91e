//! The sign-in forms without scripts: one POST target for every step (Post/Redirect/Get),
//! the logout link and the autologin link.
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::auth::attribution::{Attribution, CARRIED_KEYS};
use app::auth::rules::safe_return_url;
use app::auth::{error::AuthError, service};
use app::context::RequestCtx;
use app::model::auth::*;
use app::routes::encode_query_value;

use super::check_xsrf;
use super::extract::XsrfForm;
use super::outcome::{see_other, FormOutcome};
use crate::middleware::partner::{self, PartnerCookies};
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::session::{clear_session, link_base, site_suffix, with_new_session};
use app::auth::ui::draft::Draft as RegistrationDraft;

/// `/authentication/logout/`: ends the session and goes home. Only the shop's own pages
/// can end it: a browser that sends Fetch Metadata must say `same-origin` (or `none`, the
/// member typing the address); a request without it (an older browser, or a link or image
/// on another site seen by one) must carry the session's CSRF token in `_xsrf`, as the
/// shop's own logout links do (review L1). Anything else goes home signed in.
pub async fn logout_page(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    headers: HeaderMap,
    axum::extract::Query(q): axum::extract::Query<LogoutLink>,
) -> Response {
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_ascii_lowercase());
    let own_page = matches!(fetch_site.as_deref(), Some("same-origin" | "none"));
    let with_token = q
        .xsrf
        .as_deref()
        .is_some_and(|t| check_xsrf(&app, &session, &headers, t).is_ok());
    if !own_page && !with_token {
        return middleware::redirect("/");
    }
    if let Err(e) = service::logout(
        &app.state,
        &client,
        ctx.site_id,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await
    {
        tracing::error!(error = %e, "logout failed");
    }
    clear_session(&app, see_other("/"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LogoutLink {
    #[serde(rename = "_xsrf")]
    xsrf: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AutologinLink {
    cypher: Option<String>,
    returnurl: Option<String>,
    #[serde(rename = "ReturnUrl")]
    return_url: Option<String>,
}

/// Autologin link (spec 000 §7): nothing happens on the link itself (review L1: a link
/// sent by someone else would sign the visitor into the sender's account). A valid link
/// goes to its confirmation page, "Continue as <first name>?", whose form signs in
/// (`auth_form`, step `autologin`, with the CSRF token); an invalid one shows the sign-in
/// page normally (spec 000 §8).
pub async fn autologin_page(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    axum::extract::Query(q): axum::extract::Query<AutologinLink>,
) -> Response {
    let return_url = safe_return_url(q.returnurl.or(q.return_url).as_deref());
    let cypher = q.cypher.unwrap_or_default();
    let ret_q = encode_query_value(&return_url);
    let s = site_suffix(&ctx, ctx.site_id);
    match service::autologin_member(
        &app.state,
        ctx.site_id,
        &cypher,
        app::platform::state::now(),
    )
    .await
    {
        Ok(Some(_)) => middleware::redirect(&format!(
            "/gr/authentication?step=autologin&cypher={}&returnurl={ret_q}{s}",
            encode_query_value(cypher.trim())
        )),
        outcome => {
            if let Err(e) = outcome {
                tracing::error!(error = %e, "autologin check failed");
            } else {
                tracing::warn!("autologin failed: invalid, used or expired cypher");
            }
            middleware::redirect(&format!("/gr/authentication?returnurl={ret_q}"))
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AuthForm {
    step: String,
    email: String,
    password: String,
    #[serde(rename = "rememberMe")]
    remember_me: Option<String>,
    returnurl: String,
    civility: Option<u8>,
    #[serde(rename = "firstName")]
    first_name: String,
    #[serde(rename = "lastName")]
    last_name: String,
    #[serde(rename = "birthDate")]
    birth_date: String,
    #[serde(rename = "zipCode")]
    zip_code: String,
    city: String,
    #[serde(rename = "countryCode")]
    country_code: String,
    /// A job id, or empty.
    occupation: String,
    cgv: Option<String>,
    #[serde(rename = "privacyPolicy")]
    privacy_policy: Option<String>,
    #[serde(rename = "optinPartner")]
    optin_partner: Option<String>,
    #[serde(rename = "sponsorshipCode")]
    sponsorship_code: String,
    /// The share link's sponsor, carried from step to step.
    mgmcode: String,
    godfatherid: String,
    /// A link's wish that the entry page leave out its "about us" section.
    hideaboutus: String,
    /// Where the registration came from (`app::auth::attribution`), carried like the
    /// sponsor's parameters.
    utm_campaign: String,
    utm_content: String,
    utm_medium: String,
    utm_source: String,
    utm_term: String,
    formid: String,
    godfathertype: String,
    opendoor: String,
    partnerid: String,
    cypher: String,
    memberid: Option<i64>,
    #[serde(rename = "newPassword")]
    new_password: String,
}

impl AuthForm {
    /// The link keys carried from step to step, in `CARRIED_KEYS`' order.
    fn carried(&self) -> [(&'static str, &str); 12] {
        let v = [
            &self.mgmcode,
            &self.godfatherid,
            &self.hideaboutus,
            &self.utm_campaign,
            &self.utm_content,
            &self.utm_medium,
            &self.utm_source,
            &self.utm_term,
            &self.formid,
            &self.godfathertype,
            &self.opendoor,
            &self.partnerid,
        ];
        std::array::from_fn(|i| (CARRIED_KEYS[i], v[i].trim()))
    }
}

/// One POST target for every step of the sign-in forms (Post/Redirect/Get): a wizard whose
/// `step` says which page of it was sent.
pub async fn auth_form(
    Client(client): Client,
    partners: PartnerCookies,
    form: XsrfForm<AuthForm>,
) -> Response {
    let (app, ctx, session, f) = (&*form.app, &form.ctx, &form.session, &form.fields);
    let now = app::platform::state::now();
    let site = ctx.site_id;
    let s = site_suffix(ctx, site);
    let email_q = encode_query_value(f.email.trim());
    let ret_q = encode_query_value(&safe_return_url(Some(&f.returnurl)));
    // The share link's sponsor parameters, a link's `hideaboutus` and where the visitor
    // came from stay with them up to the registration.
    let sponsor_q: String = f
        .carried()
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("&{k}={}", encode_query_value(v)))
        .collect();
    let page = |step: &str, extra: &str| {
        format!("/gr/authentication?step={step}&email={email_q}&returnurl={ret_q}{extra}{s}")
    };
    match f.step.as_str() {
        "email" => {
            match service::check_email(&app.state, &app.settings.auth, &client, site, &f.email, now)
                .await
            {
                Ok(r) if r.result == 2 => see_other(&page("password", "")),
                Ok(r) if r.result == 1 => see_other(&format!(
                    "/gr/registration?step=register&email={email_q}&returnurl={ret_q}{sponsor_q}{s}"
                )),
                Ok(r) => see_other(&page(
                    "email",
                    &format!("&error={}", r.msg_key.unwrap_or_default()),
                )),
                Err(e) => see_other(&page("email", &format!("&error={}", e.message_key()))),
            }
        }
        "password" => {
            let req = LoginRequest {
                email: f.email.clone(),
                password: f.password.clone(),
                remember_me: f.remember_me.is_some(),
                return_url: Some(f.returnurl.clone()),
                site_id: site,
            };
            match service::login(&app.state, app.sign_in(), &client, &req, now).await {
                Ok(outcome) => match outcome.token {
                    Some(t) => {
                        partner::credit_sign_in(app, &partners, site, &req.email).await;
                        let target = outcome.response.redirect_url.unwrap_or_else(|| "/".into());
                        with_new_session(
                            app,
                            session.token.as_deref(),
                            &t,
                            req.remember_me,
                            see_other(&target),
                        )
                        .await
                    }
                    None => see_other(&page(
                        "password",
                        &format!("&error={}", outcome.response.msg_key),
                    )),
                },
                Err(e) => see_other(&page("password", &format!("&error={}", e.message_key()))),
            }
        }
        "register" => {
            let req = SubscribeRequest {
                site_id: site,
                email: f.email.clone(),
                password: f.password.clone(),
                civility: f.civility,
                first_name: f.first_name.clone(),
                last_name: f.last_name.clone(),
                birth_date: f.birth_date.clone(),
                zip_code: f.zip_code.clone(),
                city: f.city.clone(),
                other_city: String::new(),
                country_code: f.country_code.clone(),
                // Not a number names no job (0): refused by its field like an unknown one.
                occupation: (!f.occupation.trim().is_empty())
                    .then(|| f.occupation.trim().parse().unwrap_or(0)),
                cgv: f.cgv.is_some(),
                privacy_policy: f.privacy_policy.is_some(),
                optin_partner: f.optin_partner.is_some(),
                sponsorship_code: if f.sponsorship_code.trim().is_empty() {
                    f.mgmcode.clone()
                } else {
                    f.sponsorship_code.clone()
                },
                godfather_id: f.godfatherid.clone(),
                return_url: Some(f.returnurl.clone()),
            };
            match service::subscribe(
                &app.state,
                &app.settings.auth,
                &app.settings.mail,
                &client,
                &req,
                &Attribution::from_pairs(f.carried())
                    .with_from_partner(partners.from_partner.as_deref()),
                &link_base(ctx, site),
                now,
            )
            .await
            {
                Ok(_) => see_other(&format!("/gr/registration?step=done&email={email_q}{s}")),
                // The form comes back as it was left, but the password: every field error
                // by its field, or the general one above the form.
                Err(e) => {
                    let (errors, top) = match e {
                        AuthError::Invalid(errs) if !errs.is_empty() => (errs, String::new()),
                        e => (Vec::new(), format!("&error={}", e.message_key())),
                    };
                    let draft = RegistrationDraft {
                        email: req.email,
                        civility: req.civility,
                        first_name: req.first_name,
                        last_name: req.last_name,
                        birth_date: req.birth_date,
                        zip_code: req.zip_code,
                        city: req.city,
                        country_code: req.country_code,
                        occupation: req.occupation,
                        sponsorship_code: f.sponsorship_code.clone(),
                        cgv: req.cgv,
                        privacy_policy: req.privacy_policy,
                        optin_partner: req.optin_partner,
                        errors,
                    };
                    FormOutcome::retry(
                        &format!(
                            "/gr/registration?step=register&returnurl={ret_q}{sponsor_q}{top}"
                        ),
                        &draft,
                    )
                    .respond(app, ctx)
                }
            }
        }
        // The autologin link's confirmation (review L1): the link's cypher signs in now.
        "autologin" => {
            let req = CypherRequest {
                site_id: site,
                cypher: f.cypher.clone(),
                return_url: Some(f.returnurl.clone()),
            };
            match service::autologin(&app.state, &client, &req, now).await {
                Ok((token, r)) => {
                    with_new_session(
                        app,
                        session.token.as_deref(),
                        &token,
                        false,
                        see_other(&r.redirect_url),
                    )
                    .await
                }
                Err(e) => {
                    tracing::warn!(error = %e, "autologin failed");
                    see_other(&format!("/gr/authentication?returnurl={ret_q}{s}"))
                }
            }
        }
        "activate" => match service::activate(
            &app.state,
            &app.settings.auth,
            &client,
            site,
            &f.cypher,
            now,
        )
        .await
        {
            // The sign-in step after it knows whose account it is: the member types only
            // their password.
            Ok(member_id) => {
                let email: Option<String> =
                    sqlx::query_scalar("SELECT email FROM members WHERE id = $1")
                        .bind(member_id)
                        .fetch_optional(&app.state.db.pool)
                        .await
                        .unwrap_or_else(|e| {
                            tracing::warn!(error = %e, "activated member's email not read");
                            None
                        });
                let email_q = encode_query_value(email.as_deref().unwrap_or_default());
                see_other(&format!(
                    "/gr/authentication?step=email&email={email_q}&returnurl={ret_q}&info=auth.activated{s}"
                ))
            }
            Err(e) => see_other(&page("email", &format!("&error={}", e.message_key()))),
        },
        "recover" => {
            let req = RecoverPasswordRequest {
                email: f.email.clone(),
                site_id: site,
            };
            match service::recover_password(
                &app.state,
                &app.settings.auth,
                &app.settings.mail,
                &client,
                &req,
                &link_base(ctx, site),
                now,
            )
            .await
            {
                Ok(()) => see_other(&page("email", "&info=auth.recover.sent")),
                Err(e) => see_other(&page("recover", &format!("&error={}", e.message_key()))),
            }
        }
        "updatepassword" => {
            let req = UpdatePasswordRequest {
                site_id: site,
                cypher: f.cypher.clone(),
                member_id: f.memberid.unwrap_or(0),
                new_password: f.new_password.clone(),
            };
            match service::update_password(
                &app.state,
                &app.settings.auth,
                &app.settings.mail,
                &client,
                &req,
                now,
            )
            .await
            {
                Ok(()) => see_other(&page("email", "&info=auth.password.updated")),
                Err(e) => {
                    let key = match &e {
                        AuthError::Invalid(errs) if !errs.is_empty() => errs[0].message_key.clone(),
                        _ => e.message_key().to_string(),
                    };
                    see_other(&format!(
                        "/gr/authentication?updatepassword=1&cypher={}&memberid={}&error={key}{s}",
                        encode_query_value(&f.cypher),
                        f.memberid.unwrap_or(0)
                    ))
                }
            }
        }
        _ => see_other(&page("email", "")),
    }
}

//! My account's forms without scripts (Post/Redirect/Get): personal data, email change and
//! its confirmation, password change, deactivate, delete forever. A refused form comes back
//! filled in with its messages (see `app::account::ui::draft`); passwords never come back.
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::account::error::AccountError;
use app::account::model::*;
use app::account::service::{self, Mailer};
use app::account::ui::draft::{Draft, COOKIE, COOKIE_PATH};
use app::context::RequestCtx;
use app::model::error::{FieldError, WireError};

use super::auth::see_other;
use super::check_xsrf;
use crate::middleware::{self, SessionInfo};
use crate::rest::auth::session::{clear_session, link_base, site_suffix, with_new_session};
use crate::rest::extract::Client;
use crate::state::AppCtx;

const PERSONAL: &str = "/myaccount/memberdata";
const HOME: &str = "/myaccount";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AccountForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
    #[serde(rename = "firstName")]
    first_name: String,
    #[serde(rename = "lastName")]
    last_name: String,
    gender: String,
    #[serde(rename = "birthDate")]
    birth_date: String,
    phone: String,
    #[serde(rename = "jobId")]
    job_id: String,
    #[serde(rename = "Email")]
    email: String,
    #[serde(rename = "ConfirmEmail")]
    confirm_email: String,
    cypher: String,
    #[serde(rename = "currentPassword")]
    current_password: String,
    password: String,
    #[serde(rename = "confirmPassword")]
    confirm_password: String,
    reason: String,
}

fn draft_cookie(app: &AppCtx, value: &str, max_age: i64) -> Option<HeaderValue> {
    let secure = if app.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path={COOKIE_PATH}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .ok()
}

/// Back to `page` with `param=key` (a notice or an error); any earlier draft is dropped.
fn back(app: &AppCtx, ctx: &RequestCtx, page: &str, param: &str, key: &str) -> Response {
    let sep = if page.contains('?') { '&' } else { '?' };
    let mut res = see_other(&format!(
        "{page}{sep}{param}={key}{}",
        site_suffix(ctx, ctx.site_id)
    ));
    if let Some(v) = draft_cookie(app, "", 0) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

fn pairs(fields: &[FieldError]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|f| (f.field.clone(), f.message_key.clone()))
        .collect()
}

/// Back to the personal-data page with the refused form filled in.
fn retry(app: &AppCtx, ctx: &RequestCtx, draft: &Draft) -> Response {
    let mut res = see_other(&format!(
        "{PERSONAL}?retry=1{}",
        site_suffix(ctx, ctx.site_id)
    ));
    if let Some(v) = draft_cookie(app, &draft.encode(), 300) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

fn failed(app: &AppCtx, ctx: &RequestCtx, page: &str, e: &AccountError) -> Response {
    if let Some(cause) = e.cause() {
        tracing::error!(error = %cause, "account form failed");
    }
    let key = match e {
        AccountError::Invalid(f) if f.len() == 1 && f[0].message_key == "auth.email.taken" => {
            "auth.email.taken"
        }
        _ => e.message_key(),
    };
    back(app, ctx, page, "error", key)
}

/// Signed out after deactivation or deletion: the sign-in page says what happened.
fn signed_out(app: &AppCtx, ctx: &RequestCtx, info: &str) -> Response {
    clear_session(
        app,
        see_other(&format!(
            "/gr/authentication?info={info}{}",
            site_suffix(ctx, ctx.site_id)
        )),
    )
}

pub async fn account_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<AccountForm>(&body) else {
        return back(
            &app,
            &ctx,
            PERSONAL,
            "error",
            "errors.general_retry.notification",
        );
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(PERSONAL));
    };
    let db = &app.state.db;
    let now = app::platform::state::now();
    let base = link_base(&ctx, ctx.site_id);
    let mailer = Mailer {
        settings: &app.settings.mail,
        link_base: &base,
    };
    match f.action.as_str() {
        "profile" => {
            let job_id = match f.job_id.trim() {
                "" => Ok(None),
                j => j.parse::<i64>().map(Some),
            };
            let req = ProfileRequest {
                first_name: f.first_name.clone(),
                last_name: f.last_name.clone(),
                gender: f.gender.clone(),
                birth_date: f.birth_date.clone(),
                phone: f.phone.clone(),
                // A value that is no number cannot be one of the list's ids.
                job_id: job_id.unwrap_or(Some(-1)),
            };
            match service::update_profile(db, m.member_id, m.site_id, &req, now).await {
                Ok(done) => back(&app, &ctx, PERSONAL, "notice", &done.msg_key),
                Err(AccountError::Invalid(fields)) => {
                    let values = [
                        ("firstName", f.first_name.as_str()),
                        ("lastName", &f.last_name),
                        ("gender", &f.gender),
                        ("birthDate", &f.birth_date),
                        ("phone", &f.phone),
                        ("jobId", &f.job_id),
                    ];
                    retry(&app, &ctx, &Draft::new("profile", &values, pairs(&fields)))
                }
                Err(e) => failed(&app, &ctx, PERSONAL, &e),
            }
        }
        "email" => {
            let req = EmailChangeRequest {
                email: f.email.clone(),
                confirm_email: f.confirm_email.clone(),
            };
            match service::request_email_change(
                db,
                &app.settings.auth,
                &mailer,
                &client,
                m.member_id,
                &req,
                now,
            )
            .await
            {
                Ok(done) => back(&app, &ctx, PERSONAL, "notice", &done.msg_key),
                Err(AccountError::Invalid(fields)) => {
                    let values = [
                        ("Email", f.email.as_str()),
                        ("ConfirmEmail", &f.confirm_email),
                    ];
                    retry(&app, &ctx, &Draft::new("email", &values, pairs(&fields)))
                }
                Err(e) => failed(&app, &ctx, PERSONAL, &e),
            }
        }
        "confirm_email" => {
            match service::confirm_email_change(db, m.member_id, &m.token_hash, &f.cypher, now)
                .await
            {
                Ok(done) => back(&app, &ctx, PERSONAL, "notice", &done.msg_key),
                Err(e) => failed(&app, &ctx, PERSONAL, &e),
            }
        }
        "password" => {
            let req = PasswordChangeRequest {
                old_password: f.current_password.clone(),
                new_password: f.password.clone(),
                confirm_password: Some(f.confirm_password.clone()),
            };
            match service::change_password(
                db,
                &app.settings.auth,
                &mailer,
                &client,
                m.member_id,
                &m.token_hash,
                &req,
                now,
            )
            .await
            {
                Ok(changed) => {
                    let res = back(
                        &app,
                        &ctx,
                        PERSONAL,
                        "notice",
                        &changed.confirmation.msg_key,
                    );
                    with_new_session(&app, None, &changed.token, changed.remember, res).await
                }
                Err(e @ AccountError::Password(..)) => {
                    let mut errors = pairs(&e.field_errors().unwrap_or_default());
                    errors.push(("code".into(), e.message_key().into()));
                    retry(&app, &ctx, &Draft::new("password", &[], errors))
                }
                Err(e) => failed(&app, &ctx, PERSONAL, &e),
            }
        }
        "deactivate" => {
            let req = DeactivateRequest {
                reason: f.reason.clone(),
            };
            match service::deactivate(db, &mailer, m.member_id, &req, now).await {
                Ok(done) => signed_out(&app, &ctx, &done.msg_key),
                Err(AccountError::Invalid(_)) => see_other(&format!(
                    "{HOME}?tab=deactivate&step=confirm{}",
                    site_suffix(&ctx, ctx.site_id)
                )),
                Err(e) => failed(&app, &ctx, &format!("{HOME}?tab=deactivate"), &e),
            }
        }
        // Sign out everywhere else (review L11): the other sessions end, this one stays.
        "end_sessions" => {
            match app::auth::service::end_other_sessions(&app.state, &client, m, now).await {
                Ok(_) => back(&app, &ctx, PERSONAL, "notice", "myprofile.sessions.ended"),
                Err(e) => {
                    tracing::error!(error = %e, "cannot end the other sessions");
                    back(
                        &app,
                        &ctx,
                        PERSONAL,
                        "error",
                        "errors.general_retry.notification",
                    )
                }
            }
        }
        "delete" => match service::delete_forever(db, &mailer, m.member_id, now).await {
            Ok(done) => signed_out(&app, &ctx, &done.msg_key),
            Err(e) => failed(&app, &ctx, &format!("{HOME}?tab=delete"), &e),
        },
        _ => back(
            &app,
            &ctx,
            PERSONAL,
            "error",
            "errors.general_retry.notification",
        ),
    }
}

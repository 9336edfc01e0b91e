//! My account's forms without scripts (Post/Redirect/Get), one route per action: personal
//! data, the email change and its confirmation, the password change, the other sessions
//! ended, deactivation, deletion. A refused form comes back filled in with its messages
//! (`app::account::ui::draft`); passwords never come back.
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::account::error::AccountError;
use app::account::model::*;
use app::account::service::{self, Mailer};
use app::account::ui::draft::Draft;
use app::model::error::{FieldError, WireError};
use app::platform::session::SessionMember;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::session::{clear_session, link_base, with_new_session};

const PERSONAL: &str = "/myaccount/memberdata";
const HOME: &str = "/myaccount";

pub fn router() -> Router<Arc<AppCtx>> {
    use app::account::ui::frame::form_action as at;
    Router::new()
        .route(&at("profile"), post(profile))
        .route(&at("email"), post(email))
        .route(&at("confirm_email"), post(confirm_email))
        .route(&at("password"), post(password))
        .route(&at("end_sessions"), post(end_sessions))
        .route(&at("deactivate"), post(deactivate))
        .route(&at("delete"), post(delete))
        .route(app::auth::ui::page::SECURE_FORM, post(secure))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ProfileForm {
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
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EmailForm {
    #[serde(rename = "Email")]
    email: String,
    #[serde(rename = "ConfirmEmail")]
    confirm_email: String,
    #[serde(rename = "currentPassword")]
    current_password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ConfirmEmailForm {
    cypher: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    #[serde(rename = "currentPassword")]
    current_password: String,
    password: String,
    #[serde(rename = "confirmPassword")]
    confirm_password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeactivateForm {
    reason: String,
    #[serde(rename = "currentPassword")]
    current_password: String,
}

/// The forms whose only field is the proof of review N1.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ReauthForm {
    #[serde(rename = "currentPassword")]
    current_password: String,
}

/// The signed-in member, or the response that sends to sign in first.
#[allow(clippy::result_large_err)]
fn member<T>(form: &XsrfForm<T>) -> Result<SessionMember, Response> {
    form.member()
        .cloned()
        .ok_or_else(|| form.sign_in_first(PERSONAL))
}

/// The account's mails, with links on the member's site (`base`).
fn mailer<'a, T>(form: &'a XsrfForm<T>, base: &'a str) -> Mailer<'a> {
    form.app.mailer(base)
}

/// Back to the personal-data page with its notice; the draft of an earlier refusal goes.
fn done(key: &str) -> FormOutcome {
    FormOutcome::notice(PERSONAL, key).clearing::<Draft>(PERSONAL)
}

/// The same, with the dialog that tells what was done (`?dialog=email`).
fn done_with_dialog(key: &str, dialog: &str) -> FormOutcome {
    FormOutcome::notice(&format!("{PERSONAL}?dialog={dialog}"), key).clearing::<Draft>(PERSONAL)
}

fn pairs(fields: &[FieldError]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|f| (f.field.clone(), f.message_key.clone()))
        .collect()
}

fn failed(page: &str, e: &AccountError) -> FormOutcome {
    if let Some(cause) = e.cause() {
        tracing::error!(error = %cause, "account form failed");
    }
    let key = match e {
        AccountError::Invalid(f) if f.len() == 1 && f[0].message_key == "auth.email.taken" => {
            "auth.email.taken"
        }
        _ => e.message_key(),
    };
    FormOutcome::error(page, key)
}

/// Signed out after deactivation or deletion: the sign-in page says what happened.
fn signed_out<T>(form: &XsrfForm<T>, info: &str) -> Response {
    let to = FormOutcome::to(format!("/gr/authentication?info={info}"));
    clear_session(&form.app, form.answer(to))
}

async fn profile(form: XsrfForm<ProfileForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let f = &form.fields;
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
    let db = &form.app.state.db;
    let now = app::platform::state::now();
    let outcome = match service::update_profile(db, m.member_id, m.site_id, &req, now).await {
        Ok(done_) => done(&done_.msg_key),
        Err(AccountError::Invalid(fields)) => {
            let values = [
                ("firstName", f.first_name.as_str()),
                ("lastName", &f.last_name),
                ("gender", &f.gender),
                ("birthDate", &f.birth_date),
                ("phone", &f.phone),
                ("jobId", &f.job_id),
            ];
            FormOutcome::retry(PERSONAL, &Draft::new("profile", &values, pairs(&fields)))
        }
        Err(e) => failed(PERSONAL, &e),
    };
    form.answer(outcome)
}

async fn email(Client(client): Client, form: XsrfForm<EmailForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let f = &form.fields;
    let req = EmailChangeRequest {
        email: f.email.clone(),
        confirm_email: f.confirm_email.clone(),
        current_password: f.current_password.clone(),
    };
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = mailer(&form, &base);
    let now = app::platform::state::now();
    let db = &form.app.state.db;
    let auth = &form.app.settings.auth;
    let outcome =
        match service::request_email_change(db, auth, &mailer, &client, &m, &req, now).await {
            Ok(d) => done_with_dialog(&d.msg_key, "email"),
            // Fields to correct, or the current password: what was typed stays (never the
            // password).
            Err(e) if is_field_refusal(&e) => {
                let values = [
                    ("Email", f.email.as_str()),
                    ("ConfirmEmail", &f.confirm_email),
                ];
                let fields = e.field_errors().unwrap_or_default();
                FormOutcome::retry(PERSONAL, &Draft::new("email", &values, pairs(&fields)))
            }
            Err(e) => failed(PERSONAL, &e),
        };
    form.answer(outcome)
}

async fn confirm_email(form: XsrfForm<ConfirmEmailForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let now = app::platform::state::now();
    let db = &form.app.state.db;
    let outcome = match service::confirm_email_change(
        db,
        m.member_id,
        &m.token_hash,
        &form.fields.cypher,
        now,
    )
    .await
    {
        Ok(d) => done(&d.msg_key),
        Err(e) => failed(PERSONAL, &e),
    };
    form.answer(outcome)
}

async fn password(Client(client): Client, form: XsrfForm<PasswordForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let f = &form.fields;
    let req = PasswordChangeRequest {
        old_password: f.current_password.clone(),
        new_password: f.password.clone(),
        confirm_password: Some(f.confirm_password.clone()),
    };
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = mailer(&form, &base);
    let now = app::platform::state::now();
    let (db, auth) = (&form.app.state.db, &form.app.settings.auth);
    match service::change_password(
        db,
        auth,
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
            let res = form.answer(done_with_dialog(&changed.confirmation.msg_key, "password"));
            with_new_session(&form.app, None, &changed.token, changed.remember, res).await
        }
        Err(e @ AccountError::Password(..)) => {
            let mut errors = pairs(&e.field_errors().unwrap_or_default());
            errors.push(("code".into(), e.message_key().into()));
            form.answer(FormOutcome::retry(
                PERSONAL,
                &Draft::new("password", &[], errors),
            ))
        }
        Err(e) => form.answer(failed(PERSONAL, &e)),
    }
}

/// A refusal shown beside its fields (the form again, with the draft).
fn is_field_refusal(e: &AccountError) -> bool {
    matches!(e, AccountError::Invalid(_))
        || matches!(e, AccountError::Reauth(r) if r.field_error().is_some())
}

/// Sign out everywhere else: the other sessions end, this one stays.
async fn end_sessions(Client(client): Client, form: XsrfForm<ReauthForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = mailer(&form, &base);
    let proof = form.app.proof(&client, &m, &form.fields.current_password);
    let now = app::platform::state::now();
    let outcome = match service::end_other_sessions(&form.app.state, &mailer, &proof, now).await {
        Ok(_) => done("myprofile.sessions.ended"),
        Err(e) if is_field_refusal(&e) => {
            let fields = e.field_errors().unwrap_or_default();
            FormOutcome::retry(PERSONAL, &Draft::new("sessions", &[], pairs(&fields)))
        }
        Err(e) => failed(PERSONAL, &e),
    };
    form.answer(outcome)
}

async fn deactivate(Client(client): Client, form: XsrfForm<DeactivateForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = mailer(&form, &base);
    let req = DeactivateRequest {
        reason: form.fields.reason.clone(),
        current_password: form.fields.current_password.clone(),
    };
    let proof = form.app.proof(&client, &m, &req.current_password);
    let now = app::platform::state::now();
    match service::deactivate(&form.app.state.db, &mailer, &proof, &req, now).await {
        Ok(d) => signed_out(&form, &d.msg_key),
        // No reason chosen: the tab again, with its message.
        Err(AccountError::Invalid(_)) => form.answer(FormOutcome::to(format!(
            "{HOME}?tab=deactivate&step=confirm"
        ))),
        Err(e @ AccountError::Reauth(_)) => {
            let again = format!(
                "{HOME}?tab=deactivate&step=confirm&reason={}",
                app::routes::encode_query_value(&req.reason)
            );
            form.answer(failed(&again, &e))
        }
        Err(e) => form.answer(failed(&format!("{HOME}?tab=deactivate"), &e)),
    }
}

async fn delete(Client(client): Client, form: XsrfForm<ReauthForm>) -> Response {
    let m = match member(&form) {
        Ok(m) => m,
        Err(res) => return res,
    };
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = mailer(&form, &base);
    let proof = form.app.proof(&client, &m, &form.fields.current_password);
    let now = app::platform::state::now();
    match service::delete_forever(&form.app.state.db, &mailer, &proof, now).await {
        Ok(d) => signed_out(&form, &d.msg_key),
        Err(e @ AccountError::Reauth(_)) => {
            form.answer(failed(&format!("{HOME}?tab=delete&step=confirm"), &e))
        }
        Err(e) => form.answer(failed(&format!("{HOME}?tab=delete"), &e)),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SecureForm {
    token: String,
}

/// A change notice's "secure your account" button (review N1), signed in or not: every
/// session ends (this browser's too), and the member chooses a new password.
async fn secure(form: XsrfForm<SecureForm>) -> Response {
    let now = app::platform::state::now();
    match service::secure_account(&form.app.state.db, &form.fields.token, now).await {
        Ok(done) => {
            let to = format!("{}&info=account.secure.done", done.reset_path);
            let res = form.answer(FormOutcome::to(to));
            clear_session(&form.app, res)
        }
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "securing an account failed");
            }
            // A used or expired link: its page says so (without a token).
            let to = match e {
                AccountError::LinkInvalid => "/gr/authentication?step=secure".to_string(),
                _ => "/gr/authentication?step=secure&error=errors.general_retry.notification"
                    .to_string(),
            };
            form.answer(FormOutcome::to(to))
        }
    }
}

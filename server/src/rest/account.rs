//! My account's calls (spec 001 §7 "User profile", "Jobs", "Update email", "Update password",
//! "Deactivation reasons", "Deactivate account", "Delete account"). No path carries an id:
//! every call acts on the session's member; the one id a body carries (a job) is checked
//! against the list, and an email link only works for the member who asked for it.
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::account::error::AccountError;
use app::account::model::*;
use app::account::service;
use app::context::RequestCtx;
use app::model::error::ErrorBody;

use super::error::ApiError;
use super::extract::{Client, SignedIn};
use crate::state::AppCtx;
use crate::web::session::{clear_session, link_base, with_new_session};

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(member_profile, delete_account))
        .routes(routes!(jobs))
        .routes(routes!(update_profile))
        .routes(routes!(update_email))
        .routes(routes!(confirm_email))
        .routes(routes!(update_password))
        .routes(routes!(deactivation_reasons))
        .routes(routes!(deactivate))
        .routes(routes!(export_data))
        .routes(routes!(secure_account))
}

fn wire(e: AccountError) -> ApiError {
    ApiError::wire(&e).logged_as("account call failed")
}

/// A body as `T` only when it is UTF-8 and a JSON object; anything else is refused the
/// same way, before any check or write.
fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(app::wallet::model::json_object)
        .ok_or_else(|| wire(AccountError::Unreadable))
}

/// The member's site speaks for the member, whatever host the call came through.
fn member_lang(site_id: u16) -> &'static str {
    app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale)
}

fn now() -> i64 {
    app::platform::state::now()
}

/// The signed-in member's personal data (`pendingEmail` while a new address awaits its link).
#[utoipa::path(get, path = "/api/postsales/v1/account", tag = "postsales",
    responses((status = 200, body = MemberProfile), (status = 401, body = ErrorBody)))]
async fn member_profile(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<MemberProfile>, ApiError> {
    service::profile(&app.state.db, m.member_id, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Everything the shop holds of the signed-in member, as a JSON download (GDPR Art. 15 and
/// 20): the same export customer care can make (`app::account::store::export`).
#[utoipa::path(get, path = "/api/postsales/v1/account/export", tag = "postsales",
    responses((status = 200, description = "the member's data, as a JSON file", content_type = "application/json"),
        (status = 401, body = ErrorBody)))]
async fn export_data(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Response, ApiError> {
    let data = app::account::store::export::export(&app.state.db, m.member_id)
        .await
        .map_err(|e| wire(AccountError::from(e)))?
        .ok_or_else(|| {
            wire(AccountError::Internal(
                "signed-in member without a row".into(),
            ))
        })?;
    let bytes = serde_json::to_vec_pretty(&data).unwrap_or_default();
    let mut res = crate::web::download::attachment("my-data.json", "application/json", bytes);
    res.headers_mut()
        .remove(axum::http::header::CONTENT_SECURITY_POLICY);
    Ok(res)
}

/// The jobs a member may choose, titled in the site's language.
#[utoipa::path(get, path = "/api/postsales/v1/account/jobs", tag = "postsales",
    responses((status = 200, body = JobsResponse), (status = 401, body = ErrorBody)))]
async fn jobs(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<JobsResponse>, ApiError> {
    service::jobs(&app.state.db, member_lang(m.site_id))
        .await
        .map(Json)
        .map_err(wire)
}

/// Saves the personal data. Refused input answers 400 `errors.general_retry.notification`
/// with one `fieldErrors` entry per faulty field (GENDER, NAME, LAST_NAME, DATE_OF_BIRTH,
/// PHONE, JOB) and stores nothing.
#[utoipa::path(post, path = "/api/postsales/v1/account/profile", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = ProfileRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn update_profile(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    bytes: Bytes,
) -> Result<Json<AccountConfirmation>, ApiError> {
    let req: ProfileRequest = body(&bytes)?;
    service::update_profile(&app.state.db, m.member_id, m.site_id, &req, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Asks to change the sign-in email (`Email`, `ConfirmEmail`, and `currentPassword`, which a
/// member without a password leaves out after signing in again with the provider within 5
/// minutes: otherwise 400 `currentpassword` or 403 `reauthrequired`): a single-use link goes to
/// the new address (valid 48 h), a notice to the current one; the email changes when the
/// link is opened. Refusals name NEW_MAIL or CONFIRM_EMAIL. Rate-limited like the sign-in.
#[utoipa::path(post, path = "/api/postsales/v1/account/email", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = EmailChangeRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn update_email(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    bytes: Bytes,
) -> Result<Json<AccountConfirmation>, ApiError> {
    let req: EmailChangeRequest = body(&bytes)?;
    let base = link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    service::request_email_change(
        &app.state.db,
        &app.settings.auth,
        &mailer,
        &client,
        &m,
        &req,
        now(),
    )
    .await
    .map(Json)
    .map_err(wire)
}

/// Confirms the new email with the link's `cypher`: only for the member who asked, once,
/// within 48 h. The member's other sessions end.
#[utoipa::path(post, path = "/api/postsales/v1/account/email/confirm", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = EmailConfirmRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn confirm_email(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    bytes: Bytes,
) -> Result<Json<AccountConfirmation>, ApiError> {
    let req: EmailConfirmRequest = body(&bytes)?;
    service::confirm_email_change(
        &app.state.db,
        m.member_id,
        &m.token_hash,
        &req.cypher,
        now(),
    )
    .await
    .map(Json)
    .map_err(wire)
}

/// Changes the password (`oldPassword`, `newPassword`, optional `confirmPassword`).
/// Refusals answer 400 with `error_code` MISSING_FIELD, NOT_VALID or NOT_IDENTICAL and the
/// faulty fields. Success ends every other session of the member and answers with a new
/// session cookie and XSRF token; a notice is emailed. Rate-limited like the sign-in.
#[utoipa::path(post, path = "/api/postsales/v1/account/password", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = PasswordChangeRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn update_password(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let req: PasswordChangeRequest = body(&bytes)?;
    let base = link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let changed = service::change_password(
        &app.state.db,
        &app.settings.auth,
        &mailer,
        &client,
        m.member_id,
        &m.token_hash,
        &req,
        now(),
    )
    .await
    .map_err(wire)?;
    let res = Json(&changed.confirmation).into_response();
    // The old session row is already gone (the service ended every session).
    Ok(with_new_session(&app, None, &changed.token, changed.remember, res).await)
}

/// The reasons a member may give for deactivating, labelled in the member's language.
#[utoipa::path(get, path = "/api/postsales/v1/account/deactivation/reasons", tag = "postsales",
    responses((status = 200, body = DeactivationReasons), (status = 401, body = ErrorBody)))]
async fn deactivation_reasons(SignedIn(m): SignedIn) -> Json<DeactivationReasons> {
    Json(service::deactivation_reasons(member_lang(m.site_id)))
}

/// Deactivates the account with a reason's `value` and the proof of an email change
/// (`currentPassword`, or a fresh provider sign-in): the reason is kept, every session ends
/// and signing in answers login code 6 from then on. The response clears the session cookie.
#[utoipa::path(post, path = "/api/postsales/v1/account/deactivate", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = DeactivateRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn deactivate(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let req: DeactivateRequest = body(&bytes)?;
    let base = link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, &m, &req.current_password);
    let done = service::deactivate(&app.state.db, &mailer, &proof, &req, now())
        .await
        .map_err(wire)?;
    Ok(clear_session(&app, Json(done).into_response()))
}

/// Deletes the account forever: personal data erased, orders kept without it, every
/// session ended, the email free to register again. The body carries `currentPassword`
/// (a member without a password sends none, after signing in again with the provider:
/// otherwise 403 `reauthrequired`; a wrong or missing password is 400 `currentpassword`).
/// Answers `step` STEP2 and clears the session cookie; 409 while a payment of the member
/// is under way.
#[utoipa::path(delete, path = "/api/postsales/v1/account", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = ReauthRequest,
    responses((status = 200, body = AccountConfirmation), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn delete_account(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    // No body is a request without a password (refused unless a provider sign-in is fresh).
    let req: ReauthRequest = if bytes.is_empty() {
        ReauthRequest::default()
    } else {
        body(&bytes)?
    };
    let base = link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, &m, &req.current_password);
    let done = service::delete_forever(&app.state.db, &mailer, &proof, now())
        .await
        .map_err(wire)?;
    Ok(clear_session(&app, Json(done).into_response()))
}

/// The link of a change notice ("secure your account"), opened by whoever reads the
/// member's mail: no session needed.
#[derive(serde::Deserialize, utoipa::ToSchema, Default)]
#[serde(default)]
pub struct SecureRequest {
    token: String,
}

#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecureResponse {
    msg_key: &'static str,
    /// Where the member chooses a new password (a recovery link valid one hour).
    reset_url: String,
}

/// Secures the account named by a notice's link, once: every session ends, every link
/// sent before (email change, recovery, autologin) stops working, the address the notice
/// went to is the sign-in address again, and the answer leads to a new password. A used,
/// expired or made-up link is 400 `link_invalid`.
#[utoipa::path(post, path = "/api/postsales/v1/account/secure", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = SecureRequest,
    responses((status = 200, body = SecureResponse), (status = 400, body = ErrorBody)))]
async fn secure_account(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let req: SecureRequest = body(&bytes)?;
    let done = service::secure_account(&app.state.db, &req.token, now())
        .await
        .map_err(wire)?;
    let res = Json(SecureResponse {
        msg_key: "account.secure.done",
        reset_url: format!("{}{}", link_base(&ctx, done.site_id), done.reset_path),
    })
    .into_response();
    // Whoever was signed in here is signed out too.
    Ok(clear_session(&app, res))
}

//! Sign-in REST calls (spec 000 §7 "Authentication and registration"). The same flow
//! without scripts is in `forms::auth`.
pub mod social;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::auth::attribution::Attribution;
use app::auth::rules::LoginResult;
use app::auth::{error::AuthError, service};
use app::context::RequestCtx;
use app::model::auth::*;
use app::model::error::ErrorBody;

use super::error::ApiError;
use super::extract::{Client, SignedIn};
use crate::middleware::SessionInfo;
use crate::state::AppCtx;
use crate::web::session::{clear_session, link_base, with_new_session};

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(member_exists))
        .routes(routes!(login))
        .routes(routes!(web_validate))
        .routes(routes!(subscribe))
        .routes(routes!(activate))
        .routes(routes!(recover_password))
        .routes(routes!(update_password))
        .routes(routes!(autologin))
        .routes(routes!(logout))
        .routes(routes!(end_other_sessions))
        .merge(social::router())
}

/// A confirmation: the translation key of the message to show.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Confirmation {
    msg_key: &'static str,
}

/// Reads a JSON body; a body past 16 KB (or one that stops arriving) is a 413, anything
/// unreadable a 400 in the sign-in error shape.
async fn json_body<T: serde::de::DeserializeOwned>(req: Request) -> Result<T, ApiError> {
    let bytes = axum::body::to_bytes(req.into_body(), 16 * 1024)
        .await
        .map_err(|_| super::extract::too_large())?;
    serde_json::from_slice(&bytes).map_err(|_| ApiError::from(AuthError::Invalid(vec![])))
}

/// Whether an email has an account on a site: 200 result 1 (unknown: register), 400
/// result 2 (known: sign in), 422 result 3 (not an email). A site id that is no site
/// number (or a path that is not UTF-8) is a 404: there is no such site to ask about.
#[utoipa::path(get, path = "/api/authentication/v1/members/{email}/sites/{siteId}/exists",
    tag = "authentication",
    params(("email" = String, Path), ("siteId" = u16, Path)),
    responses((status = 200, body = EmailCheckResponse), (status = 400, body = EmailCheckResponse),
        (status = 404, body = ErrorBody, description = "the site id is not a site number"),
        (status = 422, body = EmailCheckResponse), (status = 429, body = ErrorBody)))]
async fn member_exists(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    path: Result<axum::extract::Path<(String, u16)>, axum::extract::rejection::PathRejection>,
) -> Result<Response, ApiError> {
    // The documented 400 is an answer (the email is known), so a bad path cannot be one.
    let axum::extract::Path((email, site_id)) = path.map_err(|_| ApiError::NotFound)?;
    let r = service::check_email(
        &app.state,
        &app.settings.auth,
        &client,
        site_id,
        &email,
        app::platform::state::now(),
    )
    .await?;
    let status = match r.result {
        1 => StatusCode::OK,
        2 => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    Ok((status, Json(r)).into_response())
}

/// Signs in with email and password (result codes of spec 000 §4); success rotates the
/// session cookie and the XSRF token.
#[utoipa::path(post, path = "/api/authentication/v1/login", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = LoginRequest,
    responses((status = 200, body = LoginResponse), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn login(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    partners: crate::middleware::partner::PartnerCookies,
    req: Request,
) -> Result<Response, ApiError> {
    let body: LoginRequest = json_body(req).await?;
    let outcome = service::login(
        &app.state,
        app.sign_in(),
        &client,
        &body,
        app::platform::state::now(),
    )
    .await?;
    let res = Json(&outcome.response).into_response();
    Ok(match outcome.token {
        Some(t) => {
            crate::middleware::partner::credit_sign_in(&app, &partners, body.site_id, &body.email)
                .await;
            with_new_session(&app, session.token.as_deref(), &t, body.remember_me, res).await
        }
        None => res,
    })
}

/// The member of the current session, if any.
#[utoipa::path(post, path = "/api/authentication/v1/webvalidate", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = WebValidateResponse)))]
async fn web_validate(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
) -> Json<WebValidateResponse> {
    match service::web_validate(
        &app.state,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await
    {
        Ok(r) => Json(r),
        Err(e) => {
            tracing::error!(error = %e, "web validate failed");
            Json(WebValidateResponse {
                member: None,
                result: LoginResult::InvalidIdentifier,
            })
        }
    }
}

/// Registers a member; an activation link is emailed.
#[utoipa::path(post, path = "/api/authentication/v1/subscribe", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header),
        ("utm_source" = Option<String>, Query, description = "where the registration came from, kept for the registrations report, like utm_medium, utm_campaign, utm_content, utm_term, godfathertype and partnerid (at most 100 characters each)"),
        ("utm_medium" = Option<String>, Query), ("utm_campaign" = Option<String>, Query),
        ("utm_content" = Option<String>, Query), ("utm_term" = Option<String>, Query),
        ("formid" = Option<i64>, Query, description = "the landing form's id"),
        ("godfathertype" = Option<String>, Query), ("partnerid" = Option<String>, Query),
        ("opendoor" = Option<String>, Query, description = "1: the visitor came through a page open to visitors (also said by a returnUrl to such a page)")),
    request_body = SubscribeRequest,
    responses((status = 201, body = SubscribeResponse), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn subscribe(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Client(client): Client,
    partners: crate::middleware::partner::PartnerCookies,
    req: Request,
) -> Result<(StatusCode, Json<SubscribeResponse>), ApiError> {
    let query = app::routes::query_pairs(req.uri().query().unwrap_or_default());
    let source = Attribution::from_pairs(query.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .with_from_partner(partners.from_partner.as_deref());
    let body: SubscribeRequest = json_body(req).await?;
    let base = link_base(&ctx, body.site_id);
    let r = service::subscribe(
        &app.state,
        &app.settings.auth,
        &app.settings.mail,
        &client,
        &body,
        &source,
        &base,
        app::platform::state::now(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(r)))
}

/// Activates an account from the emailed link's cypher.
#[utoipa::path(post, path = "/api/authentication/v1/activate", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = CypherRequest,
    responses((status = 200, body = Confirmation), (status = 400, body = ErrorBody)))]
async fn activate(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    req: Request,
) -> Result<Json<Confirmation>, ApiError> {
    let body: CypherRequest = json_body(req).await?;
    service::activate(
        &app.state,
        &app.settings.auth,
        &client,
        body.site_id,
        &body.cypher,
        app::platform::state::now(),
    )
    .await?;
    Ok(Json(Confirmation {
        msg_key: "auth.activated",
    }))
}

/// Emails a password-recovery link (the same answer whether the account exists or not).
#[utoipa::path(post, path = "/api/authentication/v1/password/recover", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = RecoverPasswordRequest,
    responses((status = 200, body = Confirmation), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn recover_password(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Client(client): Client,
    req: Request,
) -> Result<Json<Confirmation>, ApiError> {
    let body: RecoverPasswordRequest = json_body(req).await?;
    let base = link_base(&ctx, body.site_id);
    service::recover_password(
        &app.state,
        &app.settings.auth,
        &app.settings.mail,
        &client,
        &body,
        &base,
        app::platform::state::now(),
    )
    .await?;
    Ok(Json(Confirmation {
        msg_key: "auth.recover.sent",
    }))
}

/// Sets a new password with the recovery link's cypher.
#[utoipa::path(post, path = "/api/authentication/v1/password/update", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = UpdatePasswordRequest,
    responses((status = 200, body = Confirmation), (status = 400, body = ErrorBody)))]
async fn update_password(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    req: Request,
) -> Result<Json<Confirmation>, ApiError> {
    let body: UpdatePasswordRequest = json_body(req).await?;
    service::update_password(
        &app.state,
        &app.settings.auth,
        &app.settings.mail,
        &client,
        &body,
        app::platform::state::now(),
    )
    .await?;
    Ok(Json(Confirmation {
        msg_key: "auth.password.updated",
    }))
}

/// Signs in with an emailed autologin cypher.
#[utoipa::path(post, path = "/api/authentication/v1/autologin", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = CypherRequest,
    responses((status = 200, body = AutologinResponse),
        (status = 400, body = AutologinResponse, description = "invalid, used or expired cypher")))]
async fn autologin(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Result<Response, ApiError> {
    // A body that is no cypher request is answered like a cypher that is not valid.
    let outcome = match json_body::<CypherRequest>(req).await {
        Ok(body) => {
            service::autologin(&app.state, &client, &body, app::platform::state::now()).await
        }
        Err(_) => Err(AuthError::CypherInvalid),
    };
    match outcome {
        Ok((token, r)) => {
            let res = Json(r).into_response();
            Ok(with_new_session(&app, session.token.as_deref(), &token, false, res).await)
        }
        Err(AuthError::CypherInvalid) => Ok((
            StatusCode::BAD_REQUEST,
            Json(AutologinResponse {
                result: LoginResult::InvalidIdentifier,
                redirect_url: "/".into(),
            }),
        )
            .into_response()),
        Err(e) => Err(e.into()),
    }
}

/// Ends the session.
#[utoipa::path(post, path = "/api/authentication/v1/logout", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "signed out")))]
async fn logout(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
) -> Result<Response, ApiError> {
    service::logout(
        &app.state,
        &client,
        ctx.site_id,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await?;
    Ok(clear_session(&app, StatusCode::NO_CONTENT.into_response()))
}

/// What signing out everywhere else did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionsEnded {
    /// How many other sessions ended.
    ended: u64,
    msg_key: &'static str,
}

/// Signs the member out everywhere else: every other session of the member ends (other
/// browsers and devices must sign in again); this one stays.
/// The body carries `currentPassword` (review N1), as an email change does; the member
/// gets a notice with a "secure your account" link.
#[utoipa::path(post, path = "/api/authentication/v1/sessions/end-others", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = app::account::model::ReauthRequest,
    responses((status = 200, body = SessionsEnded), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn end_other_sessions(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    req: Request,
) -> Result<Json<SessionsEnded>, ApiError> {
    let body: app::account::model::ReauthRequest = json_body(req).await?;
    let base = crate::web::session::link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, &m, &body.current_password);
    let ended = app::account::service::end_other_sessions(
        &app.state,
        &mailer,
        &proof,
        app::platform::state::now(),
    )
    .await
    .map_err(|e| ApiError::wire(&e).logged_as("end other sessions failed"))?;
    Ok(Json(SessionsEnded {
        ended,
        msg_key: "myprofile.sessions.ended",
    }))
}

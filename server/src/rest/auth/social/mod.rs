//! Social sign-in REST calls (spec 000 §7 "Authentication and registration": third-party
//! login, third-party validate, associate account, subscribe third party) and the unlink
//! of a provider. The same flow without scripts is in `forms::social`. Result codes are
//! those of spec 000 §4 (`result`): 1 signed in, 8 provider not available, 11 third-party
//! authentication failed (wrong or used `state`, refused code, bad ID token), 12 associate
//! with the password, 13 register, 21 inconsistent social member; 3/4/5/6/7 as the password
//! sign-in. Client-version outcomes 9, 14, 15, 16 and 20 have their messages for app
//! clients (`auth.social.code.N`); the web never produces them.
use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::auth::social::rules::{LoginCode, Provider, RegistrationType};
use app::auth::social::service::{self, SocialOutcome, SocialSubscribe, Unlink};
use app::context::RequestCtx;
use app::model::error::ErrorBody;

use super::json_body;
use crate::middleware::SessionInfo;
use crate::rest::error::ApiError;
use crate::rest::extract::{Client, SignedIn};
use crate::state::AppCtx;
use crate::web::session::with_new_session;
use crate::web::social::{begin, validate, Purpose, SocialError};

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(providers))
        .routes(routes!(third_party_login))
        .routes(routes!(third_party_reauth))
        .routes(routes!(third_party_validate))
        .routes(routes!(associate_account))
        .routes(routes!(subscribe_third_party))
        .routes(routes!(unlink))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderInfo {
    /// Login provider: Facebook 1, Apple 2, Google 3, Klarna 4.
    third_party_type_id: u8,
    name: &'static str,
}

/// The providers this shop signs in with (unconfigured ones are absent).
#[utoipa::path(get, path = "/api/authentication/v1/thirdparty/providers", tag = "authentication",
    responses((status = 200, body = Vec<ProviderInfo>)))]
async fn providers(State(app): State<Arc<AppCtx>>) -> Json<Vec<ProviderInfo>> {
    Json(
        app.config
            .social
            .enabled()
            .into_iter()
            .map(|p| ProviderInfo {
                third_party_type_id: p.id(),
                name: p.label(),
            })
            .collect(),
    )
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ThirdPartyLoginRequest {
    return_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThirdPartyLoginResponse {
    /// Where to send the visitor (the provider's authorization endpoint).
    authorization_url: String,
}

/// Starts a third-party sign-in: `state`, `nonce` and the PKCE verifier are kept on the
/// server (single use, 10 minutes, bound to this visitor). An unknown or unconfigured
/// provider is a 400 with code 8's message.
#[utoipa::path(post, path = "/api/authentication/v1/thirdparty/{provider}/login", tag = "authentication",
    params(("provider" = String, Path, description = "google, facebook, apple or klarna"),
        ("X-XSRF-TOKEN" = String, Header)),
    request_body = ThirdPartyLoginRequest,
    responses((status = 200, body = ThirdPartyLoginResponse), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn third_party_login(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    Path(provider): Path<String>,
    req: Request,
) -> Result<Json<ThirdPartyLoginResponse>, ApiError> {
    let body: ThirdPartyLoginRequest = json_body(req).await?;
    let url = begin(
        &app,
        &ctx,
        &session,
        &client,
        &provider,
        body.return_url.as_deref(),
        Purpose::SignIn(Box::default()),
    )
    .await?;
    Ok(Json(ThirdPartyLoginResponse {
        authorization_url: url,
    }))
}

/// Starts a re-authentication of the signed-in member with a provider linked to their
/// account (review N1): the provider checks the person again, and its answer (third-party
/// validate) makes this session fresh for 5 minutes, long enough for an email change, new
/// bank details, a refund to a new IBAN, ending the other sessions or closing the account
/// without a password. The answer's `result` is 1 and nobody new is signed in; an answer
/// from another provider account, another session or without a fresh check is 11.
#[utoipa::path(post, path = "/api/authentication/v1/thirdparty/{provider}/reauth", tag = "authentication",
    params(("provider" = String, Path, description = "google, facebook, apple or klarna"),
        ("X-XSRF-TOKEN" = String, Header)),
    request_body = ThirdPartyLoginRequest,
    responses((status = 200, body = ThirdPartyLoginResponse), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn third_party_reauth(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    SignedIn(member): SignedIn,
    Path(provider): Path<String>,
    req: Request,
) -> Result<Json<ThirdPartyLoginResponse>, ApiError> {
    let body: ThirdPartyLoginRequest = json_body(req).await?;
    if !linked(&app, member.member_id, &provider).await? {
        return Err(ApiError::NotFound);
    }
    let url = begin(
        &app,
        &ctx,
        &session,
        &client,
        &provider,
        body.return_url.as_deref(),
        Purpose::Reauth(member.member_id),
    )
    .await?;
    Ok(Json(ThirdPartyLoginResponse {
        authorization_url: url,
    }))
}

/// Whether the member's account is linked to the provider named by `slug`.
pub(crate) async fn linked(app: &AppCtx, member_id: i64, slug: &str) -> Result<bool, ApiError> {
    let Some(p) = Provider::from_slug(slug) else {
        return Ok(false);
    };
    let links = service::links(&app.state, member_id).await?;
    Ok(links.iter().any(|(l, _, _)| *l == p))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ThirdPartyValidateRequest {
    code: String,
    state: String,
}

/// The answer of every third-party step (spec 000 §3's social login state).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThirdPartyResponse {
    /// Login result code (spec 000 §4).
    result: u8,
    msg_key: &'static str,
    redirect_url: Option<String>,
    /// For 12 and 13: the ticket of the association or registration step (15 minutes).
    token: Option<String>,
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    third_party_type_id: Option<u8>,
    /// Registration type of the next step: association 1 (13) or none.
    registration_type: Option<u8>,
    /// A re-authentication went through: this session may make a sensitive change for
    /// the next 5 minutes (nobody new is signed in).
    reauthenticated: bool,
}

async fn answer(app: &AppCtx, session: &SessionInfo, out: SocialOutcome) -> Response {
    let p = out.pending.as_ref();
    let body = ThirdPartyResponse {
        result: out.code.code(),
        msg_key: out.code.message_key(),
        redirect_url: (out.code == LoginCode::Success).then(|| out.redirect_url.clone()),
        reauthenticated: out.reauth == Some(true),
        token: out.ticket.clone(),
        email: p.map(|p| p.email.clone()),
        first_name: p.map(|p| p.first_name.clone()),
        last_name: p.map(|p| p.last_name.clone()),
        third_party_type_id: p.map(|p| p.provider.id()),
        registration_type: (out.code == LoginCode::NoAssociationNoEmail)
            .then_some(RegistrationType::Association as u8),
    };
    let res = Json(body).into_response();
    match out.token {
        Some(t) => with_new_session(app, session.token.as_deref(), &t, false, res).await,
        None => res,
    }
}

/// Third-party validate: the `code` and `state` the provider sent back.
#[utoipa::path(post, path = "/api/authentication/v1/thirdparty/validate", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = ThirdPartyValidateRequest,
    responses((status = 200, body = ThirdPartyResponse), (status = 400, body = ErrorBody)))]
async fn third_party_validate(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Result<Response, ApiError> {
    let body: ThirdPartyValidateRequest = json_body(req).await?;
    let out = validate(&app, &ctx, &session, &client, &body.code, &body.state).await?;
    Ok(answer(&app, &session, out).await)
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct AssociateRequest {
    /// The ticket of third-party validate's code 12.
    token: String,
    password: String,
}

/// Associate account (code 12): the password of the account with the provider's email.
#[utoipa::path(post, path = "/api/authentication/v1/thirdparty/associate", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = AssociateRequest,
    responses((status = 200, body = ThirdPartyResponse), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn associate_account(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Result<Response, ApiError> {
    let body: AssociateRequest = json_body(req).await?;
    let out = service::associate(
        &app.state,
        app.sign_in(),
        &client,
        ctx.site_id,
        service::HeldTicket {
            ticket: &body.token,
            binding: &session.binding,
        },
        &body.password,
        app::platform::state::now(),
    )
    .await?;
    Ok(answer(&app, &session, out).await)
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscribeThirdPartyRequest {
    /// The ticket of third-party validate's code 13.
    token: String,
    civility: Option<u8>,
    first_name: String,
    last_name: String,
    cgv: bool,
    privacy_policy: bool,
    optin_partner: bool,
    /// A sponsor's code (`mgmcode`); unknown, other-site or self sponsors are ignored.
    sponsorship_code: String,
    /// The sponsor's member id from a share link (`godfatherid`), when no code is given.
    #[serde(alias = "godfatherid")]
    godfather_id: String,
}

/// Subscribe third party (code 13): registration type association 1, the provider's
/// verified email; the member is active and signed in.
#[utoipa::path(post, path = "/api/authentication/v1/thirdparty/subscribe", tag = "authentication",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = SubscribeThirdPartyRequest,
    responses((status = 200, body = ThirdPartyResponse), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn subscribe_third_party(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Result<Response, ApiError> {
    let b: SubscribeThirdPartyRequest = json_body(req).await?;
    let out = service::subscribe_third_party(
        &app.state,
        &client,
        ctx.site_id,
        service::HeldTicket {
            ticket: &b.token,
            binding: &session.binding,
        },
        &SocialSubscribe {
            civility: b.civility,
            first_name: b.first_name,
            last_name: b.last_name,
            cgv: b.cgv,
            privacy_policy: b.privacy_policy,
            optin_partner: b.optin_partner,
            sponsorship_code: b.sponsorship_code,
            godfather_id: b.godfather_id,
        },
        app::platform::state::now(),
    )
    .await?;
    Ok(answer(&app, &session, out).await)
}

/// Removes the signed-in member's link to a provider: 204; 404 when not linked; 409 when
/// it is the member's only way in (no password and no other link).
#[utoipa::path(delete, path = "/api/authentication/v1/thirdparty/{provider}", tag = "authentication",
    params(("provider" = String, Path, description = "google, facebook, apple or klarna"),
        ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
async fn unlink(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Client(client): Client,
    SignedIn(member): SignedIn,
    Path(provider): Path<String>,
) -> Result<StatusCode, ApiError> {
    let Some(p) = Provider::from_slug(&provider) else {
        return Err(ApiError::NotFound);
    };
    match service::unlink(
        &app.state,
        &client,
        ctx.site_id,
        member.member_id,
        p,
        app::platform::state::now(),
    )
    .await?
    {
        Unlink::Done => Ok(StatusCode::NO_CONTENT),
        Unlink::NotLinked => Err(ApiError::NotFound),
        Unlink::LastWayIn => Err(ApiError::Wire {
            status: StatusCode::CONFLICT,
            body: Box::new(ErrorBody::new("lastwayin", "auth.social.unlink.last")),
            cause: None,
            what: "social unlink",
        }),
    }
}

impl From<SocialError> for ApiError {
    fn from(e: SocialError) -> ApiError {
        match e {
            SocialError::Code(code) => ApiError::BadRequest {
                code: match code {
                    LoginCode::InvalidSocialPlugin => "invalidsocialplugin",
                    _ => "thirdpartyfailed",
                },
                key: code.message_key(),
            },
            SocialError::Auth(e) => e.into(),
        }
    }
}

//! Communication calls (spec 001 §7 "Communications", "Optins", "Commercial partner
//! setting", "Subscription cancel", "Cancel reasons"; spec 000 §7 brand alert subscribe
//! and unsubscribe). Ids in paths and bodies are checked against the signed-in member.
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::de::DeserializeOwned;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::communications::error::CommunicationsError as E;
use app::communications::model::*;
use app::communications::service;
use app::context::RequestCtx;
use app::model::error::ErrorBody;
use app::platform::state::now;

use super::error::ApiError;
use super::extract::{Path, SignedIn};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(settings, set_preferences))
        .routes(routes!(set_optins))
        .routes(routes!(set_partners))
        .routes(routes!(cancel_reasons))
        .routes(routes!(cancel_subscription))
        .routes(routes!(follow_brand, unfollow_brand))
}

fn wire(e: E) -> ApiError {
    ApiError::wire(&e).logged_as("communication call failed")
}

/// The body, or the area's 400 (not axum's plain-text rejection) when it is not JSON of
/// the right shape.
fn parse<T: DeserializeOwned>(body: &str, code: &'static str) -> Result<T, ApiError> {
    app::wallet::model::json_object(body).ok_or_else(|| wire(E::Invalid(code)))
}

/// The member's channel, frequency, the site's options, opt-ins, partners, brand alerts.
#[utoipa::path(get, path = "/api/postsales/v1/communications", tag = "postsales",
    responses((status = 200, body = CommunicationSettings), (status = 401, body = ErrorBody)))]
async fn settings(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
) -> Result<Json<CommunicationSettings>, ApiError> {
    service::settings(&app.state.db, m.member_id, ctx.lang())
        .await
        .map(Json)
        .map_err(wire)
}

/// Sets channel and frequency (only the member's site's options). `cancelSurvey` is true
/// when NONE ended newsletters that were on.
#[utoipa::path(put, path = "/api/postsales/v1/communications", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = PreferencesRequest,
    responses((status = 200, body = CommunicationSettings), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn set_preferences(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    body: String,
) -> Result<Json<CommunicationSettings>, ApiError> {
    let req: PreferencesRequest = parse(&body, "invalid_preferences")?;
    service::set_preferences(&app.state.db, m.member_id, &req, ctx.lang(), now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Gives or withdraws the personalisation and partner opt-ins.
#[utoipa::path(post, path = "/api/postsales/v1/communications/optins", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = OptinsRequest,
    responses((status = 200, body = CommunicationSettings), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn set_optins(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    body: String,
) -> Result<Json<CommunicationSettings>, ApiError> {
    let req: OptinsRequest = parse(&body, "invalid_optins")?;
    service::set_optins(&app.state.db, m.member_id, &req, ctx.lang(), now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Sets commercial partner settings; an unknown partner id is a 404 and nothing is written.
#[utoipa::path(post, path = "/api/postsales/v1/communications/commercialpartners", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = PartnersRequest,
    responses((status = 200, body = CommunicationSettings), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn set_partners(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    body: String,
) -> Result<Json<CommunicationSettings>, ApiError> {
    let req: PartnersRequest = parse(&body, "invalid_partners")?;
    service::set_partners(&app.state.db, m.member_id, &req, ctx.lang(), now())
        .await
        .map(Json)
        .map_err(wire)
}

/// The reasons the cancel survey offers, in the member's language.
#[utoipa::path(get, path = "/api/postsales/v1/communications/cancelreasons", tag = "postsales",
    responses((status = 200, body = CancelReasons), (status = 401, body = ErrorBody)))]
async fn cancel_reasons(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(_m): SignedIn,
) -> Result<Json<CancelReasons>, ApiError> {
    service::cancel_reasons(&app.state.db, ctx.lang())
        .await
        .map(Json)
        .map_err(wire)
}

/// Records why the member ends their newsletter subscription (their own: another's id is 404).
#[utoipa::path(post, path = "/api/postsales/v1/communications/subscription/cancel", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = CancelRequest,
    responses((status = 204, description = "cancelled"), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn cancel_subscription(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    body: String,
) -> Result<StatusCode, ApiError> {
    let req: CancelRequest = parse(&body, "invalid_reason")?;
    service::cancel_subscription(&app.state.db, m.member_id, &req, now())
        .await
        .map_err(wire)?;
    Ok(StatusCode::NO_CONTENT)
}

fn brand_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>().map_err(|_| wire(E::NotFound))
}

/// Follows a brand: the member hears of its new sales.
#[utoipa::path(put, path = "/api/postsales/v1/brandalerts/{brandId}", tag = "postsales",
    params(("brandId" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = BrandAlerts), (status = 404, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn follow_brand(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
) -> Result<Json<BrandAlerts>, ApiError> {
    service::brand_alert(&app.state.db, m.member_id, brand_id(&raw)?, true, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Stops following a brand.
#[utoipa::path(delete, path = "/api/postsales/v1/brandalerts/{brandId}", tag = "postsales",
    params(("brandId" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = BrandAlerts), (status = 404, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn unfollow_brand(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
) -> Result<Json<BrandAlerts>, ApiError> {
    service::brand_alert(&app.state.db, m.member_id, brand_id(&raw)?, false, now())
        .await
        .map(Json)
        .map_err(wire)
}

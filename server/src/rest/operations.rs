//! Enter operation (spec 000 §7 "enter operation", without shape): a marketing
//! code's landing path, with the operation-code cookie set as the link does; and the
//! operation itself (spec 000 §3 "Operation: code, products, universes with
//! subUniverses"): its selection of products on sale, for members.
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::context::RequestCtx;
use app::model::error::ErrorBody;
use app::operations::error::OperationError;
use app::operations::rules::{self, OperationLanding};
use app::platform::state::now;

use super::error::{ApiError, LogAs};
use super::extract::{Params, Path, SignedIn};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(enter_operation, operation))
}

/// Enters an operation of the request's site: where it lands, and the cookie. A sale
/// operation lands a visitor on the sale's open-door catalog `/c/...` and a member on
/// `/catalog/...`; the travel home lands a visitor on `/voyages`.
#[utoipa::path(post, path = "/api/content/v1/operations/{code}", tag = "content",
    params(("code" = String, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = OperationLanding), (status = 404, body = ErrorBody),
        (status = 410, body = ErrorBody)))]
async fn enter_operation(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    let wire = |e: OperationError| ApiError::wire(&e).logged_as("enter operation failed");
    // A visitor lands on the open-door page of the target, a member on theirs.
    let audience = if ctx.member_id.is_some() {
        app::shell::rules::Audience::Member
    } else {
        app::shell::rules::Audience::Visitor
    };
    let (code, url) =
        app::operations::store::enter(&app.state.db, ctx.site_id, &code, now(), audience)
            .await
            .map_err(|e| wire(e.into()))?
            .map_err(|r| wire(OperationError::Refused(r)))?;
    let cookie = rules::cookie(&code, app.settings.secure_cookies);
    let mut res = Json(OperationLanding { code, url }).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(res)
}

#[derive(serde::Deserialize, utoipa::IntoParams, Default)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct OperationQuery {
    /// A universe's or sub-universe's id (`universes[].id`): only its products.
    universe: String,
}

/// A running operation's selection for the signed-in member: its products on sale now (of
/// one universe when `universe` says so) and the universes they fall in. 404 for an
/// unknown code, one that is not running or has no selection of its own.
#[utoipa::path(get, path = "/api/content/v1/operations/{code}", tag = "content",
    params(("code" = String, Path), OperationQuery),
    responses((status = 200, body = app::operations::model::Operation),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn operation(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(member): SignedIn,
    Path(code): Path<String>,
    Params(q): Params<OperationQuery>,
) -> Result<Json<app::operations::model::Operation>, ApiError> {
    app::operations::store::selection(
        &app.state.db,
        ctx.site_id,
        &code,
        &q.universe,
        app.cart.viewer(Some(member.member_id)),
        now(),
    )
    .await
    .log_as("[Error] cannot fetch an operation")?
    .map(Json)
    .ok_or(ApiError::NotFound)
}

//! Enter operation (spec 000 §7 "enter operation", without shape): a marketing
//! code's landing path, with the operation-code cookie set as the link does.
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

use super::error::ApiError;
use super::extract::Path;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(enter_operation))
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

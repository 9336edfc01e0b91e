//! Vouchers and promotions (spec 000 §7 print vouchers, 001 §7 "Vouchers"): the lists, the
//! selection toggle `{voucherId, participationId}` that the cart applies, and print.
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::service::Member;
use app::model::error::ErrorBody;
use app::platform::state::now;
use app::promotions::error::PromotionsError as E;
use app::promotions::model::*;
use app::promotions::rules::Selection;
use app::promotions::service;

use super::error::ApiError;
use super::extract::SignedIn;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(toggle))
        .routes(routes!(print))
}

fn member(m: &app::platform::session::SessionMember) -> Member {
    Member {
        id: m.member_id,
        site_id: i64::from(m.site_id),
    }
}

fn wire(e: E) -> ApiError {
    ApiError::wire(&e).logged_as("vouchers call failed")
}

/// The vouchers configuration's version (spec 001 §7: `featureVersion` 1, the only one).
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct VouchersQuery {
    /// 1 (the default); any other version is refused (400 `unknown_feature_version`).
    feature_version: Option<String>,
}

/// The vouchers configuration versions this call answers.
const FEATURE_VERSIONS: [&str; 1] = ["1"];

/// The member's vouchers and the site's promotions, with the current selection.
#[utoipa::path(get, path = "/api/postsales/v1/vouchers", tag = "postsales", params(VouchersQuery),
    responses((status = 200, body = VouchersAndPromotions), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn list(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Query(q): Query<VouchersQuery>,
) -> Result<Json<VouchersAndPromotions>, ApiError> {
    if let Some(v) = &q.feature_version {
        if !FEATURE_VERSIONS.contains(&v.trim()) {
            return Err(ApiError::bad_request(
                "unknown_feature_version",
                "errors.unknown_feature_version",
            )
            .in_language(m.site_id));
        }
    }
    service::list(&app.cart, member(&m), now())
        .await
        .map(Json)
        .map_err(wire)
}

/// Toggles one entry of the selection: a selected one leaves the basket, another one is
/// applied to it (with the cart's checks: 261 while frozen, used-up vouchers refused).
#[utoipa::path(post, path = "/api/postsales/v1/vouchers/selection", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = Selection,
    responses((status = 200, body = VouchersAndPromotions), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn toggle(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    body: String,
) -> Result<Json<VouchersAndPromotions>, ApiError> {
    let choice: Selection =
        app::wallet::model::json_object(&body).ok_or_else(|| wire(E::Invalid))?;
    service::toggle(&app.cart, member(&m), choice, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// A link to a printable page of the member's vouchers and the site's promotions.
#[utoipa::path(post, path = "/api/postsales/v1/vouchers/print", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = PrintUrl), (status = 401, body = ErrorBody)))]
async fn print(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<PrintUrl>, ApiError> {
    service::print(&app.cart, member(&m), now())
        .await
        .map(Json)
        .map_err(wire)
}

//! The brand list of the brands place (spec 000 §2 "brand list"): the brands
//! of the site's live sales, each with whether the member follows it. Following and
//! unfollowing are the brand-alert calls (`/api/postsales/v1/brandalerts/{brandId}`).
use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::brands::model::PlaceBrand;
use app::catalog::error::CatalogError;
use app::model::error::ErrorBody;
use app::platform::state::now;

use super::error::ApiError;
use super::extract::{MaybeMember, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(brands))
}

/// The brands of the site's live sales, by name; `followed` for a signed-in member.
#[utoipa::path(get, path = "/api/catalog/v1/brands", tag = "catalog",
    params(("siteId" = Option<u16>, Query)),
    responses((status = 200, body = Vec<PlaceBrand>), (status = 500, body = ErrorBody)))]
async fn brands(
    State(app): State<Arc<AppCtx>>,
    SiteId(site): SiteId,
    member: MaybeMember,
) -> Result<Json<Vec<PlaceBrand>>, ApiError> {
    app::brands::store::live_brands(&app.state.db, site, member.id(), now(), false)
        .await
        .map(Json)
        .map_err(|e| ApiError::wire(&CatalogError::from(e)).logged_as("brand list failed"))
}

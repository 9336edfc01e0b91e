//! The country list of registration (spec 000 §5 "Country list entries: countryCode,
//! flagText, flagUrl"): the shop's countries, the site's own first
//! (`app::auth::countries`). The flags are drawn by `serve::images::flag`.
use std::sync::Arc;

use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::auth::countries::{country_list, CountryEntry};

use super::extract::SiteId;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new().routes(routes!(countries))
}

/// The countries a member may live in, the site's own first.
#[utoipa::path(get, path = "/api/members/v1/countries", tag = "members",
    params(("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Vec<CountryEntry>)))]
async fn countries(SiteId(site): SiteId) -> Json<Vec<CountryEntry>> {
    Json(country_list(app::site::by_id_or_default(site).country_code))
}

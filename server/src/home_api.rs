//! Homes by id or name (spec 000 §7 "Navigation and content"):
//! `GET /api/content/v1/homes/{idOrName}?siteId=&isHomeReduced=&previewDate=YYYY-MM-DD`.
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Value};

use app::context::RequestCtx;
use app::home::rules::parse_preview_date;
use app::home::store::{self, HomeQuery};

use crate::catalog_api::{not_found, site};
use crate::AppCtx;

fn flag(q: &HashMap<String, String>, key: &str) -> bool {
    q.get(key).is_some_and(|v| v == "true" || v == "1")
}

pub async fn home(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path(id_or_name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    // Home names are slugs; anything else cannot name a home.
    let valid = !id_or_name.is_empty()
        && id_or_name.len() <= 64
        && id_or_name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error_code": "invalid_home_name", "error_description": "errors.not_found" })),
        )
            .into_response();
    }
    let site_id = q
        .get("siteId")
        .and_then(|v| v.parse::<u16>().ok())
        .filter(|id| app::site::by_id(*id).is_some())
        .unwrap_or_else(|| site(&ctx, &headers));
    let preview = q
        .get("previewDate")
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty());
    let preview_day = match preview.as_deref().map(parse_preview_date) {
        None => None,
        Some(Some(day)) => Some(day),
        Some(None) => {
            // The message in the language of the requested site.
            let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
            let key = "home.errors.preview_date";
            return (
                StatusCode::BAD_REQUEST,
                Json(json!({
                    "error_code": "invalid_preview_date",
                    "error_description": key,
                    "message": app::site::i18n::t(lang, key),
                })),
            )
                .into_response();
        }
    };
    let query = HomeQuery {
        key: id_or_name,
        reduced: flag(&q, "isHomeReduced"),
        preview_day,
        preview_date: preview_day.and(preview),
        skip_mobile_check: flag(&q, "skipMobileImageCheck"),
    };
    match store::home_cached(&app.state.db, site_id, &query, app::platform::state::now()).await {
        Ok(Some(home)) => Json(home).into_response(),
        Ok(None) => not_found(),
        Err(e) => crate::api::failed(e, "Cannot fetch home"),
    }
}

/// The OpenAPI entry of the homes call.
pub fn openapi_paths() -> Value {
    let q = |name: &str, ty: &str, description: &str| json!({ "name": name, "in": "query", "schema": { "type": ty }, "description": description });
    json!({
        "/api/content/v1/homes/{idOrName}": { "get": {
            "summary": "A home by id or by name (case-insensitive), with its modules and banners",
            "description": "Modules in display order: {id, kind (group, highlight, sectionBanner, subNavigationCategory, universe, text, deal, pedagogical), name, title, settings (subtitle, text, webTextColor, backgroundColor, primaryButton, secondaryButton {label, link}, twoPerPage, source), banners, sales (a group with source liveSales: every live sale)}. Banners: {id, kind (HighlightBanner, CampaignBanner, UniverseBanner, ProductBanner, SaleBanner, SplittedBanner, DealBanner, MediaAdsBanner), saleId, title, imageUrl, mobileImageUrl, link, tileSize (M, XL, XXL, MEGAFAT), layout (1x1, 1x2, 2x1, 2x2), endDate (unix seconds)}. Banners of a sale show only while the sale is live (on the previewed day). Sale, campaign and split banners without a mobile image are dropped unless skipMobileImageCheck=true. A reduced home (isHomeReduced=true, or a home stored as reduced) keeps its first 4 modules and no media-ads banners. Answers are reused for up to 5 seconds.",
            "parameters": [
                { "name": "idOrName", "in": "path", "required": true, "schema": { "type": "string" }, "description": "numeric id, or name such as default or summer" },
                q("siteId", "integer", "site; defaults to the x-vp-siteid header, then the request's site"),
                q("isHomeReduced", "boolean", "the reduced home: first 4 modules, no media-ads banners"),
                q("previewDate", "string", "YYYY-MM-DD: sales and sale banners as live on that day (sales starting later that day appear, sales ended by then are gone)"),
                q("skipMobileImageCheck", "boolean", "keep sale, campaign and split banners without a mobile image"),
                { "name": "x-vp-siteid", "in": "header", "schema": { "type": "integer" } }
            ],
            "responses": {
                "200": { "description": "{id, type, name, displayName, isReduced, previewDate?, modules}" },
                "400": { "description": "previewDate is not a YYYY-MM-DD date: {error_code: invalid_preview_date, error_description: home.errors.preview_date, message (localized)}; or idOrName is not a home name (letters, digits, - and _, at most 64): {error_code: invalid_home_name}" },
                "404": { "description": "no such home on the site: {error_code: not_found, error_description}" }
            }
        } }
    })
}

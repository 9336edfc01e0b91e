//! Search calls (spec 000 §7 Search): items and filters of a query, suggestions while
//! typing (with a device header), the member's recent queries and their deletion.
use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::model::search::{RecentQueries, SearchFilters, SearchItems, Suggestions};
use app::search::rules::{SearchOrigin, MAX_QUERY_CHARS};
use app::search::store::{self, SearchQuery};

use super::error::{ApiError, LogAs, OrNotFound};
use super::extract::{MaybeMember, Params, Path, SignedIn, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(items))
        .routes(routes!(filters))
        .routes(routes!(suggestions))
        .routes(routes!(recent))
        .routes(routes!(delete_recent))
}

/// The query text, or 400 when longer than the limit.
fn text(v: &Option<String>) -> Result<String, ApiError> {
    let v = v.clone().unwrap_or_default();
    if v.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(
            "query_too_long",
            "search.errors.too_long",
        ));
    }
    Ok(v)
}

fn list(v: &Option<String>) -> Vec<String> {
    v.as_deref()
        .map(app::catalog::rules::comma_list)
        .unwrap_or_default()
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ItemsParams {
    /// The query (at most 200 characters).
    q: Option<String>,
    /// Where the search comes from: 0 a sale's catalog (needs `saleId`; only that sale's
    /// items, no sale hits, not kept among the recent queries), 1 the search (the default).
    #[param(value_type = Option<u8>)]
    origin: Option<String>,
    /// The sale a catalog's search (origin 0) stays in.
    #[param(value_type = Option<i64>)]
    sale_id: Option<String>,
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
    #[param(value_type = Option<i64>)]
    offset: Option<String>,
    #[param(value_type = Option<i64>)]
    limit: Option<String>,
    sort: Option<String>,
    /// Comma-separated brand slugs.
    brand: Option<String>,
    /// Comma-separated colours.
    color: Option<String>,
    /// Comma-separated sizes.
    size: Option<String>,
}

/// Items matching a query, across the site's live sales or within one sale's catalog
/// (`origin`); a signed-in member's first page of a search is recorded as a recent query.
#[utoipa::path(get, path = "/api/catalog/v8/search/items", tag = "search", params(ItemsParams),
    responses((status = 200, body = SearchItems), (status = 400, body = ErrorBody)))]
async fn items(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    Params(q): Params<ItemsParams>,
) -> Result<Json<SearchItems>, ApiError> {
    let text = text(&q.q)?;
    let sale_id = SearchOrigin::scope(q.origin.as_deref(), q.sale_id.as_deref())
        .map_err(|key| ApiError::bad_request("invalid_search_origin", key).in_language(site_id))?;
    let num = |v: &Option<String>, d: i64| v.as_deref().and_then(|v| v.parse().ok()).unwrap_or(d);
    let query = SearchQuery {
        q: text.clone(),
        offset: num(&q.offset, 0),
        limit: num(&q.limit, 48),
        sort: q.sort.clone().filter(|s| !s.is_empty()),
        brands: list(&q.brand),
        colors: list(&q.color),
        sizes: list(&q.size),
        sale_id,
    };
    let now = app::platform::state::now();
    let found = store::search_items(
        &app.state.db,
        &app.search,
        site_id,
        &query,
        app.cart.viewer(member.id()),
        now,
    )
    .await
    .log_as("[Error] cannot fetch search items")?;
    if let Some(m) = member.id() {
        // A search within one sale's catalog is not a search of the shop to come back to.
        if !found.search_term.is_empty() && found.offset == 0 && sale_id.is_none() {
            let record = app::search::service::SearchRecord {
                member_id: m,
                site_id,
                q: text.clone(),
                now,
            };
            app::search::service::record(&app.searches, record)
                .await
                .log_as("cannot record a recent query")?;
        }
    }
    Ok(Json(found))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct FiltersParams {
    q: Option<String>,
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
}

/// The filters of a query's results.
#[utoipa::path(get, path = "/api/catalog/v4/search/filters", tag = "search",
    params(FiltersParams),
    responses((status = 200, body = SearchFilters), (status = 400, body = ErrorBody)))]
async fn filters(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Params(q): Params<FiltersParams>,
) -> Result<Json<SearchFilters>, ApiError> {
    let text = text(&q.q)?;
    store::search_filters(
        &app.state.db,
        &app.search,
        site_id,
        &text,
        store::Ticked::default(),
        app::platform::state::now(),
    )
    .await
    .log_as("cannot fetch search filters")
    .map(Json)
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SuggestionsParams {
    query: Option<String>,
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
}

/// Suggestions while typing; the web app (`x-vp-device: 7`, spec 001 §9; `webapp` is read
/// too) gets the compact list.
#[utoipa::path(get, path = "/api/catalog/v1/search/suggestions", tag = "search",
    params(SuggestionsParams, ("x-vp-device" = Option<String>, Header, description = "10 (web) or 7 (webapp); the names web and webapp are read too")),
    responses((status = 200, body = Suggestions), (status = 400, body = ErrorBody)))]
async fn suggestions(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    headers: HeaderMap,
    Params(q): Params<SuggestionsParams>,
) -> Result<Json<Suggestions>, ApiError> {
    let text = text(&q.query)?;
    let compact = match headers.get("x-vp-device").map(|v| v.to_str().unwrap_or("")) {
        None | Some("10" | "web") => false,
        Some("7" | "webapp") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "bad_device",
                "errors.general_retry.notification",
            ))
        }
    };
    store::suggestions(
        &app.state.db,
        &app.search,
        site_id,
        member.id(),
        &text,
        compact,
        app::platform::state::now(),
    )
    .await
    .log_as("Suggestions fail")
    .map(Json)
}

/// The member's recent queries, newest first.
#[utoipa::path(get, path = "/api/catalog/v1/search/recent", tag = "search",
    params(("siteId" = Option<u16>, Query)),
    responses((status = 200, body = RecentQueries), (status = 401, body = ErrorBody)))]
async fn recent(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    SignedIn(m): SignedIn,
) -> Result<Json<RecentQueries>, ApiError> {
    let recent_queries = store::recent(&app.state.db, m.member_id, site_id)
        .await
        .log_as("cannot fetch recent queries")?;
    Ok(Json(RecentQueries { recent_queries }))
}

/// Deletes one of the member's recent queries (404 when it is not theirs).
#[utoipa::path(delete, path = "/api/catalog/v1/search/recent/{id}", tag = "search",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "deleted"), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn delete_recent(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let deleted = app::search::service::delete_recent(&app.state.db, m.member_id, id)
        .await
        .log_as("cannot delete a recent query")?;
    deleted.then_some(StatusCode::NO_CONTENT).or_not_found()
}

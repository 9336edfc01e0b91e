//! Catalog REST calls at the spec's paths (spec 000 §7 Catalog). The site comes from the
//! request (host, `?site=`, cookie, or the `x-vp-siteid` header).
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use app::catalog::store::{self, ContentQuery};
use app::context::RequestCtx;

pub(crate) use crate::api::not_found;
use crate::api::{failed, query_list as list, unauthorized};
use crate::middleware::SessionInfo;
use crate::AppCtx;

pub(crate) fn site(ctx: &RequestCtx, headers: &HeaderMap) -> u16 {
    headers
        .get("x-vp-siteid")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u16>().ok())
        .filter(|id| app::site::by_id(*id).is_some())
        .unwrap_or(ctx.site_id)
}

/// The answer of a lookup: the value, 404 when absent, 500 (logged) on failure.
fn found<T: serde::Serialize>(result: Result<Option<T>, sqlx::Error>, what: &str) -> Response {
    match result {
        Ok(Some(v)) => Json(v).into_response(),
        Ok(None) => not_found(),
        Err(e) => failed(e, what),
    }
}

pub fn content_query(q: &HashMap<String, String>) -> ContentQuery {
    let num = |k: &str, d: i64| q.get(k).and_then(|v| v.parse::<i64>().ok()).unwrap_or(d);
    let (price_min, price_max) =
        app::catalog::rules::price_range(q.get("price").map(String::as_str));
    ContentQuery {
        in_stock: q.get("inStock").is_some_and(|v| v == "true" || v == "1")
            || q.get("stock").is_some_and(|v| v == "in"),
        limit: num("limit", 48),
        offset: num("offset", 0),
        sort: q.get("sort").filter(|s| !s.is_empty()).cloned(),
        search_term: q.get("searchTerm").cloned(),
        brands: list(q, "brand"),
        colors: list(q, "color"),
        sizes: list(q, "size"),
        price_min,
        price_max,
        request_id: num("requestId", 0),
    }
}

pub async fn sale(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path(sale_id): Path<i64>,
) -> Response {
    let sale = store::sale(
        &app.state.db,
        site(&ctx, &headers),
        sale_id,
        app::platform::state::now(),
    )
    .await;
    found(sale, "Unavailable Sale Content")
}

pub async fn catalog_tree(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path(sale_id): Path<i64>,
) -> Response {
    match store::sale(
        &app.state.db,
        site(&ctx, &headers),
        sale_id,
        app::platform::state::now(),
    )
    .await
    {
        Ok(Some(s)) => {
            Json(serde_json::json!({ "saleId": sale_id, "universes": s.universes })).into_response()
        }
        Ok(None) => not_found(),
        Err(e) => failed(e, "Unavailable Sale Content"),
    }
}

pub async fn catalog_content(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path((sale_id, catalog_id)): Path<(i64, i64)>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let site_id = site(&ctx, &headers);
    let now = app::platform::state::now();
    // Only the existence of the sale matters here, not its tree.
    match store::sale_is_live(&app.state.db, site_id, sale_id, now).await {
        Ok(true) => {}
        Ok(false) => return not_found(),
        Err(e) => return failed(e, "[Error] cannot fetch search items"),
    }
    let member = session.member.as_ref().map(|m| m.member_id);
    match store::content(
        &app.state.db,
        site_id,
        sale_id,
        catalog_id,
        &content_query(&q),
        member,
        now,
    )
    .await
    {
        Ok(c) => Json(c).into_response(),
        Err(e) => failed(e, "[Error] cannot fetch search items"),
    }
}

pub async fn filters(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path((sale_id, catalog_id)): Path<(i64, i64)>,
) -> Response {
    let site_id = site(&ctx, &headers);
    let now = app::platform::state::now();
    match store::sale_is_live(&app.state.db, site_id, sale_id, now).await {
        Ok(true) => match store::filters(&app.state.db, site_id, sale_id, catalog_id, now).await {
            Ok(f) => Json(serde_json::json!({ "filters": f })).into_response(),
            Err(e) => failed(e, "cannot fetch filters"),
        },
        Ok(false) => not_found(),
        Err(e) => failed(e, "cannot fetch filters"),
    }
}

pub async fn item(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path((sale_id, item_id)): Path<(i64, i64)>,
) -> Response {
    let member = session.member.as_ref().map(|m| m.member_id);
    let item = store::item_by_id(
        &app.state.db,
        site(&ctx, &headers),
        sale_id,
        item_id,
        member,
        app::platform::state::now(),
    )
    .await;
    found(item, "cannot fetch item")
}

pub async fn item_options(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path((sale_id, item_id)): Path<(i64, i64)>,
) -> Response {
    match store::item_options(
        &app.state.db,
        site(&ctx, &headers),
        sale_id,
        item_id,
        ctx.member_id,
        app::platform::state::now(),
    )
    .await
    {
        Ok(Some(o)) => Json(serde_json::json!({ "options": o })).into_response(),
        Ok(None) => not_found(),
        Err(e) => failed(e, "Cannot fetch options"),
    }
}

async fn favourite(
    app: &AppCtx,
    ctx: &RequestCtx,
    session: &SessionInfo,
    headers: &HeaderMap,
    sale_id: i64,
    item_id: i64,
    on: bool,
) -> Response {
    // Authorization-type failure: the client's session-expiry handling sends the member to sign in.
    let Some(m) = &session.member else {
        return unauthorized();
    };
    match app::catalog::service::set_favourite(
        &app.state.db,
        site(ctx, headers),
        m.member_id,
        sale_id,
        item_id,
        on,
        app::platform::state::now(),
    )
    .await
    {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => not_found(),
        Err(e) => failed(
            e,
            if on {
                "Cannot add to favorite"
            } else {
                "Cannot remove from favorite"
            },
        ),
    }
}

pub async fn favourite_add(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path((sale_id, item_id)): Path<(i64, i64)>,
) -> Response {
    favourite(&app, &ctx, &session, &headers, sale_id, item_id, true).await
}

pub async fn favourite_remove(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path((sale_id, item_id)): Path<(i64, i64)>,
) -> Response {
    favourite(&app, &ctx, &session, &headers, sale_id, item_id, false).await
}

pub async fn brand_items(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Path(brand_id): Path<i64>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let query = content_query(&q);
    let result = store::brand_items(
        &app.state.db,
        site(&ctx, &headers),
        brand_id,
        query.limit,
        query.offset,
        ctx.member_id,
        app::platform::state::now(),
    )
    .await
    .map(|found| {
        found.map(|(name, content)| {
            serde_json::json!({
                "brandId": brand_id,
                "name": name,
                "total": content.total,
                "offset": content.offset,
                "limit": content.limit,
                "items": content.items,
            })
        })
    });
    found(result, "Unavailable Sale Content")
}

pub async fn favourites(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
) -> Response {
    let Some(m) = &session.member else {
        return unauthorized();
    };
    match store::favourite_items(
        &app.state.db,
        site(&ctx, &headers),
        m.member_id,
        app::platform::state::now(),
    )
    .await
    {
        Ok(items) => Json(serde_json::json!({ "items": items })).into_response(),
        Err(e) => failed(e, "Cannot fetch favourites"),
    }
}

//! Search REST calls (spec 000 §7 Search, issue #4): items and filters of a query, the
//! suggestions while typing (GET with query and siteId and a device header), the member's
//! recent queries and their deletion by id; plus the form that deletes a recent query
//! without scripts.
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form, Json};
use serde::Deserialize;

use app::context::RequestCtx;
use app::search::rules::MAX_QUERY_CHARS;
use app::search::store::{self, SearchQuery};

use crate::api::{error, failed, query_list as list, unauthorized};
use crate::middleware::{self, SessionInfo};
use crate::AppCtx;

/// The site: `siteId` in the query, then the `x-vp-siteid` header, then the request's site.
fn site(ctx: &RequestCtx, headers: &HeaderMap, q: &HashMap<String, String>) -> u16 {
    let valid = |v: &str| {
        v.parse::<u16>()
            .ok()
            .filter(|id| app::site::by_id(*id).is_some())
    };
    q.get("siteId")
        .and_then(|v| valid(v))
        .or_else(|| {
            headers
                .get("x-vp-siteid")
                .and_then(|v| v.to_str().ok())
                .and_then(valid)
        })
        .unwrap_or(ctx.site_id)
}

/// The query text, or 400 when longer than the limit.
#[allow(clippy::result_large_err)]
fn text(q: &HashMap<String, String>, key: &str) -> Result<String, Response> {
    let v = q.get(key).cloned().unwrap_or_default();
    if v.chars().count() > MAX_QUERY_CHARS {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "query_too_long",
            "search.errors.too_long",
        ));
    }
    Ok(v)
}

/// GET /api/catalog/v8/search/items?q=&siteId=&offset=&limit=&sort=&brand=&color=&size=
pub async fn items(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let text = match text(&q, "q") {
        Ok(t) => t,
        Err(res) => return res,
    };
    let num = |k: &str, d: i64| q.get(k).and_then(|v| v.parse::<i64>().ok()).unwrap_or(d);
    let query = SearchQuery {
        q: text.clone(),
        offset: num("offset", 0),
        limit: num("limit", 48),
        sort: q.get("sort").filter(|s| !s.is_empty()).cloned(),
        brands: list(&q, "brand"),
        colors: list(&q, "color"),
        sizes: list(&q, "size"),
    };
    let site_id = site(&ctx, &headers, &q);
    let member = session.member.as_ref().map(|m| m.member_id);
    let now = app::platform::state::now();
    let found = match store::search_items(&app.state.db, site_id, &query, member, now).await {
        Ok(found) => found,
        Err(e) => return failed(e, "[Error] cannot fetch search items"),
    };
    if let Some(m) = member {
        if !found.search_term.is_empty() && found.offset == 0 {
            if let Err(e) =
                app::search::service::record(&app.state.db, m, site_id, &text, now).await
            {
                return failed(e, "cannot record a recent query");
            }
        }
    }
    Json(found).into_response()
}

/// GET /api/catalog/v4/search/filters?q=&siteId=
pub async fn filters(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let text = match text(&q, "q") {
        Ok(t) => t,
        Err(res) => return res,
    };
    match store::search_filters(
        &app.state.db,
        site(&ctx, &headers, &q),
        &text,
        app::platform::state::now(),
    )
    .await
    {
        Ok(f) => Json(f).into_response(),
        Err(e) => failed(e, "cannot fetch search filters"),
    }
}

/// GET /api/catalog/v1/search/suggestions?query=&siteId= with `x-vp-device: web|webapp`.
pub async fn suggestions(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let text = match text(&q, "query") {
        Ok(t) => t,
        Err(res) => return res,
    };
    let compact = match headers.get("x-vp-device").map(|v| v.to_str().unwrap_or("")) {
        None | Some("web") => false,
        Some("webapp") => true,
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "bad_device",
                "errors.general_retry.notification",
            )
        }
    };
    let member = session.member.as_ref().map(|m| m.member_id);
    match store::suggestions(
        &app.state.db,
        site(&ctx, &headers, &q),
        member,
        &text,
        compact,
        app::platform::state::now(),
    )
    .await
    {
        Ok(s) => Json(s).into_response(),
        Err(e) => failed(e, "Suggestions fail"),
    }
}

/// GET /api/catalog/v1/search/recent: the member's recent queries, newest first.
pub async fn recent(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let Some(m) = &session.member else {
        return unauthorized();
    };
    match store::recent(&app.state.db, m.member_id, site(&ctx, &headers, &q)).await {
        Ok(list) => Json(serde_json::json!({ "recentQueries": list })).into_response(),
        Err(e) => failed(e, "cannot fetch recent queries"),
    }
}

/// DELETE /api/catalog/v1/search/recent/{id}: 204, or 404 when it is not the member's.
pub async fn delete_recent(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Path(id): Path<i64>,
) -> Response {
    let Some(m) = &session.member else {
        return unauthorized();
    };
    match app::search::service::delete_recent(&app.state.db, m.member_id, id).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => error(StatusCode::NOT_FOUND, "not_found", "errors.not_found"),
        Err(e) => failed(e, "cannot delete a recent query"),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
}

/// POST /find/recent/{id}/delete: the same without scripts (Post/Redirect/Get to /find).
pub async fn delete_recent_form(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(f): Form<DeleteForm>,
) -> Response {
    let cookie_token = middleware::cookie(&headers, app::platform::csrf::COOKIE);
    if !app::platform::csrf::check(
        &app.state.settings.xsrf_secret,
        &session.binding,
        cookie_token,
        Some(&f.xsrf),
    ) {
        return middleware::forbidden_csrf();
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect("/find"));
    };
    match app::search::service::delete_recent(&app.state.db, m.member_id, id).await {
        Ok(true) => {
            let mut res = StatusCode::SEE_OTHER.into_response();
            res.headers_mut()
                .insert(header::LOCATION, HeaderValue::from_static("/find"));
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            res
        }
        Ok(false) => error(StatusCode::NOT_FOUND, "not_found", "errors.not_found"),
        Err(e) => failed(e, "cannot delete a recent query"),
    }
}

//! CSRF: a signed double submit bound to the session (or, for a visitor who is not signed
//! in, to their pre-session id). State-changing API calls must echo the XSRF cookie in
//! `X-XSRF-TOKEN`; HTML forms posting outside `/api` carry it in a hidden `_xsrf` field,
//! checked by `forms::check_xsrf`.
//!
//! Two calls of the spec change state on GET: the cart freeze and the search that records
//! a signed-in member's recent query. A cross-site page can send the member there with a
//! plain link (the session cookie is `SameSite=Lax`), so a member's GET on them passes
//! only with a valid `X-XSRF-TOKEN` (what the app's own client sends on every call) or
//! from a same-origin fetch; a navigation or a request from another site is refused.

use axum::extract::Request;
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};

use super::context::SessionInfo;
use super::cookies::{cookie, xsrf_cookie_name};
use crate::state::AppCtx;

pub fn forbidden_csrf() -> Response {
    tracing::warn!("refused a state-changing request without a valid XSRF token");
    let body = app::model::error::ErrorBody::new("csrf", "errors.csrf.notification");
    (axum::http::StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

/// The GET calls that change a signed-in member's state: the freeze, the search call and
/// the search page's server function (both record the query).
pub const STATE_CHANGING_GETS: [&str; 3] = [
    app::model::cart::PIPE,
    "/api/catalog/v8/search/items",
    "/api/fn/search/page",
];

/// The request's XSRF header echoes its cookie and is valid for this visitor.
fn has_token(app: &AppCtx, req: &Request, binding: &str) -> bool {
    let cookie_token = cookie(req.headers(), xsrf_cookie_name(app));
    let header_token = req
        .headers()
        .get(app::platform::csrf::HEADER)
        .and_then(|v| v.to_str().ok());
    app::platform::csrf::check(
        &app.settings.xsrf_secret,
        binding,
        cookie_token.as_deref(),
        header_token,
    )
}

/// A browser said (Fetch Metadata) that this request is a navigation or comes from
/// another site. Clients that send no such headers (other programs, old browsers) are not
/// refused on this ground.
pub fn cross_site_or_navigation(headers: &HeaderMap) -> bool {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase())
    };
    let site = get("sec-fetch-site");
    let mode = get("sec-fetch-mode");
    let other_site = matches!(site.as_deref(), Some("cross-site" | "same-site"));
    let navigation = matches!(mode.as_deref(), Some("navigate" | "nested-navigate"));
    other_site || navigation
}

pub async fn csrf<N, F>(app: &AppCtx, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let path = req.uri().path();
    let session = req.extensions().get::<SessionInfo>();
    // Without the session layer (never in the shop) nothing can pass.
    let binding = session
        .map(|s| s.binding.clone())
        .unwrap_or_else(|| format!("unbound:{}", rand::random::<u64>()));
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    // The A/B variations call is a POST that changes nothing and is sent without
    // credentials (spec 000 §7): no token to check.
    let read_only = app::experiments::rules::is_variations_path(path);
    if changes_state && path.starts_with("/api/") && !read_only && !has_token(app, &req, &binding) {
        return forbidden_csrf();
    }
    let signed_in = session.is_some_and(|s| s.member.is_some());
    if signed_in
        && req.method() == Method::GET
        && STATE_CHANGING_GETS.contains(&path)
        && cross_site_or_navigation(req.headers())
        && !has_token(app, &req, &binding)
    {
        return forbidden_csrf();
    }
    next(req).await
}

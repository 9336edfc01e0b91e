//! Security headers on every response; pages (which carry the visitor's XSRF token) are
//! never kept by shared caches, and nothing a signed-in member gets is kept at all.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::response::Response;

use super::cookies::{cookie, session_cookie_name};
use crate::state::AppCtx;

/// The policy of every response that sets none of its own (JSON, images, files, the
/// voucher print page's 404): nothing may load, and no page may frame it. Leptos pages
/// send their nonce'd policy; the print page and the API browser send their own.
pub const FALLBACK_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// Swagger UI at `/api/docs`: its script and styles are files of ours (`/api-docs/`), it
/// sets inline styles and fetches the document.
pub const DOCS_CSP: &str =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
     form-action 'none'";

pub async fn security_headers<N, F>(app: &AppCtx, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let api = req.uri().path().starts_with("/api/");
    let docs = req.uri().path() == "/api/docs";
    // A request with a session cookie may be answered with that member's data (even a
    // stale cookie: whether it is still valid is decided further in).
    let with_session = cookie(req.headers(), session_cookie_name(app)).is_some();
    let mut res = next(req).await;
    apply(app, res.headers_mut(), api, docs, with_session);
    res
}

/// The headers of a response to an API call (`api`), the API browser (`docs`) or anything
/// else, whose request carried a session cookie (`with_session`) or not; also used by the
/// page cache's hits, answered before this step runs.
pub fn apply(
    app: &AppCtx,
    h: &mut axum::http::HeaderMap,
    api: bool,
    docs: bool,
    with_session: bool,
) {
    // Named by the `http` crate's constants: a name given as text is parsed on every insert.
    // The caches' own marker (`app::ui::personal::NOT_SHARED_HEADER`) stays in the server.
    h.remove(app::ui::personal::NOT_SHARED_HEADER);
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    let html = h
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    let sets_cookie = h.contains_key(header::SET_COOKIE);
    // Member data (cart, orders, favourites, first name) must not stay in the browser's
    // disk cache of a shared computer: every API answer and page of a request with a
    // session, and every API answer that sets a cookie (a sign-in), is `no-store`.
    // Anonymous catalog answers and static files keep what their handler says.
    if (with_session && (api || html)) || (sets_cookie && api) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    } else if html && !h.contains_key(header::CACHE_CONTROL) {
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
    }
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        let policy = if docs { DOCS_CSP } else { FALLBACK_CSP };
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(policy),
        );
    }
    if app.settings.secure_cookies {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
}

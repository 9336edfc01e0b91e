//! Security headers on every response; pages (which carry the visitor's XSRF token) are
//! never kept by shared caches.
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::state::AppCtx;

pub async fn security_headers(
    State(app): State<Arc<AppCtx>>,
    req: Request,
    next: Next,
) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        "referrer-policy",
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    let html = h
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if html && !h.contains_key(header::CACHE_CONTROL) {
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
    }
    if !h.contains_key("content-security-policy") {
        h.insert(
            "content-security-policy",
            HeaderValue::from_static(
                "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'",
            ),
        );
    }
    if app.settings.secure_cookies {
        h.insert(
            "strict-transport-security",
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    res
}

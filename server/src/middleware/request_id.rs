//! Request id (taken from `X-Request-Id` or made up) on the log span and the response.
//! The span's path is the one a log may keep: bearer tokens and email addresses in a path
//! are masked (review N7), so a log archive holds no live print link and no list of the
//! emails typed on the sign-in page.
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use tracing::Instrument;

const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub async fn request_id<N, F>(req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let id = id_of(req.headers());
    let span = tracing::info_span!("request", id = %id, method = %req.method(), path = %loggable_path(req.uri().path()));
    let started = std::time::Instant::now();
    let mut res = next(req).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::info!(
            status = res.status().as_u16(),
            ms = started.elapsed().as_millis() as u64,
            "done"
        )
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(X_REQUEST_ID, v);
    }
    res
}

/// The request's id: the one its `X-Request-Id` gives when it is short and plain, else a
/// new one.
pub fn id_of(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:016x}", rand::random::<u64>()))
}

/// An answer given without the steps (a page cache hit): its id on the response, and the
/// log line every request gets.
pub fn answered(
    id: &str,
    method: &axum::http::Method,
    path: &str,
    res: &mut Response,
    started: std::time::Instant,
) {
    tracing::info_span!("request", id = %id, method = %method, path = %loggable_path(path))
        .in_scope(|| {
            tracing::info!(
                status = res.status().as_u16(),
                ms = started.elapsed().as_millis() as u64,
                "done"
            )
        });
    if let Ok(v) = HeaderValue::from_str(id) {
        res.headers_mut().insert(X_REQUEST_ID, v);
    }
}

/// Path segments that are secrets or personal data, by the segment before them.
const MASKED_AFTER: [&str; 2] = [
    // `/vouchers/print/{token}`: the token alone opens the member's vouchers for an hour.
    "print", // `/api/authentication/v1/members/{email}/sites/{siteId}/exists`.
    "members",
];

/// The request path as logs may keep it: a segment after one of `MASKED_AFTER`, and any
/// segment holding an email address (`@`, raw or percent-encoded), is replaced by `***`.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    let secret = |prev: Option<&str>, seg: &str| {
        !seg.is_empty()
            && (prev.is_some_and(|p| MASKED_AFTER.contains(&p))
                || seg.contains('@')
                || seg.to_ascii_lowercase().contains("%40"))
    };
    // Every request is logged and nearly no path holds a secret: look first, and build a
    // masked copy only for the few that do.
    let mut prev = None;
    let mut any = false;
    for seg in path.split('/') {
        any |= secret(prev, seg);
        prev = Some(seg);
    }
    if !any {
        return path.into();
    }
    let mut prev = None;
    let masked: Vec<&str> = path
        .split('/')
        .map(|seg| {
            let out = if secret(prev, seg) { "***" } else { seg };
            prev = Some(seg);
            out
        })
        .collect();
    masked.join("/").into()
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn tokens_and_emails_are_masked_and_other_paths_kept() {
        assert_eq!(
            loggable_path("/vouchers/print/AbC123xyz"),
            "/vouchers/print/***"
        );
        assert_eq!(
            loggable_path("/api/authentication/v1/members/ann@x.fr/sites/1/exists"),
            "/api/authentication/v1/members/***/sites/1/exists"
        );
        assert_eq!(loggable_path("/gr/find/a%40b.fr"), "/gr/find/***");
        assert_eq!(loggable_path("/fr/sale/1001"), "/fr/sale/1001");
        assert_eq!(loggable_path("/"), "/");
        assert_eq!(loggable_path("/vouchers/print/"), "/vouchers/print/");
    }
}

//! A short-lived cache of pages as anonymous visitors see them (home, open-door catalogs,
//! product and brand pages). Everyone without a session sees the same HTML for a page,
//! except two per-response values: the XSRF token (bound to the visitor) and the CSP
//! nonce (fresh per response). The cached copy holds placeholders in their place, and
//! each hit gets the visitor's token and a new nonce, so caching weakens neither.
//! Members never hit the cache: their pages carry their favourites, holds and name.
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use bytes::Bytes;

use app::context::RequestCtx;

use crate::AppCtx;

// Header values cannot hold control characters: plain markers no page text contains.
const TOKEN_MARK: &str = "__rosace_cached_xsrf_9c41__";
const NONCE_MARK: &str = "__rosace_cached_nonce_9c41__";
/// Entries kept at most; the cache is cleared when full (pages are cheap to render again).
const MAX_ENTRIES: usize = 2048;
const MAX_BODY: usize = 4 * 1024 * 1024;
const STALE_LIFETIMES: u32 = 5;

struct Entry {
    at: Instant,
    /// One request renders the page again once it is stale; the others keep getting the
    /// stale copy meanwhile instead of all rendering it at once.
    refreshing: AtomicBool,
    status: StatusCode,
    headers: HeaderMap,
    body: Template,
}

/// A cached page cut at its per-visitor values: the text between them is shared by every
/// hit (reference-counted), so serving a page copies none of its bytes.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(Bytes),
    Token,
    Nonce,
}

struct Template {
    pieces: Vec<Piece>,
    text_len: usize,
}

impl Template {
    fn parse(html: &str) -> Self {
        let mut pieces = Vec::new();
        let mut rest = html;
        let mut text_len = 0;
        loop {
            let next = [(TOKEN_MARK, Piece::Token), (NONCE_MARK, Piece::Nonce)]
                .into_iter()
                .filter_map(|(mark, piece)| rest.find(mark).map(|at| (at, mark.len(), piece)))
                .min_by_key(|(at, _, _)| *at);
            let Some((at, len, piece)) = next else {
                break;
            };
            if at > 0 {
                text_len += at;
                pieces.push(Piece::Text(Bytes::copy_from_slice(&rest.as_bytes()[..at])));
            }
            pieces.push(piece);
            rest = &rest[at + len..];
        }
        if !rest.is_empty() {
            text_len += rest.len();
            pieces.push(Piece::Text(Bytes::copy_from_slice(rest.as_bytes())));
        }
        Template { pieces, text_len }
    }

    fn fill(&self, xsrf: &str, nonce: &str) -> Chunks {
        let xsrf = Bytes::copy_from_slice(xsrf.as_bytes());
        let nonce = Bytes::copy_from_slice(nonce.as_bytes());
        let mut len = self.text_len;
        let chunks = self
            .pieces
            .iter()
            .map(|p| match p {
                Piece::Text(b) => b.clone(),
                Piece::Token => {
                    len += xsrf.len();
                    xsrf.clone()
                }
                Piece::Nonce => {
                    len += nonce.len();
                    nonce.clone()
                }
            })
            .collect::<Vec<_>>();
        Chunks {
            chunks: chunks.into_iter().rev().collect(),
            remaining: len as u64,
        }
    }
}

/// A body of ready chunks with its exact length (so the response keeps a Content-Length).
struct Chunks {
    /// In reverse order: the next chunk is popped from the end.
    chunks: Vec<Bytes>,
    remaining: u64,
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let next = self.chunks.pop();
        if let Some(b) = &next {
            self.remaining -= b.len() as u64;
        }
        std::task::Poll::Ready(next.map(|b| Ok(http_body::Frame::data(b))))
    }

    fn is_end_stream(&self) -> bool {
        self.chunks.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.remaining)
    }
}

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<HashMap<String, Arc<Entry>>>,
}

fn nonce_of(headers: &HeaderMap) -> Option<String> {
    let csp = headers
        .get(header::CONTENT_SECURITY_POLICY)?
        .to_str()
        .ok()?;
    let start = csp.find("'nonce-")? + "'nonce-".len();
    let end = csp[start..].find('\'')? + start;
    Some(csp[start..end].to_string()).filter(|n| n.len() >= 16)
}

fn new_nonce() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    app::session::hex(&bytes)
}

/// The page for another visitor: their token, a new nonce in the body and the CSP.
fn serve(entry: &Entry, xsrf: &str) -> Response {
    let nonce = new_nonce();
    let mut res = Response::new(Body::new(entry.body.fill(xsrf, &nonce)));
    *res.status_mut() = entry.status;
    *res.headers_mut() = entry.headers.clone();
    if let Some(csp) = entry
        .headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| HeaderValue::from_str(&v.replace(NONCE_MARK, &nonce)).ok())
    {
        res.headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    res
}

fn cacheable_request(req: &Request) -> Option<(String, String)> {
    if req.method() != Method::GET {
        return None;
    }
    let path = req.uri().path();
    if path.starts_with("/api/") || crate::middleware::is_static(path) {
        return None;
    }
    let ctx = req.extensions().get::<RequestCtx>()?;
    if ctx.member_id.is_some() {
        return None;
    }
    // Everything the page depends on besides the token: the site and what the visitor
    // answered to the consent banner (the rest of an anonymous context is the same for all).
    let key = format!("{}|{}|{:?}", req.uri(), ctx.site_id, ctx.onboarding);
    Some((key, ctx.xsrf.clone()))
}

pub async fn layer(State(app): State<Arc<AppCtx>>, req: Request, next: Next) -> Response {
    let ttl = Duration::from_millis(app.config.page_cache_ms);
    let Some((key, xsrf)) = cacheable_request(&req).filter(|_| !ttl.is_zero()) else {
        return next.run(req).await;
    };
    let found = app
        .page_cache
        .entries
        .lock()
        .ok()
        .and_then(|m| m.get(&key).cloned());
    if let Some(entry) = found {
        let age = entry.at.elapsed();
        let fresh = age < ttl;
        // A stale copy (up to a few lifetimes old) is still served while one request
        // renders the page again.
        if fresh || (age < ttl * STALE_LIFETIMES && entry.refreshing.swap(true, Ordering::AcqRel)) {
            return serve(&entry, &xsrf);
        }
    }
    let res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    // Only complete, anonymous, cookie-free 200 pages are shared.
    if res.status() != StatusCode::OK || !html || res.headers().contains_key(header::SET_COOKIE) {
        return res;
    }
    let Some(nonce) = nonce_of(res.headers()) else {
        return res;
    };
    let (parts, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return Response::from_parts(parts, Body::empty());
    };
    if let Ok(text) = std::str::from_utf8(&bytes) {
        let template = text.replace(&xsrf, TOKEN_MARK).replace(&nonce, NONCE_MARK);
        let mut headers = parts.headers.clone();
        headers.remove(header::CONTENT_LENGTH);
        // A copy whose policy could not take the marker is not shared: its nonce would not
        // match the page's scripts.
        let csp = headers
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| HeaderValue::from_str(&v.replace(&nonce, NONCE_MARK)).ok());
        if let (Some(csp), Ok(mut m)) = (csp, app.page_cache.entries.lock()) {
            headers.insert(header::CONTENT_SECURITY_POLICY, csp);
            if m.len() >= MAX_ENTRIES {
                m.clear();
            }
            m.insert(
                key,
                Arc::new(Entry {
                    at: Instant::now(),
                    refreshing: AtomicBool::new(false),
                    status: parts.status,
                    headers,
                    body: Template::parse(&template),
                }),
            );
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonce_is_read_from_the_policy() {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "script-src 'self' 'nonce-abcdefabcdefabcdef12' 'wasm-unsafe-eval'",
            ),
        );
        assert_eq!(nonce_of(&h).as_deref(), Some("abcdefabcdefabcdef12"));
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("script-src 'nonce-'"),
        );
        assert_eq!(nonce_of(&h), None);
    }

    #[test]
    fn a_hit_carries_the_visitors_token_and_a_fresh_nonce() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_str(&format!("script-src 'nonce-{NONCE_MARK}'")).unwrap(),
        );
        let entry = Entry {
            at: Instant::now(),
            refreshing: AtomicBool::new(false),
            status: StatusCode::OK,
            headers,
            body: Template::parse(&format!(
                "<html data-x=\"{TOKEN_MARK}\"><script nonce=\"{NONCE_MARK}\"></script>"
            )),
        };
        let a = serve(&entry, "token-a");
        assert_eq!(a.status(), StatusCode::OK);
        let b = serve(&entry, "token-b");
        let body = |r: Response| async move {
            String::from_utf8(to_bytes(r.into_body(), MAX_BODY).await.unwrap().to_vec()).unwrap()
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (a, b) = rt.block_on(async { (body(a).await, body(b).await) });
        assert!(a.contains("token-a") && !a.contains("token-b"));
        assert!(b.contains("token-b"));
        let nonce = |s: &str| {
            s.split("nonce=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_string()
        };
        assert_ne!(nonce(&a), nonce(&b));
        assert_eq!(nonce(&a).len(), 32);
    }

    #[test]
    fn a_template_is_cut_at_every_marker_and_refilled_whole() {
        let html = format!("{NONCE_MARK}a{TOKEN_MARK}{TOKEN_MARK}bc{NONCE_MARK}");
        let t = Template::parse(&html);
        assert_eq!(
            t.pieces,
            vec![
                Piece::Nonce,
                Piece::Text(Bytes::from_static(b"a")),
                Piece::Token,
                Piece::Token,
                Piece::Text(Bytes::from_static(b"bc")),
                Piece::Nonce,
            ]
        );
        let body = t.fill("TT", "N");
        assert_eq!(http_body::Body::size_hint(&body).exact(), Some(9));
        let bytes = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(to_bytes(Body::new(body), MAX_BODY))
            .unwrap();
        assert_eq!(&bytes[..], b"NaTTTTbcN");
        assert_eq!(
            Template::parse("plain").pieces,
            vec![Piece::Text(Bytes::from_static(b"plain"))]
        );
    }
}

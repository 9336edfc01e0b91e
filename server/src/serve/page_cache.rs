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

use app::context::RequestCtx;

use super::page_template::Template;

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

#[derive(Default)]
pub struct PageCache {
    /// How long a copy is fresh (0: the cache is off).
    ttl: Duration,
    entries: Mutex<HashMap<String, Arc<Entry>>>,
    /// Pages being rendered with no usable copy: others asking for them wait for that
    /// render instead of all rendering at once (a burst after a quiet spell).
    rendering: Mutex<HashMap<String, Arc<tokio::sync::Notify>>>,
    renders: std::sync::atomic::AtomicU64,
}

impl PageCache {
    pub fn new(ttl: Duration) -> PageCache {
        PageCache {
            ttl,
            ..Default::default()
        }
    }

    /// Pages rendered to fill the cache since start (for tests and diagnostics).
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }
}

/// Ends a render: forgets it and wakes whoever waits for it, however the render ended.
struct Rendering<'a> {
    cache: &'a PageCache,
    key: &'a str,
}

impl Drop for Rendering<'_> {
    fn drop(&mut self) {
        if let Ok(mut m) = self.cache.rendering.lock() {
            if let Some(n) = m.remove(self.key) {
                n.notify_waiters();
            }
        }
    }
}

/// How long a request waits for another's render before rendering the page itself.
const WAIT_FOR_RENDER: Duration = Duration::from_secs(5);

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
    app::platform::session::hex(&bytes)
}

/// Whether the client takes gzip (`gzip` listed without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case("gzip") && !refused
        })
}

/// The page for another visitor: their token, a new nonce in the body and the CSP.
fn serve(entry: &Entry, xsrf: &str, gzip: bool) -> Response {
    let nonce = new_nonce();
    let body = if gzip {
        entry.body.fill_gzip(xsrf, &nonce)
    } else {
        entry.body.fill(xsrf, &nonce)
    };
    let mut res = Response::new(Body::new(body));
    *res.status_mut() = entry.status;
    *res.headers_mut() = entry.headers.clone();
    if gzip {
        // Already compressed: the compression layer leaves it as it is.
        res.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    res.headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    // How old this copy is, as any cache in front of an origin says it.
    res.headers_mut()
        .insert(header::AGE, HeaderValue::from(entry.at.elapsed().as_secs()));
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

fn cacheable_request(req: &Request) -> Option<(String, String, bool)> {
    if req.method() != Method::GET {
        return None;
    }
    let path = req.uri().path();
    if path.starts_with("/api/") || super::is_static(path) {
        return None;
    }
    let ctx = req.extensions().get::<RequestCtx>()?;
    if ctx.member_id.is_some() {
        return None;
    }
    // Everything the page depends on besides the token: the site and what the visitor
    // answered to the consent banner (the rest of an anonymous context is the same for all).
    let key = format!("{}|{}|{:?}", req.uri(), ctx.site_id, ctx.onboarding);
    Some((key, ctx.xsrf.clone(), accepts_gzip(req.headers())))
}

pub async fn layer(State(cache): State<Arc<PageCache>>, req: Request, next: Next) -> Response {
    let ttl = cache.ttl;
    let Some((key, xsrf, gzip)) = cacheable_request(&req).filter(|_| !ttl.is_zero()) else {
        return next.run(req).await;
    };
    let lookup = || cache.entries.lock().ok().and_then(|m| m.get(&key).cloned());
    if let Some(entry) = lookup() {
        let age = entry.at.elapsed();
        let fresh = age < ttl;
        // A stale copy (up to a few lifetimes old) is still served while one request
        // renders the page again.
        if fresh || (age < ttl * STALE_LIFETIMES && entry.refreshing.swap(true, Ordering::AcqRel)) {
            return serve(&entry, &xsrf, gzip);
        }
    }
    // No usable copy: render it, unless another request already is.
    let waiting = {
        let Ok(mut rendering) = cache.rendering.lock() else {
            return next.run(req).await;
        };
        match rendering.get(&key) {
            Some(n) => Some(n.clone()),
            None => {
                rendering.insert(key.clone(), Arc::new(tokio::sync::Notify::new()));
                None
            }
        }
    };
    if let Some(notify) = waiting {
        let notified = notify.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        // The render may have ended between the two locks.
        let done = cache
            .rendering
            .lock()
            .map(|m| !m.get(&key).is_some_and(|n| Arc::ptr_eq(n, &notify)))
            .unwrap_or(true);
        if !done {
            let _ = tokio::time::timeout(WAIT_FOR_RENDER, notified).await;
        }
        if let Some(entry) = lookup().filter(|e| e.at.elapsed() < ttl * STALE_LIFETIMES) {
            return serve(&entry, &xsrf, gzip);
        }
        // That render was not shareable (or too slow): this request renders its own.
        return next.run(req).await;
    }
    let _rendering = Rendering {
        cache: &cache,
        key: &key,
    };
    cache.renders.fetch_add(1, Ordering::Relaxed);
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
        if let Some(csp) = csp {
            headers.insert(header::CONTENT_SECURITY_POLICY, csp);
            // Cut and deflated before taking the lock every hit goes through.
            let entry = Arc::new(Entry {
                at: Instant::now(),
                refreshing: AtomicBool::new(false),
                status: parts.status,
                headers,
                body: Template::parse(&template, TOKEN_MARK, NONCE_MARK),
            });
            if let Ok(mut m) = cache.entries.lock() {
                if m.len() >= MAX_ENTRIES {
                    m.clear();
                }
                m.insert(key.clone(), entry);
            }
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
            body: Template::parse(
                &format!("<html data-x=\"{TOKEN_MARK}\"><script nonce=\"{NONCE_MARK}\"></script>"),
                TOKEN_MARK,
                NONCE_MARK,
            ),
        };
        let a = serve(&entry, "token-a", false);
        assert_eq!(a.status(), StatusCode::OK);
        assert_eq!(a.headers().get(header::CONTENT_ENCODING), None);
        // The second visitor takes gzip: the same page, compressed, with their values.
        let b = serve(&entry, "token-b", true);
        assert_eq!(b.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(b.headers()[header::VARY], "accept-encoding");
        let body = |r: Response| async move {
            let gzip = r.headers().contains_key(header::CONTENT_ENCODING);
            let bytes = to_bytes(r.into_body(), MAX_BODY).await.unwrap().to_vec();
            if gzip {
                use std::io::Read;
                let mut s = String::new();
                flate2::read::GzDecoder::new(&bytes[..])
                    .read_to_string(&mut s)
                    .unwrap();
                s
            } else {
                String::from_utf8(bytes).unwrap()
            }
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
    fn gzip_is_taken_unless_refused() {
        let with = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(v));
            accepts_gzip(&h)
        };
        assert!(with("gzip, deflate, br, zstd"));
        assert!(with("br;q=1.0, GZIP;q=0.5"));
        assert!(!with("gzip;q=0, br"));
        assert!(!with("identity"));
        assert!(!with("x-gzip"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }
}

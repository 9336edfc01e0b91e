//! Load shedding: at most `ROSACE_MAX_IN_FLIGHT` pages and `ROSACE_MAX_CALLS_IN_FLIGHT` API
//! calls are worked on at once, and the next ones get 503 with `Retry-After` straight away instead of queueing
//! until every request is slow. Written here rather than with tower's `ConcurrencyLimit` and
//! `LoadShed`: those turn an overload into an error that needs a `HandleError` layer to
//! become a response, and they cannot leave `/health` out (a busy shop must still say it
//! is alive, or its orchestrator restarts it at the worst moment).
//!
//! Pages and API calls count apart (two bulkheads): at a sale opening the calls that write
//! (adds, freezes, payments) wait for the database's write connection, hundreds at a time,
//! using no core while they wait; counted with the pages they took every place and members
//! who only browsed were turned away (a third of the opening's page views were shed).
//! Of the calls in flight only `ROSACE_MAX_CALLS_RUNNING` run at once ([`in_turn`]); the
//! rest wait in arrival order: thousands of writes running together contended for the
//! database and took the cores the pages needed (on PostgreSQL members' page p99 near a
//! second), where a few dozen running finish more purchases a second.
//!
//! A shed request is answered in the visitor's language: a page asked for by a browser
//! gets a small page of its own (what happened, a link that asks again), made once per
//! site; an API call gets the API's error body. Nothing of the shop's own steps runs for
//! it (no session, no database): shedding must stay cheaper than serving.
use std::sync::{Arc, LazyLock};

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use bytes::Bytes;
// rsa's own SHA-256 (rsa is here for the test identity provider): no crate of its own.
use rsa::sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::state::AppCtx;

/// The pages and the API calls that may be worked on at once. None (0) sheds every page,
/// or every call, but `/health`: the browser tests and the HTML check see the busy page
/// that way.
#[derive(Clone)]
pub struct InFlight {
    pages: Arc<Semaphore>,
    calls: Arc<Semaphore>,
    /// Places of the calls in flight that run; the others wait for one.
    calls_running: Arc<Semaphore>,
}

impl InFlight {
    pub fn new(pages: usize, calls: usize, calls_running: usize) -> InFlight {
        InFlight {
            pages: Arc::new(Semaphore::new(pages)),
            calls: Arc::new(Semaphore::new(calls)),
            calls_running: Arc::new(Semaphore::new(calls_running)),
        }
    }
}

pub async fn shed<N, F>(app: &AppCtx, limit: &InFlight, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let path = req.uri().path();
    if path == "/health" {
        return next(req).await;
    }
    let places = if is_call(path) {
        &limit.calls
    } else {
        &limit.pages
    };
    let Ok(_permit) = places.try_acquire() else {
        let path = super::request_id::loggable_path(path);
        tracing::warn!(path = %path, "overloaded: request shed");
        return busy(app, &req);
    };
    next(req).await
}

fn is_call(path: &str) -> bool {
    path.starts_with("/api/")
}

/// The cart's adds wait in the cart's add writer, which joins every add waiting into one
/// transaction (`app::cart::writer`), in arrival order and using no core meanwhile. A
/// running place would only cap its batches: with 32 running, `bench-cart.sh` held 7.5k
/// units a second on SQLite and 3.0k on PostgreSQL, against 9.2-9.5k and 4.1-5.7k with
/// every add running (session 69).
fn queues_elsewhere(method: &Method, path: &str) -> bool {
    method == Method::POST && path == "/api/cartproxy/v1/item"
}

/// An API call in flight waits for one of the running places (`ROSACE_MAX_CALLS_RUNNING`)
/// before it runs; pages and the cart's adds do not. Inside the request's deadline: a call that waits too long
/// gets the 408 of any slow request.
pub async fn in_turn<N, F>(limit: &InFlight, req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let _running = if is_call(req.uri().path()) && !queues_elsewhere(req.method(), req.uri().path())
    {
        // The semaphore is never closed: this is a wait, never a failure.
        limit.calls_running.acquire().await.ok()
    } else {
        None
    };
    next(req).await
}

/// The answer to a shed request, in the language of its site.
fn busy(app: &AppCtx, req: &Request) -> Response {
    let (site_id, _) =
        super::context::resolve_site(app, req.headers(), req.uri().query().unwrap_or_default());
    let site = app::site::by_id_or_default(site_id);
    let mut res = if req.uri().path().starts_with("/api/") {
        let mut body =
            app::model::error::ErrorBody::new("overloaded", "errors.general_retry.notification");
        body.message = Some(app::site::i18n::t(site.lang, "errors.busy.message"));
        axum::Json(body).into_response()
    } else if wants_page(req.method(), req.headers()) {
        let page = &PAGES[site_index(site_id)];
        let mut res = page.body.clone().into_response();
        let headers = res.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        headers.insert(header::CONTENT_SECURITY_POLICY, page.policy.clone());
        res
    } else {
        app::site::i18n::t(site.lang, "errors.busy.message").into_response()
    };
    *res.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = res.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// A browser loading a page (not a script's call nor an image).
fn wants_page(method: &Method, headers: &HeaderMap) -> bool {
    (method == Method::GET || method == Method::HEAD)
        && headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
}

/// A site's busy page and the policy that lets its one style block apply.
struct BusyPage {
    body: Bytes,
    policy: HeaderValue,
}

/// The busy page's look: no stylesheet request at a moment the shop is short of time.
const STYLE: &str = "body{margin:0;font-family:system-ui,sans-serif;color:#222;background:#fff}\
main{max-width:32rem;margin:15vh auto;padding:0 1.25rem;text-align:center}\
h1{font-size:1.5rem}p{line-height:1.5}\
a{display:inline-block;margin-top:.5rem;padding:.75rem 1.5rem;border-radius:.25rem;\
background:#222;color:#fff;text-decoration:none}a:focus-visible{outline:3px solid #06c;outline-offset:2px}";

/// One page per site, in the order of `app::site::SITES`.
static PAGES: LazyLock<Vec<BusyPage>> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
    let policy = HeaderValue::from_str(&format!(
        "default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ))
    .expect("the policy is ASCII");
    app::site::SITES
        .iter()
        .map(|site| BusyPage {
            body: Bytes::from(busy_page(site.lang, site.brand.name())),
            policy: policy.clone(),
        })
        .collect()
});

fn site_index(site_id: u16) -> usize {
    app::site::SITES
        .iter()
        .position(|s| s.site_id == site_id)
        .unwrap_or(0)
}

/// The page: what happened and a link to the same address (an empty `href` is the page
/// itself, query included), so nothing of the request is written into it.
fn busy_page(lang: &str, brand: &str) -> String {
    let t = |key: &str| html_escape::encode_text(&app::site::i18n::t(lang, key)).into_owned();
    let title = t("errors.busy.title");
    format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · {brand}</title><style>{STYLE}</style></head>\
         <body><main><h1>{title}</h1><p>{message}</p><p><a href=\"\">{retry}</a></p></main></body></html>",
        message = t("errors.busy.message"),
        retry = t("errors.busy.retry"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_has_a_busy_page_in_its_language() {
        for (site, page) in app::site::SITES.iter().zip(PAGES.iter()) {
            let html = std::str::from_utf8(&page.body).unwrap();
            assert!(
                html.contains(&format!("lang=\"{}\"", site.lang)),
                "{}",
                site.site_id
            );
            let title = app::site::i18n::t(site.lang, "errors.busy.title");
            assert!(html.contains(&html_escape::encode_text(&title).into_owned()));
            assert!(html.contains(site.brand.name()));
            assert!(
                !html.contains("errors.busy"),
                "no raw key on site {}",
                site.site_id
            );
        }
        let de = &PAGES[site_index(2)];
        assert!(std::str::from_utf8(&de.body)
            .unwrap()
            .contains("Erneut versuchen"));
    }

    #[test]
    fn the_policy_lets_the_style_in_and_nothing_else() {
        let policy = PAGES[0].policy.to_str().unwrap();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
        assert!(policy.contains(&format!("style-src 'sha256-{hash}'")));
        assert!(policy.starts_with("default-src 'none'"));
        assert!(!policy.contains("script"));
    }
}

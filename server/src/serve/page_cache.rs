//! A short-lived cache of pages as anonymous visitors see them (home, open-door catalogs,
//! product and brand pages). Everyone without a session sees the same HTML for a page,
//! except two per-response values: the XSRF token (bound to the visitor) and the CSP
//! nonce (fresh per response). The cached copy holds placeholders in their place, and
//! each hit gets the visitor's token and a new nonce, so caching weakens neither.
//! Members never hit the cache: their pages carry their favourites, holds and name.
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use bytes::{BufMut, BytesMut};

use app::context::RequestCtx;

use super::page_template::Template;

// The placeholders of the visitor's token and nonce in a cached copy: random per process
// (a visitor cannot put them in a page's text through a search or a product sheet), plain
// letters and digits (header values cannot hold control characters). A page whose text
// holds one anyway is not cached.
static TOKEN_MARK: LazyLock<String> =
    LazyLock::new(|| format!("__rc_x{}__", app::platform::session::new_token()));
static NONCE_MARK: LazyLock<String> =
    LazyLock::new(|| format!("__rc_n{}__", app::platform::session::new_token()));
pub(super) const MAX_BODY: usize = 4 * 1024 * 1024;
const STALE_LIFETIMES: u32 = 5;
/// Memory the copies may take in all (text and deflated text); the least recently used
/// go first when a new copy needs room.
const DEFAULT_BUDGET: usize = 64 * 1024 * 1024;
/// Copies kept of one page with different query strings: a flood of made-up parameters
/// (`?z=1`, `?z=2`, ...) renders pages but cannot push the others out of the cache.
const MAX_VARIANTS: usize = 32;

pub(super) struct Entry {
    pub at: Instant,
    /// One request renders the page again once it is stale; the others keep getting the
    /// stale copy meanwhile instead of all rendering it at once.
    pub refreshing: AtomicBool,
    pub status: StatusCode,
    /// The headers a response of this copy starts with, plain and gzip (`Entry::new`): made
    /// once rather than adding the same ones to a copy of `headers` on every hit.
    sent: [HeaderMap; 2],
    /// The policy's text around its nonce, when it has one.
    policy: Option<Vec<String>>,
    pub body: Template,
    /// When it was last served (the cache's clock), for least-recently-used eviction.
    pub used: AtomicU64,
}

impl Entry {
    /// A copy made now of a page answered with `status` and `headers` (their policy's nonce
    /// already the placeholder), last used at `used` on the cache's clock.
    pub(super) fn new(status: StatusCode, headers: HeaderMap, body: Template, used: u64) -> Entry {
        let sent = |gzip: bool| {
            let mut h = headers.clone();
            if gzip {
                // Already compressed: the compression layer leaves it as it is.
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
            h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            h
        };
        let policy = headers
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .filter(|v| v.contains(NONCE_MARK.as_str()))
            .map(|v| v.split(NONCE_MARK.as_str()).map(str::to_string).collect());
        Entry {
            at: Instant::now(),
            refreshing: AtomicBool::new(false),
            status,
            sent: [sent(false), sent(true)],
            policy,
            body,
            used: AtomicU64::new(used),
        }
    }
}

/// The two placeholders, for the member templates (`member_pages`).
pub(super) fn token_mark() -> &'static str {
    TOKEN_MARK.as_str()
}

pub(super) fn nonce_mark() -> &'static str {
    NONCE_MARK.as_str()
}

/// The copies, what they take, and how many each page has.
#[derive(Default)]
struct Store {
    entries: HashMap<String, Arc<Entry>>,
    bytes: usize,
    /// Copies per page (path, site and consent; any query string).
    variants: HashMap<String, usize>,
}

impl Store {
    fn remove(&mut self, key: &str) {
        if let Some(e) = self.entries.remove(key) {
            self.bytes -= e.body.bytes();
            let page = page_of(key);
            if let Some(n) = self.variants.get_mut(page) {
                *n -= 1;
                if *n == 0 {
                    self.variants.remove(page);
                }
            }
        }
    }

    /// Keeps `entry` under `key` within the budget and the per-page cap: false when the
    /// page already has its share of variants or the copy alone is over the budget.
    fn insert(&mut self, key: String, entry: Arc<Entry>, budget: usize) -> bool {
        let size = entry.body.bytes();
        self.remove(&key);
        let page = page_of(&key).to_string();
        if size > budget || self.variants.get(&page).copied().unwrap_or(0) >= MAX_VARIANTS {
            return false;
        }
        if self.bytes + size > budget {
            // Down to 90% of the budget at once, so a full cache does not sort on every fill.
            let mut by_use: Vec<(u64, String)> = self
                .entries
                .iter()
                .map(|(k, e)| (e.used.load(Ordering::Relaxed), k.clone()))
                .collect();
            by_use.sort_unstable();
            let target = budget / 10 * 9;
            for (_, k) in by_use {
                if self.bytes + size <= target {
                    break;
                }
                self.remove(&k);
            }
        }
        self.bytes += size;
        *self.variants.entry(page).or_default() += 1;
        self.entries.insert(key, entry);
        true
    }
}

/// The page a key (`site|consent|experiments|uri`) belongs to: the key without its query string.
fn page_of(key: &str) -> &str {
    key.split_once('?').map_or(key, |(page, _)| page)
}

/// A copy found for a request (`PageCache::usable`).
pub(super) enum Usable {
    /// Serve it.
    Fresh(Arc<Entry>),
    /// Serve it, and render the page again: the copy is stale and nobody renders it yet.
    Renew(Arc<Entry>),
}

pub struct PageCache {
    /// How long a copy is fresh (0: the cache is off).
    ttl: Duration,
    budget: usize,
    clock: AtomicU64,
    store: Mutex<Store>,
    /// Pages being rendered with no usable copy: others asking for them wait for that
    /// render instead of all rendering at once (a burst after a quiet spell).
    rendering: Mutex<HashMap<String, Arc<tokio::sync::Notify>>>,
    renders: AtomicU64,
    front_hits: AtomicU64,
    /// Counts `clear`s: a render that began before one (it read what was cleared away)
    /// does not put its copy back.
    generation: AtomicU64,
}

impl PageCache {
    pub fn new(ttl: Duration) -> PageCache {
        PageCache::with_budget(ttl, DEFAULT_BUDGET)
    }

    /// A cache whose copies take at most `budget` bytes.
    pub fn with_budget(ttl: Duration, budget: usize) -> PageCache {
        PageCache {
            ttl,
            budget,
            clock: AtomicU64::new(0),
            store: Mutex::new(Store::default()),
            rendering: Mutex::new(HashMap::new()),
            renders: AtomicU64::new(0),
            front_hits: AtomicU64::new(0),
            generation: AtomicU64::new(0),
        }
    }

    /// The copies kept and the bytes they take (for tests and diagnostics).
    pub fn usage(&self) -> (usize, usize) {
        self.store
            .lock()
            .map(|s| (s.entries.len(), s.bytes))
            .unwrap_or_default()
    }

    /// Drops every copy (visitors' pages and members' templates): after a moderator takes
    /// a product off the shop, no page may show it again, not even a stale copy.
    pub fn clear(&self) {
        if let Ok(mut s) = self.store.lock() {
            // Under the lock `insert` checks it with: a copy is either put before this
            // (and dropped here) or refused after it.
            self.generation.fetch_add(1, Ordering::AcqRel);
            *s = Store::default();
        }
    }

    /// What a render notes before it reads anything, for `insert`.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Pages rendered to fill the cache since start (for tests and diagnostics).
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    /// Pages answered before the request steps (`front_hit`) since start (for tests).
    pub fn front_hits(&self) -> u64 {
        self.front_hits.load(Ordering::Relaxed)
    }

    pub(super) fn count_render(&self) {
        self.renders.fetch_add(1, Ordering::Relaxed);
    }

    fn lookup(&self, key: &str) -> Option<Arc<Entry>> {
        let entry = self.store.lock().ok()?.entries.get(key).cloned()?;
        entry.used.store(
            self.clock.fetch_add(1, Ordering::Relaxed),
            Ordering::Relaxed,
        );
        Some(entry)
    }

    /// The copy of `key` to serve: a fresh one, or a stale one (up to a few lifetimes old).
    /// The first caller to find it stale is told to render it again (`Usable::Renew`); the
    /// others meanwhile get it as it is. None tells the caller to render it before answering.
    pub(super) fn usable(&self, key: &str) -> Option<Usable> {
        let entry = self.lookup(key)?;
        let age = entry.at.elapsed();
        if age < self.ttl {
            return Some(Usable::Fresh(entry));
        }
        if age >= self.ttl * STALE_LIFETIMES {
            return None;
        }
        Some(if entry.refreshing.swap(true, Ordering::AcqRel) {
            Usable::Fresh(entry)
        } else {
            Usable::Renew(entry)
        })
    }

    /// Starts rendering `key`: a guard that ends the render when dropped, or none when
    /// another request was rendering it (waited for, at most a few seconds).
    pub(super) async fn start_render<'a>(&'a self, key: &'a str) -> Option<Rendering<'a>> {
        let waiting = {
            let mut rendering = self.rendering.lock().ok()?;
            match rendering.get(key) {
                Some(n) => n.clone(),
                None => {
                    rendering.insert(key.to_string(), Arc::new(tokio::sync::Notify::new()));
                    return Some(Rendering { cache: self, key });
                }
            }
        };
        let notified = waiting.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let done = self
            .rendering
            .lock()
            .map(|m| !m.get(key).is_some_and(|n| Arc::ptr_eq(n, &waiting)))
            .unwrap_or(true);
        if !done {
            let _ = tokio::time::timeout(WAIT_FOR_RENDER, notified).await;
        }
        None
    }

    /// Drops `entry`, the copy of `key`, unless another has replaced it.
    pub(super) fn forget(&self, key: &str, entry: &Arc<Entry>) {
        if let Ok(mut store) = self.store.lock() {
            if store
                .entries
                .get(key)
                .is_some_and(|e| Arc::ptr_eq(e, entry))
            {
                store.remove(key);
            }
        }
    }

    /// Keeps `entry` as the copy of `key`, unless the cache was cleared since its render
    /// began (`generation`, read before it): what it shows may be what was taken away.
    pub(super) fn insert(&self, key: String, entry: Arc<Entry>, generation: u64) {
        entry.used.store(
            self.clock.fetch_add(1, Ordering::Relaxed),
            Ordering::Relaxed,
        );
        if let Ok(mut store) = self.store.lock() {
            if self.generation.load(Ordering::Acquire) == generation {
                store.insert(key, entry, self.budget);
            }
        }
    }
}

/// Ends a render: forgets it and wakes whoever waits for it, however the render ended.
pub(super) struct Rendering<'a> {
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

pub(super) fn nonce_of(headers: &HeaderMap) -> Option<String> {
    let csp = headers
        .get(header::CONTENT_SECURITY_POLICY)?
        .to_str()
        .ok()?;
    let start = csp.find("'nonce-")? + "'nonce-".len();
    let end = csp[start..].find('\'')? + start;
    Some(csp[start..end].to_string()).filter(|n| n.len() >= 16)
}

/// The response's policy with its nonce replaced by the placeholder: none when the policy
/// cannot take it (a copy whose nonce would not match its scripts is not shared).
pub(super) fn policy_with_mark(headers: &HeaderMap, nonce: &str) -> Option<HeaderValue> {
    let csp = headers
        .get(header::CONTENT_SECURITY_POLICY)?
        .to_str()
        .ok()?;
    HeaderValue::from_str(&csp.replace(nonce, NONCE_MARK.as_str())).ok()
}

pub(super) fn new_nonce() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    app::platform::session::hex(&bytes)
}

/// Whether the client takes gzip (`gzip` listed without `q=0`).
pub(super) fn accepts_gzip(headers: &HeaderMap) -> bool {
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

/// The page for another visitor at `now`: their token, a new nonce in the body and the CSP.
fn serve(entry: &Entry, xsrf: &str, gzip: bool, now: Instant) -> Response {
    let nonce = new_nonce();
    let fill = super::page_template::Visitor {
        xsrf,
        nonce: &nonce,
    };
    respond(
        entry,
        &fill,
        &nonce,
        gzip,
        Some(now.saturating_duration_since(entry.at)),
    )
}

/// The response of a copy filled with `fill`'s values (`nonce` is the one in them), with
/// the copy's `age` when it is one.
pub(super) fn respond(
    entry: &Entry,
    fill: &dyn super::page_template::Fill,
    nonce: &str,
    gzip: bool,
    age: Option<Duration>,
) -> Response {
    let body = if gzip {
        entry.body.fill_gzipped(fill)
    } else {
        entry.body.fill_plain(fill)
    };
    let mut res = Response::new(Body::from(body));
    *res.status_mut() = entry.status;
    let mut headers = entry.sent[usize::from(gzip)].clone();
    // Room for what the steps add to a hit (cookies, security headers, the request id):
    // one allocation rather than the map growing while they are added.
    headers.reserve(12);
    // How old this copy is, as any cache in front of an origin says it (a member's page
    // is theirs, not a copy).
    if let Some(age) = age {
        headers.insert(header::AGE, HeaderValue::from(age.as_secs()));
    }
    if let Some(texts) = &entry.policy {
        let len = texts.iter().map(String::len).sum::<usize>() + nonce.len() * texts.len();
        let mut policy = BytesMut::with_capacity(len);
        for (n, text) in texts.iter().enumerate() {
            if n > 0 {
                policy.put_slice(nonce.as_bytes());
            }
            policy.put_slice(text.as_bytes());
        }
        if let Ok(v) = HeaderValue::from_maybe_shared(policy.freeze()) {
            headers.insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    *res.headers_mut() = headers;
    res
}

/// A GET of a page whose address may be shared between visitors.
fn shareable(req: &Request) -> bool {
    if req.method() != Method::GET {
        return false;
    }
    let path = req.uri().path();
    if path.starts_with("/api/") || super::is_static(path) {
        return false;
    }
    // A refused form shown again holds what that visitor typed (from their draft cookie).
    if app::ui::draft::is_retry(req.uri().query()) {
        return false;
    }
    // A pending social sign-in's step shows its identity only to the browser that started
    // it (review N5), and a "secure your account" link's page its address: never a copy
    // for the next browser with the same address.
    !req.uri().query().is_some_and(|q| {
        q.split('&')
            .any(|p| p.starts_with("ticket=") || p.starts_with("token="))
    })
}

fn cacheable_request(req: &Request) -> Option<(String, String, bool)> {
    if !shareable(req) {
        return None;
    }
    let ctx = req.extensions().get::<RequestCtx>()?;
    // A member's page, or an operator's preview (rendered for that browser alone).
    if ctx.member_id.is_some() || ctx.preview_at.is_some() {
        return None;
    }
    // Everything the page depends on besides the token: the site, what the visitor
    // answered to the consent banner and their experiments' variations (the rest of an
    // anonymous context is the same for all). Those first: the key up to the query string
    // names the page (`page_of`).
    let key = page_key("", ctx, req.uri());
    Some((key, ctx.xsrf.clone(), accepts_gzip(req.headers())))
}

/// The cache key of a page: `site|consent|popin|banners|variations|uri` (after `prefix`),
/// each string with its length before it so that no two contexts share a key. Everything
/// a shared page depends on besides the per-response values is in it; the onboarding view
/// is taken apart field by field, so a field added to it does not compile until it is
/// here. Written by hand: `Debug` of the context took about 1% of a cached page's CPU.
pub(super) fn page_key(prefix: &str, ctx: &RequestCtx, uri: &axum::http::Uri) -> String {
    page_key_of(prefix, ctx.site_id, &ctx.onboarding, &ctx.experiments, uri)
}

/// [`page_key`] from the parts of a context it reads.
fn page_key_of(
    prefix: &str,
    site_id: u16,
    onboarding: &app::model::onboarding::OnboardingView,
    experiments: &app::model::experiments::Experiments,
    uri: &axum::http::Uri,
) -> String {
    use std::fmt::Write;
    fn text(key: &mut String, s: &str) {
        let _ = write!(key, "{}:{s}", s.len());
    }
    let app::model::onboarding::OnboardingView {
        consent,
        popin,
        adot_banner,
        app_banner,
        new_member_overlay,
    } = onboarding;
    let mut key = String::with_capacity(48 + uri.path().len() + uri.query().map_or(0, str::len));
    let _ = write!(key, "{prefix}{site_id}|");
    match consent {
        None => key.push('-'),
        Some(answers) => {
            for (name, accepted) in answers {
                text(&mut key, name);
                key.push(if *accepted { '1' } else { '0' });
            }
        }
    }
    match popin {
        None => key.push_str("|-|"),
        Some((kind, version)) => {
            let _ = write!(key, "|{kind}.{version}|");
        }
    }
    for flag in [adot_banner, app_banner, new_member_overlay] {
        key.push(if *flag { '1' } else { '0' });
    }
    key.push('|');
    for (experiment, variation) in &experiments.assigned {
        let shared = app::experiments::rules::definition(experiment)
            .is_none_or(|d| d.feature.shown_on(uri.path()));
        if !shared {
            continue;
        }
        text(&mut key, experiment);
        text(&mut key, variation);
    }
    key.push('|');
    let _ = write!(key, "{uri}");
    key
}

/// The page's text with the placeholders in place of the visitor's token and nonce; none
/// when the text already holds a placeholder (it would be cut there on every hit).
fn with_marks(text: &str, xsrf: &str, nonce: &str) -> Option<String> {
    if text.contains(TOKEN_MARK.as_str()) || text.contains(NONCE_MARK.as_str()) {
        return None;
    }
    Some(text.replace(xsrf, &TOKEN_MARK).replace(nonce, &NONCE_MARK))
}

/// A visitor's page served from a fresh copy before any request step runs: a cached page
/// costs the shop the few things it must do for this visitor (their token, a nonce, the
/// cookies, the headers, the metrics) and none of the steps' plumbing. The decisions are the
/// steps' own functions; anything they would decide with the database or a render (a
/// session cookie, even a stale one, an operator's preview, the rest after a popin,
/// experiments the visitor consented to, a members-only page, a copy gone stale, an
/// encoding other than gzip for the compression layer) goes through the steps as before.
/// Load shedding and the request deadline guard work a hit does not do.
pub fn front_hit(app: &crate::state::AppCtx, req: &Request) -> Option<Response> {
    use crate::middleware::{context, cookies::cookie, experiments, request_id};
    let cache = &app.page_cache;
    if cache.ttl.is_zero() || !shareable(req) {
        return None;
    }
    let started = Instant::now();
    let path = req.uri().path();
    let headers = req.headers();
    let gzip = accepts_gzip(headers);
    if !gzip && headers.contains_key(header::ACCEPT_ENCODING) {
        return None;
    }
    if crate::backoffice::is_backoffice(path)
        || cookie(headers, crate::middleware::session_cookie_name(app)).is_some()
        || cookie(headers, crate::backoffice::preview::COOKIE).is_some()
        || cookie(headers, app::onboarding::rules::POPIN_REST_COOKIE).is_some()
    {
        return None;
    }
    // A visit a partner brought may get its cookies: the steps set them.
    if app::auth::attribution::partner::may_name_partner(
        req.uri().query().unwrap_or(""),
        crate::middleware::partner::referer(headers),
    ) {
        return None;
    }
    let route = app::routes::resolve(path)?;
    if route.access() == app::routes::Access::MembersOnly {
        return None;
    }
    let (site_id, set_site_cookie) =
        context::resolve_site(app, headers, req.uri().query().unwrap_or(""));
    let onboarding = context::onboarding_view(headers, None, false, app::platform::state::now());
    let (experiments, experiments_cookie) =
        experiments::without_consent(app, headers, &onboarding.consent)?;
    let key = page_key_of("", site_id, &onboarding, &experiments, req.uri());
    // A fresh copy, or a stale one while another request renders it again (as `usable`
    // decides, without claiming that render: a stale copy nobody renders goes to the steps,
    // whose first request renders it).
    let entry = cache.lookup(&key).filter(|e| {
        let age = started.saturating_duration_since(e.at);
        age < cache.ttl
            || (age < cache.ttl * STALE_LIFETIMES && e.refreshing.load(Ordering::Acquire))
    })?;
    let tokens = context::visitor_tokens(app, headers, None);
    let mut res = serve(&entry, &tokens.xsrf, gzip, started);
    let h = res.headers_mut();
    context::ContextCookies {
        experiments: experiments_cookie,
        site: set_site_cookie.then_some(site_id),
        end_popin_rest: false,
        app_brand: context::app_brand_due(headers, site_id),
        partner: Vec::new(),
    }
    .append(app, h);
    context::append_visitor_cookies(
        app,
        h,
        tokens.new_xsrf.then_some(tokens.xsrf.as_str()),
        (tokens.new_xsrf && tokens.new_visitor).then_some(tokens.visitor.as_str()),
    );
    // The security headers are in the copy's own (the steps' `headers::apply`, when it was
    // cached).
    request_id::answered(
        &request_id::id_of(headers),
        &Method::GET,
        path,
        &mut res,
        started,
    );
    let took = started.elapsed().as_secs_f64();
    if res.status() == StatusCode::OK {
        app.telemetry.page_hit(route.kind, took);
    } else {
        app.telemetry.request(
            &Method::GET,
            crate::middleware::metrics::page_label(route.kind),
            res.status().as_u16(),
            took,
        );
    }
    cache.front_hits.fetch_add(1, Ordering::Relaxed);
    Some(res)
}

pub async fn layer(app: &Arc<crate::state::AppCtx>, req: Request, next: Next) -> Response {
    let cache = &app.page_cache;
    if !cache.ttl.is_zero() {
        if let Some(key) = super::member_pages::key_for(&req) {
            return super::member_pages::layer(app.clone(), key, req, next).await;
        }
    }
    let ttl = cache.ttl;
    let Some((key, xsrf, gzip)) = cacheable_request(&req).filter(|_| !ttl.is_zero()) else {
        return next.run(req).await;
    };
    let lookup = || {
        let entry = cache.store.lock().ok()?.entries.get(&key).cloned()?;
        entry.used.store(
            cache.clock.fetch_add(1, Ordering::Relaxed),
            Ordering::Relaxed,
        );
        Some(entry)
    };
    if let Some(entry) = lookup() {
        let age = entry.at.elapsed();
        if age < ttl {
            return serve(&entry, &xsrf, gzip, Instant::now());
        }
        // A stale copy (up to a few lifetimes old) is still served, also to the request
        // that finds it stale first: that one has the page rendered again behind it,
        // instead of waiting for the render itself.
        if age < ttl * STALE_LIFETIMES {
            if !entry.refreshing.swap(true, Ordering::AcqRel) {
                renew(
                    app.clone(),
                    key.clone(),
                    xsrf.clone(),
                    entry.clone(),
                    &req,
                    next,
                );
            }
            return serve(&entry, &xsrf, gzip, Instant::now());
        }
    }
    // No usable copy: render it, unless another request already is (then its copy).
    let Some(_rendering) = cache.start_render(&key).await else {
        if let Some(entry) = lookup().filter(|e| e.at.elapsed() < ttl * STALE_LIFETIMES) {
            return serve(&entry, &xsrf, gzip, Instant::now());
        }
        // That render was not shareable (or too slow): this request renders its own.
        return next.run(req).await;
    };
    render_and_keep(app, &key, &xsrf, req, next).await.0
}

/// Renders `stale`'s page again in a task of its own, from a copy of `req`. A page that
/// can no longer be shared (a sale that closed, a page gone) loses its stale copy, so that
/// the next visitor gets what the shop says now instead of the old page.
fn renew(
    app: Arc<crate::state::AppCtx>,
    key: String,
    xsrf: String,
    stale: Arc<Entry>,
    req: &Request,
    next: Next,
) {
    // A shared page is a GET: nothing in its body.
    let mut copy = Request::new(Body::empty());
    *copy.method_mut() = req.method().clone();
    *copy.uri_mut() = req.uri().clone();
    *copy.version_mut() = req.version();
    *copy.headers_mut() = req.headers().clone();
    *copy.extensions_mut() = req.extensions().clone();
    tokio::spawn(async move {
        let Some(_rendering) = app.page_cache.start_render(&key).await else {
            return;
        };
        let (res, kept) = render_and_keep(&app, &key, &xsrf, copy, next).await;
        if kept {
            return;
        }
        if res.status().is_server_error() {
            // A failure of the moment (a busy database, load shed): the stale copy stays,
            // and the next request to find it tries again.
            stale.refreshing.store(false, Ordering::Release);
        } else {
            app.page_cache.forget(&key, &stale);
        }
    });
}

/// Renders `req`'s page through the rest of the steps and keeps it as the copy of `key`
/// when it may be shared: the response, and whether a copy was made.
async fn render_and_keep(
    app: &crate::state::AppCtx,
    key: &str,
    xsrf: &str,
    req: Request,
    next: Next,
) -> (Response, bool) {
    let cache = &app.page_cache;
    cache.renders.fetch_add(1, Ordering::Relaxed);
    let generation = cache.generation();
    let res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    // Only complete, anonymous, cookie-free 200 pages are shared, and none that says it is
    // the member's own.
    if res.status() != StatusCode::OK
        || !html
        || res.headers().contains_key(header::SET_COOKIE)
        || res
            .headers()
            .contains_key(app::ui::personal::NOT_SHARED_HEADER)
    {
        return (res, false);
    }
    let Some(nonce) = nonce_of(res.headers()) else {
        return (res, false);
    };
    let (parts, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return (Response::from_parts(parts, Body::empty()), false);
    };
    let mut kept = false;
    if let Some(template) = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|text| with_marks(text, xsrf, &nonce))
    {
        let mut headers = parts.headers.clone();
        headers.remove(header::CONTENT_LENGTH);
        // A copy whose policy could not take the marker is not shared: its nonce would not
        // match the page's scripts.
        if let Some(csp) = policy_with_mark(&headers, &nonce) {
            headers.insert(header::CONTENT_SECURITY_POLICY, csp);
            // A copy's hits answered before the steps (`front_hit`) get the security
            // headers from here.
            crate::middleware::headers::apply(app, &mut headers, false, false, false);
            // Cut and deflated before taking the lock every hit goes through.
            let entry = Arc::new(Entry::new(
                parts.status,
                headers,
                Template::parse(&template, &TOKEN_MARK, &NONCE_MARK),
                0,
            ));
            cache.insert(key.to_owned(), entry, generation);
            kept = true;
        }
    }
    (Response::from_parts(parts, Body::from(bytes)), kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Contexts that show a page differently never share its key, even with the
    /// separators inside their strings.
    #[test]
    fn page_keys_tell_every_context_apart() {
        let uri: axum::http::Uri = "/c/vente/1001/0?site=1".parse().unwrap();
        let base = RequestCtx {
            site_id: 1,
            ..Default::default()
        };
        let with = |f: &dyn Fn(&mut RequestCtx)| {
            let mut ctx = base.clone();
            f(&mut ctx);
            page_key("", &ctx, &uri)
        };
        let keys = [
            page_key("", &base, &uri),
            page_key("m|", &base, &uri),
            with(&|c| c.site_id = 66),
            with(&|c| c.onboarding.consent = Some(vec![])),
            with(&|c| c.onboarding.consent = Some(vec![("C0002".into(), true)])),
            with(&|c| c.onboarding.consent = Some(vec![("C0002".into(), false)])),
            with(&|c| c.onboarding.consent = Some(vec![("C0002|1".into(), true)])),
            with(&|c| c.onboarding.popin = Some((1, 2))),
            with(&|c| c.onboarding.popin = Some((12, 0))),
            with(&|c| c.onboarding.adot_banner = true),
            with(&|c| c.onboarding.app_banner = true),
            with(&|c| c.onboarding.new_member_overlay = true),
            with(&|c| c.experiments.assigned = vec![("ab".into(), "c".into())]),
            with(&|c| c.experiments.assigned = vec![("a".into(), "bc".into())]),
            with(&|c| {
                c.experiments.assigned = vec![("a".into(), "b".into()), ("c".into(), "d".into())]
            }),
        ];
        let distinct: std::collections::HashSet<&String> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "{keys:#?}");
        assert!(keys.iter().all(|k| k.ends_with("|/c/vente/1001/0?site=1")));
        assert_eq!(page_of(&keys[0]), "1|-|-|000||/c/vente/1001/0");
        // A variation whose feature shows on no shared page leaves the key as it is.
        let vouchers = vec![("member_vouchers_revamp".into(), "var1_enabled".into())];
        assert_eq!(
            with(&|c| c.experiments.assigned = vouchers.clone()),
            keys[0]
        );
        // One shown on one page only splits that page's key.
        let details = vec![("member_brands_place_details".into(), "var1_enabled".into())];
        assert_eq!(with(&|c| c.experiments.assigned = details.clone()), keys[0]);
        let place: axum::http::Uri = "/brandsplace?q=a".parse().unwrap();
        let mut treated = base.clone();
        treated.experiments.assigned = details;
        assert_ne!(page_key("", &treated, &place), page_key("", &base, &place));
    }

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
            HeaderValue::from_str(&format!("script-src 'nonce-{}'", *NONCE_MARK)).unwrap(),
        );
        let entry = Entry::new(
            StatusCode::OK,
            headers,
            Template::parse(
                &format!(
                    "<html data-x=\"{}\"><script nonce=\"{}\"></script>",
                    *TOKEN_MARK, *NONCE_MARK
                ),
                &TOKEN_MARK,
                &NONCE_MARK,
            ),
            0,
        );
        let a = serve(&entry, "token-a", false, Instant::now());
        assert_eq!(a.status(), StatusCode::OK);
        assert_eq!(a.headers().get(header::CONTENT_ENCODING), None);
        // The second visitor takes gzip: the same page, compressed, with their values.
        let b = serve(&entry, "token-b", true, Instant::now());
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
    fn marks_are_random_and_a_page_holding_one_is_not_cached() {
        assert!(TOKEN_MARK.len() > 32 && NONCE_MARK.len() > 32);
        assert_ne!(*TOKEN_MARK, *NONCE_MARK);
        assert!(!TOKEN_MARK.contains("9c41") && !NONCE_MARK.contains("9c41"));
        let page = "<p>t0ken1</p><script nonce=\"n0nce1\"></script>";
        let cut = with_marks(page, "t0ken1", "n0nce1").unwrap();
        assert_eq!(
            cut,
            format!(
                "<p>{}</p><script nonce=\"{}\"></script>",
                *TOKEN_MARK, *NONCE_MARK
            )
        );
        // A search for the placeholder itself: the page is served but never shared.
        let reflected = format!("<p>{}</p><script nonce=\"n0nce1\"></script>", *NONCE_MARK);
        assert_eq!(with_marks(&reflected, "t0ken1", "n0nce1"), None);
    }

    fn entry(size: usize, used: u64) -> Arc<Entry> {
        Arc::new(Entry::new(
            StatusCode::OK,
            HeaderMap::new(),
            Template::parse(&"x".repeat(size), &TOKEN_MARK, &NONCE_MARK),
            used,
        ))
    }

    #[test]
    fn a_render_begun_before_a_clear_does_not_put_its_copy_back() {
        let cache = PageCache::new(Duration::from_secs(60));
        cache.insert("1|A|/a".into(), entry(10, 0), cache.generation());
        assert_eq!(cache.usage().0, 1);
        // A render reads the product, a moderator takes it off the shop, the render ends.
        let began = cache.generation();
        cache.clear();
        assert_eq!(cache.usage().0, 0);
        cache.insert("1|A|/b".into(), entry(10, 0), began);
        assert_eq!(cache.usage().0, 0, "a copy from before the clear came back");
        // A render begun after it is kept.
        cache.insert("1|A|/b".into(), entry(10, 0), cache.generation());
        assert_eq!(cache.usage().0, 1);
    }

    #[test]
    fn a_full_cache_drops_the_least_recently_used_copies_not_all() {
        let one = entry(1000, 0).body.bytes();
        let mut store = Store::default();
        for n in 0..10u64 {
            assert!(store.insert(format!("1|A|/p{n}"), entry(1000, n), one * 10));
        }
        assert_eq!((store.entries.len(), store.bytes), (10, one * 10));
        // The home page was just served: it is the most recently used.
        store.entries["1|A|/p0"].used.store(100, Ordering::Relaxed);
        assert!(store.insert("1|A|/new".into(), entry(1000, 101), one * 10));
        assert!(store.bytes <= one * 9, "down to 90% of the budget");
        assert!(store.entries.contains_key("1|A|/p0"), "the hot page stays");
        assert!(store.entries.contains_key("1|A|/new"));
        assert!(
            !store.entries.contains_key("1|A|/p1"),
            "the coldest goes first"
        );
        // Replacing a copy does not count it twice.
        let before = store.bytes;
        assert!(store.insert("1|A|/new".into(), entry(1000, 102), one * 10));
        assert_eq!(store.bytes, before);
    }

    #[test]
    fn one_page_keeps_a_bounded_number_of_query_variants() {
        let mut store = Store::default();
        let budget = 1 << 30;
        assert!(store.insert("1|A|/c/x/1001/0".into(), entry(10, 0), budget));
        for n in 1..MAX_VARIANTS {
            assert!(store.insert(format!("1|A|/c/x/1001/0?z={n}"), entry(10, 0), budget));
        }
        assert!(!store.insert("1|A|/c/x/1001/0?z=flood".into(), entry(10, 0), budget));
        // Other pages, sites and consents still get their copies.
        assert!(store.insert("1|A|/c/x/1002/0?z=1".into(), entry(10, 0), budget));
        assert!(store.insert("2|A|/c/x/1001/0?z=1".into(), entry(10, 0), budget));
        assert_eq!(store.entries.len(), MAX_VARIANTS + 2);
        store.remove("1|A|/c/x/1001/0?z=1");
        assert!(store.insert("1|A|/c/x/1001/0?z=again".into(), entry(10, 0), budget));
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

//! Per-request layers: request id and logs, site and session resolution, access rules,
//! CSRF (signed double submit bound to the session), security headers.
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

use app::context::RequestCtx;
use app::platform::session::SessionMember;
use app::routes::{self, Access};

use crate::AppCtx;

pub const SITE_COOKIE: &str = "site";

/// What the session layer learned, for handlers.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub token: Option<String>,
    pub member: Option<SessionMember>,
    /// What CSRF tokens of this visitor are bound to.
    pub binding: String,
}

pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

pub fn session_cookie_name(app: &AppCtx) -> &'static str {
    if app.state.settings.secure_cookies {
        app::platform::session::SECURE_COOKIE
    } else {
        app::platform::session::COOKIE
    }
}

/// `Set-Cookie` for the session: HttpOnly, SameSite=Lax, Secure and `__Host-` over HTTPS.
pub fn session_cookie(app: &AppCtx, token: &str, max_age: Option<i64>) -> String {
    let mut c = format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Lax",
        session_cookie_name(app)
    );
    if let Some(age) = max_age {
        c.push_str(&format!("; Max-Age={age}"));
    }
    if app.state.settings.secure_cookies {
        c.push_str("; Secure");
    }
    c
}

pub fn xsrf_cookie(app: &AppCtx, token: &str) -> String {
    let mut c = format!(
        "{}={token}; Path=/; SameSite=Lax",
        app::platform::csrf::COOKIE
    );
    if app.state.settings.secure_cookies {
        c.push_str("; Secure");
    }
    c
}

pub fn binding_for(member: Option<&SessionMember>) -> String {
    member
        .map(|m| m.token_hash.clone())
        .unwrap_or_else(|| "anon".into())
}

/// Site of a request: mapped host first, then `?site=`, then the cookie, then site 1.
/// Returns the site and whether the cookie must be (re)set.
pub fn resolve_site(app: &AppCtx, headers: &HeaderMap, query: &str) -> (u16, bool) {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| h.split(':').next().unwrap_or(h).to_ascii_lowercase());
    if let Some(site) = host.and_then(|h| app.config.site_hosts.get(&h).copied()) {
        return (site, false);
    }
    let valid = |v: &str| {
        v.parse::<u16>()
            .ok()
            .filter(|id| app::site::by_id(*id).is_some())
    };
    if let Some(site) = query_param(query, "site").and_then(valid) {
        let cookie_site = cookie(headers, SITE_COOKIE).and_then(valid);
        return (site, cookie_site != Some(site));
    }
    if let Some(site) = cookie(headers, SITE_COOKIE).and_then(valid) {
        return (site, false);
    }
    (app::site::DEFAULT_SITE_ID, false)
}

pub fn client_key(app: &AppCtx, headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
    if app.config.trust_forwarded_for {
        if let Some(ip) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
        {
            return ip.trim().to_string();
        }
    }
    peer.map(|p| p.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Request id (taken from `X-Request-Id` or made up) on the log span and the response.
pub async fn request_id(req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:016x}", rand::random::<u64>()));
    let span =
        tracing::info_span!("request", id = %id, method = %req.method(), path = %req.uri().path());
    let started = std::time::Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::info!(
            status = res.status().as_u16(),
            ms = started.elapsed().as_millis() as u64,
            "done"
        )
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    res
}

/// Resolves site and session, applies the access rules of pages, and keeps the site and
/// XSRF cookies right. Runs before any page renders, so the rules hold without scripts.
pub async fn request_context(
    State(app): State<Arc<AppCtx>>,
    mut req: Request,
    next: Next,
) -> Response {
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let (site_id, set_site_cookie) = resolve_site(&app, req.headers(), &query);
    let now = app::platform::state::now();
    let token = cookie(req.headers(), session_cookie_name(&app)).map(str::to_string);
    let member = match &token {
        Some(t) => match app::platform::session::member_for_token(&app.state.db, t, now).await {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, "session lookup failed");
                None
            }
        },
        None => None,
    };
    let is_page = !path.starts_with("/api/") && !is_static(&path);
    if is_page && req.method() == Method::GET {
        if let Some(route) = routes::resolve(&path) {
            if route.access() == Access::MembersOnly && member.is_none() {
                let target = if query.is_empty() {
                    path.clone()
                } else {
                    format!("{path}?{query}")
                };
                return redirect(&routes::login_redirect(&target));
            }
        }
    }
    let binding = binding_for(member.as_ref());
    let secret = &app.state.settings.xsrf_secret;
    let current_xsrf = cookie(req.headers(), app::platform::csrf::COOKIE)
        .filter(|t| app::platform::csrf::is_valid(secret, &binding, t))
        .map(str::to_string);
    let (xsrf, new_xsrf) = match current_xsrf {
        Some(t) => (t, false),
        None => (app::platform::csrf::issue(secret, &binding), true),
    };
    let page_view = is_page && req.method() == Method::GET;
    let onboarding = if page_view {
        onboarding_view(&app, req.headers(), member.as_ref()).await
    } else {
        Default::default()
    };
    let cart_count = match (&member, page_view) {
        (Some(m), true) => app::cart::store::held_units(&app.state.db, m.member_id, now)
            .await
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "cannot count the cart's units");
                0
            }),
        _ => 0,
    };
    let ctx = RequestCtx {
        site_id,
        member_id: member.as_ref().map(|m| m.member_id),
        member_first_name: member.as_ref().map(|m| m.first_name.clone()),
        origins: app.origins.clone(),
        default_origin: app.config.public_origin.clone(),
        xsrf: xsrf.clone(),
        onboarding,
        cart_count,
    };
    req.extensions_mut().insert(ctx);
    req.extensions_mut().insert(SessionInfo {
        token,
        member,
        binding,
    });
    let mut res = next.run(req).await;
    if set_site_cookie {
        let c = format!("{SITE_COOKIE}={site_id}; Path=/; Max-Age=31536000; SameSite=Lax");
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    // Handlers that change the session set their own XSRF cookie.
    let handler_set_xsrf = res.headers().get_all(header::SET_COOKIE).iter().any(|v| {
        v.to_str()
            .is_ok_and(|s| s.starts_with(app::platform::csrf::COOKIE))
    });
    if is_page && new_xsrf && !handler_set_xsrf {
        if let Ok(v) = HeaderValue::from_str(&xsrf_cookie(&app, &xsrf)) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

/// Consent for everyone; popins and banners for members (spec 000 §6).
async fn onboarding_view(
    app: &AppCtx,
    headers: &HeaderMap,
    member: Option<&SessionMember>,
) -> app::model::onboarding::OnboardingView {
    use app::onboarding::rules;
    let consent = rules::parse_consent(cookie(headers, rules::CONSENT_COOKIE));
    let mut view = app::model::onboarding::OnboardingView {
        consent,
        ..Default::default()
    };
    if let Some(m) = member {
        match app::onboarding::store::load(&app.state.db, m.member_id).await {
            Ok(state) => {
                view.popin = rules::next_popin(&state).map(|(k, v)| (k as i64, v));
                view.adot_banner = rules::show_adot_banner(&state);
            }
            Err(e) => tracing::error!(error = %e, "Cannot fetch Popins"),
        }
        let ua = headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        view.app_banner =
            rules::is_mobile_user_agent(ua) && cookie(headers, rules::APP_BANNER_COOKIE).is_none();
    }
    view
}

pub fn is_static(path: &str) -> bool {
    ["/pkg/", "/img/", "/widgets/", "/js/", "/favicon"]
        .iter()
        .any(|p| path.starts_with(p))
        || matches!(path, "/robots.txt" | "/sitemap.xml" | "/health")
}

pub fn redirect(location: &str) -> Response {
    let mut res = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

pub fn forbidden_csrf() -> Response {
    tracing::warn!("refused a state-changing request without a valid XSRF token");
    let body = serde_json::json!({ "error_code": "csrf", "error_description": "errors.csrf.notification" });
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

/// State-changing API calls must echo the XSRF cookie in `X-XSRF-TOKEN`, signed for the
/// caller's session. (HTML forms posting outside `/api` are checked by their handlers.)
pub async fn csrf(State(app): State<Arc<AppCtx>>, req: Request, next: Next) -> Response {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state && req.uri().path().starts_with("/api/") {
        let binding = req
            .extensions()
            .get::<SessionInfo>()
            .map(|s| s.binding.clone())
            .unwrap_or_else(|| "anon".into());
        let cookie_token = cookie(req.headers(), app::platform::csrf::COOKIE);
        let header_token = req
            .headers()
            .get(app::platform::csrf::HEADER)
            .and_then(|v| v.to_str().ok());
        if !app::platform::csrf::check(
            &app.state.settings.xsrf_secret,
            &binding,
            cookie_token,
            header_token,
        ) {
            return forbidden_csrf();
        }
    }
    next.run(req).await
}

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
    // Pages carry the visitor's XSRF token: no shared cache may keep them.
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
    if app.state.settings.secure_cookies {
        h.insert(
            "strict-transport-security",
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    res
}

/// The client address a handler rate-limits by (the peer, or `X-Forwarded-For` when the
/// server sits behind a trusted proxy).
pub struct Client(pub String);

impl axum::extract::FromRequestParts<Arc<AppCtx>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<AppCtx>,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        Ok(Client(client_key(app, &parts.headers, peer)))
    }
}

/// Connection info is absent in some tests that call the router directly.
pub fn peer(req: &Request) -> Option<SocketAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0)
}

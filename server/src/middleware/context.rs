//! The request context, resolved once before any handler or page runs: the site (host,
//! then `?site=`, then the cookie), the session's member, the page access rules, the XSRF
//! token, and what the shell shows (consent, popins, cart count).
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use app::context::RequestCtx;
use app::platform::session::SessionMember;
use app::routes::{self, Access};
use sqlx::Row;

use super::cookies::{
    cookie, session_cookie_name, site_cookie, visitor_cookie, visitor_cookie_name, xsrf_cookie,
    xsrf_cookie_name, SITE_COOKIE,
};
use crate::serve::is_static;
use crate::state::AppCtx;

/// What the session layer learned, for handlers.
#[derive(Clone, Debug)]
pub struct SessionInfo {
    pub token: Option<String>,
    pub member: Option<SessionMember>,
    /// What CSRF tokens of this visitor are bound to.
    pub binding: String,
    /// Whether the member has any notification, read for a member's page view (none
    /// otherwise): their page's bell is not read when they have none.
    pub has_notifications: Option<bool>,
    /// The member's hearts and holds, read for a member's page view (none otherwise).
    pub tiles: Option<std::sync::Arc<MemberTiles>>,
}

/// What a visitor's CSRF tokens are bound to: a member's session, or else the visitor's
/// pre-session id (never a constant shared by every anonymous visitor).
pub fn binding_for(member: Option<&SessionMember>, visitor: &str) -> String {
    match member {
        Some(m) => m.token_hash.clone(),
        None => format!("visitor:{visitor}"),
    }
}

/// A pre-session id: 128 random bits in hex.
fn new_visitor_id() -> String {
    app::platform::session::hex(&rand::random::<[u8; 16]>())
}

fn is_visitor_id(v: &str) -> bool {
    v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit())
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
    let cookie_site = cookie(headers, SITE_COOKIE).and_then(|v| valid(&v));
    if let Some(site) = query_param(query, "site").and_then(|v| valid(&v)) {
        return (site, cookie_site != Some(site));
    }
    if let Some(site) = cookie_site {
        return (site, false);
    }
    (app::site::DEFAULT_SITE_ID, false)
}

/// One parameter of a query string, percent-decoded (the pairs are decoded lazily: every
/// request looks for `site`, and most queries hold other parameters).
fn query_param(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The client address a request is counted by (see `client_ip`).
pub fn client_key(app: &AppCtx, headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
    super::client_ip::client_key(headers, peer, &app.config.trusted_proxies)
}

/// Resolves site and session, applies the access rules of pages, and keeps the site and
/// XSRF cookies right. Runs before any page renders, so the rules hold without scripts.
pub async fn request_context<N, F>(app: &AppCtx, mut req: Request, next: N) -> Response
where
    N: FnOnce(Request) -> F,
    F: std::future::Future<Output = Response>,
{
    let path = req.uri().path().to_string();
    // The back office has its own sessions and no site, member or visitor: none of the
    // shop's context (nor the page cache, which needs it) applies there.
    if crate::backoffice::is_backoffice(&path) {
        return next(req).await;
    }
    let query = req.uri().query().unwrap_or("").to_string();
    let (site_id, set_site_cookie) = resolve_site(app, req.headers(), &query);
    let now = app::platform::state::now();
    let token = cookie(req.headers(), session_cookie_name(app));
    let page_view = req.method() == Method::GET && !path.starts_with("/api/") && !is_static(&path);
    let (member, page_values) = match &token {
        Some(t) => match session_member(app, t, now, page_view).await {
            Ok(Some((m, values))) => (Some(m), values),
            Ok(None) => (None, None),
            Err(e) => {
                tracing::error!(error = %e, "session lookup failed");
                (None, None)
            }
        },
        None => (None, None),
    };
    // Accounts belong to one site: a session made on another site is not signed in here
    // (pages and API alike), so that site's members-only pages, favourites and recent
    // searches are never mixed with another site's account and cart.
    let other_site_session = member.as_ref().is_some_and(|m| m.site_id != site_id);
    let member = member.filter(|m| {
        let same_site = m.site_id == site_id;
        if !same_site {
            tracing::info!(
                session_site = m.site_id,
                site = site_id,
                "session of another site: anonymous here"
            );
        }
        same_site
    });
    let is_page = !path.starts_with("/api/") && !is_static(&path);
    if is_page && req.method() == Method::GET {
        if let Some(route) = routes::resolve(&path) {
            if route.access() == Access::MembersOnly && member.is_none() {
                let mut to = routes::visitor_redirect(&route, &path, &query);
                // Login result code 20 (spec 000 §5, member cross login): the sign-in page
                // says the account is signed in on another site, rather than nothing.
                let to_sign_in = to.starts_with(&format!("{}/authentication?", routes::SITE_BASE));
                if other_site_session && to_sign_in {
                    to.push_str("&info=");
                    to.push_str(
                        app::auth::social::rules::LoginCode::MemberCrossLogin.message_key(),
                    );
                }
                return redirect(&to);
            }
        }
    }
    let VisitorTokens {
        visitor,
        new_visitor,
        binding,
        xsrf,
        new_xsrf,
    } = visitor_tokens(app, req.headers(), member.as_ref());
    let secret = &app.settings.xsrf_secret;
    let app_brand = page_view
        .then(|| app_brand_due(req.headers(), site_id))
        .flatten();
    // Another site's session (filtered out above) brings no values either.
    let page_values = page_values.filter(|_| member.is_some());
    let popin_rest =
        page_view && cookie(req.headers(), app::onboarding::rules::POPIN_REST_COOKIE).is_some();
    let onboarding = if page_view {
        onboarding_view(
            req.headers(),
            page_values.as_ref().map(|v| &v.onboarding),
            popin_rest,
            now,
        )
    } else {
        Default::default()
    };
    let (experiments, experiments_cookie) = if page_view {
        let member_id = member.as_ref().map(|m| m.member_id);
        super::experiments::for_page(app, req.headers(), site_id, member_id, &onboarding.consent)
            .await
    } else {
        Default::default()
    };
    let partner = if page_view {
        super::partner::arrival_cookies(
            app,
            super::partner::referer(req.headers()),
            &path,
            &query,
            &onboarding.consent,
        )
    } else {
        Vec::new()
    };
    let (cart_count, unread_count) = page_values
        .as_ref()
        .map_or((0, 0), |v| (v.tiles.held_units(), v.unread_count));
    let has_notifications = page_values.as_ref().map(|v| v.has_notifications);
    let tiles = page_values.as_ref().map(|v| v.tiles.clone());
    // An operator's preview of this site (a signed, short-lived cookie the back office
    // sets): pages render at its time, for this browser only.
    let catalog_read = req.method() == Method::GET && path.starts_with("/api/catalog/");
    let preview_at = cookie(req.headers(), crate::backoffice::preview::COOKIE)
        .filter(|_| page_view || catalog_read)
        .and_then(|v| crate::backoffice::preview::read(app, &v, site_id, now));
    let ctx = RequestCtx {
        site_id,
        member_id: member.as_ref().map(|m| m.member_id),
        member_first_name: member.as_ref().map(|m| m.first_name.clone()),
        origins: app.origins.clone(),
        default_origin: app.config.public_origin.clone(),
        xsrf: xsrf.clone(),
        onboarding,
        cart_count,
        unread_count,
        experiments,
        preview_at,
    };
    req.extensions_mut().insert(ctx);
    req.extensions_mut()
        .insert(app::platform::session::Binding(binding.clone()));
    let anonymous = member.is_none();
    req.extensions_mut().insert(SessionInfo {
        token,
        member,
        binding,
        has_notifications,
        tiles,
    });
    let mut res = next(req).await;
    if preview_at.is_some() {
        // What an operator previews is not public yet: no cache keeps it.
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    ContextCookies {
        experiments: experiments_cookie,
        site: set_site_cookie.then_some(site_id),
        end_popin_rest: popin_rest,
        app_brand,
        partner,
    }
    .append(app, res.headers_mut());
    // Handlers that change the session set their own XSRF cookie. One that ends it hands
    // back a token for no session: it is bound here to the visitor's pre-session id.
    let xsrf_prefix = format!("{}=", xsrf_cookie_name(app));
    let mut handler_set_xsrf = false;
    let mut visitor_token = None;
    if let header::Entry::Occupied(mut cookies) = res.headers_mut().entry(header::SET_COOKIE) {
        for v in cookies.iter_mut() {
            let Some(token) = v
                .to_str()
                .ok()
                .and_then(|s| s.strip_prefix(xsrf_prefix.as_str()))
                .map(|rest| rest.split(';').next().unwrap_or("").to_string())
            else {
                continue;
            };
            handler_set_xsrf = true;
            if app::platform::csrf::is_valid(secret, ANONYMOUS, &token) {
                let bound = app::platform::csrf::issue(secret, &binding_for(None, &visitor));
                if let Ok(c) = HeaderValue::from_str(&xsrf_cookie(app, &bound)) {
                    *v = c;
                    visitor_token = Some(bound);
                }
            }
        }
    }
    let set_xsrf = is_page && new_xsrf && !handler_set_xsrf;
    let set_visitor = visitor_token.is_some() || (set_xsrf && anonymous);
    append_visitor_cookies(
        app,
        res.headers_mut(),
        set_xsrf.then_some(xsrf.as_str()),
        (set_visitor && new_visitor).then_some(visitor.as_str()),
    );
    res
}

/// A visitor's pre-session id and XSRF token: those their cookies hold when valid, else
/// new ones, for the response to set.
pub struct VisitorTokens {
    pub visitor: String,
    pub new_visitor: bool,
    /// What the token is bound to (`binding_for`).
    pub binding: String,
    pub xsrf: String,
    pub new_xsrf: bool,
}

/// An anonymous visitor's tokens are bound to their pre-session id; one who has none yet
/// gets a new one (set with the token), so a token sent without it is refused.
pub fn visitor_tokens(
    app: &AppCtx,
    headers: &HeaderMap,
    member: Option<&SessionMember>,
) -> VisitorTokens {
    let known_visitor = cookie(headers, visitor_cookie_name(app)).filter(|v| is_visitor_id(v));
    let new_visitor = known_visitor.is_none();
    let visitor = known_visitor.unwrap_or_else(new_visitor_id);
    let binding = binding_for(member, &visitor);
    let secret = &app.settings.xsrf_secret;
    let current_xsrf = cookie(headers, xsrf_cookie_name(app))
        .filter(|t| app::platform::csrf::is_valid(secret, &binding, t));
    let (xsrf, new_xsrf) = match current_xsrf {
        Some(t) => (t, false),
        None => (app::platform::csrf::issue(secret, &binding), true),
    };
    VisitorTokens {
        visitor,
        new_visitor,
        binding,
        xsrf,
        new_xsrf,
    }
}

/// The cookies of a visitor's token and pre-session id, when given (the token first).
pub fn append_visitor_cookies(
    app: &AppCtx,
    headers: &mut HeaderMap,
    xsrf: Option<&str>,
    visitor: Option<&str>,
) {
    if let Some(token) = xsrf {
        append_cookie(headers, &xsrf_cookie(app, token));
    }
    if let Some(id) = visitor {
        append_cookie(headers, &visitor_cookie(app, id));
    }
}

/// The brand cookie (spec 000 §3, §9): page views (re)set it when it is missing or names
/// the other brand. The brand to set, if so.
pub fn app_brand_due(headers: &HeaderMap, site_id: u16) -> Option<app::site::Brand> {
    let brand = app::site::by_id_or_default(site_id).brand;
    app::site::theme::app_brand_cookie_due(
        cookie(headers, app::site::theme::APP_BRAND_COOKIE).as_deref(),
        brand,
    )
    .then_some(brand)
}

/// The cookies the context step sets on a page besides the visitor's tokens, in the order
/// it sets them.
pub struct ContextCookies {
    /// The experiments' anonymous id (or its removal).
    pub experiments: Option<String>,
    /// The site chosen by `?site=`, when the site cookie named another.
    pub site: Option<u16>,
    /// The page view after a popin was answered ends the rest.
    pub end_popin_rest: bool,
    pub app_brand: Option<app::site::Brand>,
    /// The partner cookies of a page view a partner brought (`super::partner`).
    pub partner: Vec<String>,
}

impl ContextCookies {
    pub fn append(&self, app: &AppCtx, headers: &mut HeaderMap) {
        let secure = app.settings.secure_cookies;
        if let Some(c) = &self.experiments {
            append_cookie(headers, c);
        }
        if let Some(site_id) = self.site {
            append_cookie(headers, &site_cookie(site_id, secure));
        }
        if self.end_popin_rest {
            append_cookie(
                headers,
                &format!(
                    "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
                    app::onboarding::rules::POPIN_REST_COOKIE,
                    if secure { "; Secure" } else { "" }
                ),
            );
        }
        for c in &self.partner {
            append_cookie(headers, c);
        }
        if let Some(brand) = self.app_brand {
            append_cookie(headers, &super::cookies::app_brand_cookie(brand, secure));
        }
    }
}

fn append_cookie(headers: &mut HeaderMap, c: &str) {
    if let Ok(v) = HeaderValue::from_str(c) {
        headers.append(header::SET_COOKIE, v);
    }
}

/// What the sign-out handler binds the token of "no session" to; never accepted, it is
/// re-issued for the visitor's pre-session id on the way out.
const ANONYMOUS: &str = "anon";

/// A signed-in member's values a page view needs before it renders: read with the session
/// in one query (one query each was most of a member page's cost), and that query shared
/// by the page views waiting at the same moment ([`app::platform::session_lookups`]).
#[derive(Clone, Debug)]
pub struct PageValues {
    onboarding: app::onboarding::rules::MemberOnboarding,
    unread_count: i64,
    has_notifications: bool,
    /// Their favourites and held units per product: the state of a page's tiles.
    pub tiles: std::sync::Arc<MemberTiles>,
}

/// What a member's tiles show of them: hearts and holds.
#[derive(Debug, Default)]
pub struct MemberTiles {
    pub favourites: std::collections::HashSet<i64>,
    pub held: std::collections::HashMap<i64, i64>,
}

impl MemberTiles {
    /// Units held in all (the header's cart count).
    pub fn held_units(&self) -> i64 {
        self.held.values().sum()
    }
}

/// The select list of [`PageValues`] (see [`app::platform::session_lookups::ReadValues`]).
pub fn page_columns() -> String {
    [
        app::onboarding::store::PAGE_COLUMNS,
        app::cart::store::HELD_LINES_COLUMN,
        app::catalog::store::FAVOURITE_IDS_COLUMN,
        app::help::store::UNREAD_COUNT_COLUMN,
        app::help::store::HAS_NOTIFICATIONS_COLUMN,
    ]
    .concat()
}

/// [`PageValues`] from a row with [`page_columns`].
pub fn page_values_of(row: &sqlx::any::AnyRow) -> Result<PageValues, sqlx::Error> {
    Ok(PageValues {
        onboarding: app::onboarding::store::from_row(row)?,
        unread_count: row.try_get("unread_count")?,
        has_notifications: row.try_get::<i64, _>("has_notifications")? == 1,
        tiles: std::sync::Arc::new(MemberTiles {
            favourites: app::catalog::store::favourite_ids_of(row)?
                .into_iter()
                .collect(),
            held: app::cart::store::held_lines_of(row)?,
        }),
    })
}

/// The session's member, with their [`PageValues`] for a page view.
async fn session_member(
    app: &AppCtx,
    token: &str,
    now: i64,
    page_view: bool,
) -> Result<Option<(SessionMember, Option<PageValues>)>, sqlx::Error> {
    if !page_view {
        return Ok(app.sessions.member(token, now).await?.map(|m| (m, None)));
    }
    Ok(app
        .page_sessions
        .member_with(token, now)
        .await?
        .map(|(m, values)| (m, Some(values))))
}

/// Consent for everyone; popins and banners for members (spec 000 §6), from the member's
/// onboarding values; none of them on the page view right after a popin was answered
/// (`resting`, [`app::onboarding::rules::POPIN_REST_COOKIE`]) nor while the consent banner
/// is shown.
pub fn onboarding_view(
    headers: &HeaderMap,
    member: Option<&app::onboarding::rules::MemberOnboarding>,
    resting: bool,
    now: i64,
) -> app::model::onboarding::OnboardingView {
    use app::onboarding::rules;
    let consent = rules::parse_consent(cookie(headers, rules::CONSENT_COOKIE).as_deref());
    let mut view = app::model::onboarding::OnboardingView {
        consent,
        ..Default::default()
    };
    // The consent banner is this view's interruption while cookies are unanswered: a popin
    // beside it is a second dialog, whose buttons the banner covers on a phone.
    let consent_asked = view.consent.is_none();
    if let Some(state) = member {
        if !resting && !consent_asked {
            view.popin = rules::next_popin(state).map(|(k, v)| (k as i64, v));
            view.adot_banner = rules::show_adot_banner(state);
            // One interruption per page view: a popin, else the advertising banner, else the
            // home's overlay (the overlay's backdrop would cover the banner's buttons).
            view.new_member_overlay = view.popin.is_none()
                && !view.adot_banner
                && rules::shows_new_member_overlay(state, now);
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

pub fn redirect(location: &str) -> Response {
    let mut res = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Connection info is absent in some tests that call the router directly.
pub fn peer(req: &Request) -> Option<SocketAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0)
}

#[cfg(test)]
mod tests {
    use super::query_param;

    #[test]
    fn a_query_parameter_is_found_and_decoded() {
        assert_eq!(query_param("a=1&site=66", "site").as_deref(), Some("66"));
        assert_eq!(
            query_param("site=6%36&site=1", "site").as_deref(),
            Some("66")
        );
        assert_eq!(query_param("q=a+b%C3%A9", "q").as_deref(), Some("a bé"));
        assert_eq!(query_param("sites=1&xsite=2", "site"), None);
        assert_eq!(query_param("", "site"), None);
    }
}

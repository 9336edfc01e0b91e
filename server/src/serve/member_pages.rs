//! A member's shop pages from a shared template. The home and sale catalogs are
//! the same for every member of a site but for their own values (`app::ui::personal`): the
//! page is rendered once per page, site and variant for a stand-in member with marks in
//! their place, kept as briefly as the visitors' copies (`page_cache`), and each member's
//! request fills the marks from their request context (their favourites and holds among
//! the page's tiles were read with their session) and, for some pages, a query (their bell,
//! a cart's delivery addresses, their orders). A full render per member cost
//! about 9 ms of CPU; a fill costs a few dozen microseconds.
//!
//! What keys a template: site, consent and popins (`OnboardingView`), experiments and the
//! address. What it never holds: anything of the member who caused it; it is rendered for
//! the stand-in with no cookie at all.
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use app::context::RequestCtx;
use app::routes::{self, PageKind};
use app::ui::personal::{Hole, Marks, TileState, TEMPLATE_MEMBER_ID};
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use super::page_cache::{self, Entry, PageCache, Usable};
use super::page_template::{Fill, Mark, Template};
use crate::middleware::context::{MemberTiles, SessionInfo};
use crate::state::AppCtx;

/// The prefix of this process's member marks: random, so no page text can hold one.
static PREFIX: LazyLock<String> =
    LazyLock::new(|| format!("rcm{}", app::platform::session::new_token()));

/// The page kinds served from a member template: the same for every member but for the
/// marked values (a product page only for members who neither hold nor like the product:
/// its buy island's props carry that state; the cart page, whose lines the browser loads,
/// but for its delivery step, and not when it shows a refused address form again; "my
/// orders" but for its list; a search's results, whose view records the member's query
/// through the search recorder). Pages whose body is the member's own (account, recent
/// queries) render in full.
fn templated_kind(path: &str, query: Option<&str>) -> bool {
    // A page reached by a refused post shows the member's draft (a form of the page, or the
    // birth-date popin that can stand over any page).
    if app::ui::draft::is_retry(query) {
        return false;
    }
    routes::resolve(path).is_some_and(|r| match r.kind {
        PageKind::Home => true,
        // The by-id addresses are redirects, not pages.
        PageKind::Product | PageKind::Catalog => r.get("campaignId").is_some(),
        PageKind::Cart => true,
        PageKind::MyOrders => true,
        PageKind::Search => {
            app::search::rules::has_results(&query_value(query, "q").unwrap_or_default())
        }
        _ => false,
    })
}

/// The cache key of a member's page, when it has a template.
pub fn key_for(req: &Request) -> Option<String> {
    if req.method() != Method::GET {
        return None;
    }
    let ctx = req.extensions().get::<RequestCtx>()?;
    ctx.member_id?;
    // An operator's preview is rendered in full for that browser, never from a template.
    if ctx.preview_at.is_some() {
        return None;
    }
    if !templated_kind(req.uri().path(), req.uri().query()) {
        return None;
    }
    Some(page_cache::page_key("m|", ctx, req.uri()))
}

/// A member's values for one response.
struct MemberFill {
    xsrf: String,
    nonce: String,
    name: String,
    member: String,
    ctx: String,
    bell: String,
    cart_link: String,
    delivery: String,
    orders: String,
    states: HashMap<i64, u8>,
}

impl Fill for MemberFill {
    fn value(&self, mark: &Mark) -> &str {
        match mark {
            Mark::Token => &self.xsrf,
            Mark::Nonce => &self.nonce,
            Mark::Name => &self.name,
            Mark::Member => &self.member,
            Mark::Ctx => &self.ctx,
            Mark::Hole(Hole::Bell) => &self.bell,
            Mark::Hole(Hole::CartLink) => &self.cart_link,
            Mark::Hole(Hole::Delivery) => &self.delivery,
            Mark::Hole(Hole::Orders) => &self.orders,
        }
    }

    fn state(&self, item: i64) -> u8 {
        self.states.get(&item).copied().unwrap_or(0)
    }
}

/// What the member's session lookup read for this page view (`context::SessionInfo`).
struct Personal {
    has_notifications: Option<bool>,
    tiles: Arc<MemberTiles>,
}

/// The member's state of each of `items`' tiles: their favourites and what they hold, by
/// the cart's availability rule (read with their session, `context::PageValues`).
fn tile_states(app: &AppCtx, tiles: &MemberTiles, items: &[i64]) -> HashMap<i64, u8> {
    let limit = app.cart.settings.max_per_member.max(1);
    let mut states = HashMap::new();
    for item in items {
        let mine = tiles.held.get(item).copied().unwrap_or(0);
        let state = TileState::new(
            tiles.favourites.contains(item),
            // `left` does not matter to the member's part of the rule: the template holds
            // the tile's stock state.
            TileState::held_of(app::cart::rules::availability(1, mine, limit)),
        );
        if state.code() != 0 {
            states.insert(*item, state.code());
        }
    }
    states
}

/// The value of `name` in a page address's `query`, as the page's router reads it (its
/// map of the decoded pairs, which decodes each value once more; the last one given).
fn query_value(query: Option<&str>, name: &str) -> Option<String> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(query?)
        .ok()?
        .into_iter()
        .collect::<leptos_router::params::ParamsMap>()
        .get(name)
}

/// The member's values for `template`, the page of address query `query`.
async fn member_fill(
    app: &AppCtx,
    template: &Template,
    ctx: &RequestCtx,
    session: &Personal,
    query: Option<&str>,
) -> Result<MemberFill, sqlx::Error> {
    let member_id = ctx.member_id.unwrap_or(TEMPLATE_MEMBER_ID);
    let has_notifications = session.has_notifications;
    let bell = if template.has(&Mark::Hole(Hole::Bell)) {
        // A member with no notification at all has an empty bell: nothing to read.
        let messages = if has_notifications == Some(false) {
            Vec::new()
        } else {
            app::shell::service::bell_messages(&app.state.db, ctx.lang(), member_id).await?
        };
        app::shell::header::render_hole(Hole::Bell, ctx.clone(), messages)
    } else {
        String::new()
    };
    let cart_link = if template.has(&Mark::Hole(Hole::CartLink)) {
        app::shell::header::render_hole(Hole::CartLink, ctx.clone(), Vec::new())
    } else {
        String::new()
    };
    let delivery = if template.has(&Mark::Hole(Hole::Delivery)) {
        let owner = app::address::service::Owner {
            member_id,
            site_id: ctx.site_id,
        };
        let list = match app::address::service::list(&app.state.db, owner).await {
            Ok(list) => Some(list),
            Err(e) => {
                tracing::error!(error = ?e, "cannot read the member's addresses for the cart");
                None
            }
        };
        app::address::ui::checkout::render_hole(ctx.clone(), list)
    } else {
        String::new()
    };
    let orders = if template.has(&Mark::Hole(Hole::Orders)) {
        let paging = app::orders::rules::Paging::lenient(
            query_value(query, "page").as_deref(),
            query_value(query, "size").as_deref(),
        );
        let page = match app::orders::service::list(&app.state.db, member_id, paging).await {
            Ok(page) => Some(page),
            Err(e) => {
                tracing::error!(error = ?e, "cannot read the member's orders");
                None
            }
        };
        app::orders::ui::list::render_hole(ctx.clone(), page)
    } else {
        String::new()
    };
    let json = serde_json::to_string(ctx).unwrap_or_default();
    let items: Vec<i64> = template
        .items()
        .iter()
        .chain(template.required())
        .copied()
        .collect();
    Ok(MemberFill {
        xsrf: ctx.xsrf.clone(),
        nonce: page_cache::new_nonce(),
        // Escaped for an attribute, which is safe in text too.
        name: html_escape::encode_double_quoted_attribute(
            ctx.member_first_name.as_deref().unwrap_or(""),
        )
        .into_owned(),
        member: member_id.to_string(),
        ctx: html_escape::encode_double_quoted_attribute(&json).into_owned(),
        bell,
        cart_link,
        delivery,
        orders,
        states: tile_states(app, &session.tiles, &items),
    })
}

/// Records the member's view of a search's results, as the page's full render does.
async fn record_view(app: &AppCtx, ctx: &RequestCtx, path: &str, query: Option<&str>) -> bool {
    if !routes::resolve(path).is_some_and(|r| r.kind == PageKind::Search) {
        return true;
    }
    let sel = app::search::rules::FindSelection::from_query(|k| query_value(query, k));
    let Some(member_id) = ctx.member_id else {
        return true;
    };
    if !app::search::rules::records(&sel.q, sel.page) {
        return true;
    }
    let record = app::search::service::SearchRecord {
        member_id,
        site_id: ctx.site_id,
        q: sel.q,
        now: app::platform::state::now(),
    };
    match app::search::service::record(&app.searches, record).await {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(error = %e, "cannot record the member's search");
            false
        }
    }
}

/// The page for the member of `ctx` from `entry`, or none when their values cannot be read.
async fn serve(
    app: &AppCtx,
    entry: &Entry,
    ctx: &RequestCtx,
    session: &Personal,
    path: &str,
    query: Option<&str>,
    gzip: bool,
) -> Option<Response> {
    let fill = match member_fill(app, &entry.body, ctx, session, query).await {
        Ok(f) => f,
        Err(e) => {
            tracing::error!(error = %e, "cannot read the member's values for a page template");
            return None;
        }
    };
    if entry
        .body
        .required()
        .iter()
        .any(|item| fill.state(*item) != 0)
    {
        return None;
    }
    if !record_view(app, ctx, path, query).await {
        return None;
    }
    Some(page_cache::respond(entry, &fill, &fill.nonce, gzip, None))
}

/// Serves a member's templated page: from the template when there is a usable one, after
/// rendering it when not (one render per key at a time); the full render of the member's
/// page when no template can be made. A stale template is served as it is while a task
/// renders it again: no member waits for the page's renewal.
pub async fn layer(app: Arc<AppCtx>, key: String, req: Request, next: Next) -> Response {
    let cache: &PageCache = &app.page_cache;
    let gzip = page_cache::accepts_gzip(req.headers());
    let Some(ctx) = req.extensions().get::<RequestCtx>().cloned() else {
        return next.run(req).await;
    };
    // The member's values come with their session; without them (a lookup that failed),
    // the page renders in full.
    let Some(session) = req.extensions().get::<SessionInfo>().and_then(|s| {
        Some(Personal {
            has_notifications: s.has_notifications,
            tiles: s.tiles.clone()?,
        })
    }) else {
        return next.run(req).await;
    };
    let (path, query) = (
        req.uri().path().to_owned(),
        req.uri().query().map(str::to_owned),
    );
    let (path, query) = (path.as_str(), query.as_deref());
    let (parts, body) = req.into_parts();
    let found = match cache.usable(&key) {
        Some(found) => Some(found),
        None => match cache.start_render(&key).await {
            Some(_rendering) => {
                let stand_in = stand_in_request(&parts, &ctx);
                if let Some(entry) = render(&app, &key, stand_in, next.clone()).await {
                    if let Some(res) = serve(&app, &entry, &ctx, &session, path, query, gzip).await
                    {
                        return res;
                    }
                }
                None
            }
            // Another request rendered it meanwhile (or is too slow): its copy, if any.
            None => cache.usable(&key),
        },
    };
    if let Some(found) = found {
        let entry = match found {
            Usable::Fresh(entry) => entry,
            Usable::Renew(entry) => {
                let stand_in = stand_in_request(&parts, &ctx);
                renew(app.clone(), key, entry.clone(), stand_in, next.clone());
                entry
            }
        };
        if let Some(res) = serve(&app, &entry, &ctx, &session, path, query, gzip).await {
            return res;
        }
    }
    next.run(Request::from_parts(parts, body)).await
}

/// The stand-in member's request for the template of the page `parts` asks for: no cookie
/// at all, a context without the member, marks in place of their values.
fn stand_in_request(parts: &Parts, ctx: &RequestCtx) -> Request {
    let mut template_parts = parts.clone();
    template_parts.headers.remove(header::COOKIE);
    let marks = Marks {
        prefix: PREFIX.clone(),
    };
    let mut stand_in = ctx.clone();
    stand_in.member_id = Some(TEMPLATE_MEMBER_ID);
    stand_in.member_first_name = Some(marks.name());
    stand_in.xsrf = page_cache::token_mark().to_string();
    stand_in.cart_count = 0;
    stand_in.unread_count = 0;
    template_parts.extensions.insert(stand_in);
    template_parts.extensions.insert(marks);
    Request::from_parts(template_parts, Body::empty())
}

/// Renders the template of `key` through the rest of the request's steps and keeps it.
async fn render(app: &AppCtx, key: &str, stand_in: Request, next: Next) -> Option<Arc<Entry>> {
    app.page_cache.count_render();
    let generation = app.page_cache.generation();
    let entry = Arc::new(template_of(next.run(stand_in).await).await?);
    app.page_cache
        .insert(key.to_owned(), entry.clone(), generation);
    Some(entry)
}

/// Renders the stale template of `key` again in a task of its own. A page that no longer
/// makes a template (a sale that closed, an error) is forgotten, so that the next member
/// gets its full render instead of the old copy.
fn renew(app: Arc<AppCtx>, key: String, stale: Arc<Entry>, stand_in: Request, next: Next) {
    tokio::spawn(async move {
        let Some(_rendering) = app.page_cache.start_render(&key).await else {
            return;
        };
        if render(&app, &key, stand_in, next).await.is_none() {
            app.page_cache.forget(&key, &stale);
        }
    });
}

/// The cache entry of a rendered template: a complete 200 page with its nonce in the
/// policy and its marks nested as templates write them; none otherwise.
async fn template_of(res: Response) -> Option<Entry> {
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if res.status() != StatusCode::OK
        || !html
        || res.headers().contains_key(header::SET_COOKIE)
        || res
            .headers()
            .contains_key(app::ui::personal::NOT_SHARED_HEADER)
    {
        return None;
    }
    let nonce = page_cache::nonce_of(res.headers())?;
    let (parts, body) = res.into_parts();
    let bytes = to_bytes(body, page_cache::MAX_BODY).await.ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    if text.contains(page_cache::nonce_mark()) {
        return None;
    }
    let text = text.replace(&nonce, page_cache::nonce_mark());
    let body = Template::parse_member(
        &text,
        page_cache::token_mark(),
        page_cache::nonce_mark(),
        &PREFIX,
    )?;
    let mut headers = parts.headers.clone();
    headers.remove(header::CONTENT_LENGTH);
    let csp = page_cache::policy_with_mark(&headers, &nonce)?;
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    Some(Entry::new(parts.status, headers, body, 0))
}

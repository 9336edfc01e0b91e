//! The header calls (spec 001 §7 "Header", 000 §7 "Navigation and content"): the header
//! content, the home headers and the menu config, under the content API. The same
//! service renders the header of every page (`app::shell::service`).
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::home::rules::{parse_preview_date, LiveWindow};
use app::model::error::ErrorBody;
use app::model::experiments::Experiments;
use app::shell::model::{HeaderContent, HomeHeader, MenuConfig};
use app::shell::rules::{self, MENU_CONFIG_ID};

use super::error::{ApiError, LogAs};
use super::extract::{MaybeMember, Params, Path, SiteId};
use crate::middleware::cookies::cookie;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(header_content))
        .routes(routes!(home_headers))
        .routes(routes!(menu_config))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HeaderParams {
    /// Site; defaults to the `x-vp-siteid` header, then the request's site.
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
    /// `YYYY-MM-DD`: the sales live that day. Only when the server allows previews
    /// (`ROSACE_HOME_PREVIEW`); ignored otherwise.
    preview_date: Option<String>,
    /// Free marketing parameter, accepted and not used.
    #[allow(dead_code)]
    userparam: Option<String>,
}

fn window(app: &AppCtx, preview: Option<&str>) -> Result<LiveWindow, ApiError> {
    let now = app::platform::state::now();
    match app.homes.preview_date(preview).map(parse_preview_date) {
        None => Ok(LiveWindow::now(now)),
        Some(Some(day)) => Ok(LiveWindow::preview(now, day)),
        Some(None) => Err(ApiError::bad_request(
            "invalid_preview_date",
            "home.errors.preview_date",
        )),
    }
}

fn private_json<T: serde::Serialize>(body: &T) -> Response {
    ([(header::CACHE_CONTROL, "private, no-cache")], Json(body)).into_response()
}

/// The header of the site for the signed-in member (or a visitor): home tabs, header
/// categories (at most 8, each with at most 5 items and 4 sales), the unread count and the
/// newest messages. The member is the session's; an `x-vp-memberid` header naming someone
/// else changes nothing.
#[utoipa::path(get, path = "/api/content/v1/header", tag = "content",
    params(HeaderParams, ("x-vp-siteid" = Option<u16>, Header), ("x-vp-device" = Option<String>, Header),
        ("x-vp-memberid" = Option<i64>, Header)),
    responses((status = 200, body = HeaderContent), (status = 400, body = ErrorBody)))]
async fn header_content(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    Params(q): Params<HeaderParams>,
) -> Result<Response, ApiError> {
    let window = window(&app, q.preview_date.as_deref())?;
    let content = app::shell::service::header(&app.state.db, site_id, member.id(), window)
        .await
        .log_as("Cannot fetch header")?;
    Ok(private_json(&content))
}

/// The site's homes as header tabs, each with at most 7 modules (`?part=` links, labelled
/// in the site's language). Each tab leads where the caller may go: the travel tab is
/// `/home/travel` for the session's member and the open-door `/voyages` for a visitor.
#[utoipa::path(get, path = "/api/content/v1/homes/headers", tag = "content",
    params(HeaderParams, ("x-vp-siteid" = Option<u16>, Header), ("x-vp-device" = Option<String>, Header),
        ("x-vp-memberid" = Option<i64>, Header)),
    responses((status = 200, body = Vec<HomeHeader>), (status = 400, body = ErrorBody)))]
async fn home_headers(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    Params(q): Params<HeaderParams>,
) -> Result<Response, ApiError> {
    window(&app, q.preview_date.as_deref())?;
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    let audience = if member.id().is_some() {
        rules::Audience::Member
    } else {
        rules::Audience::Visitor
    };
    let homes = app::shell::service::home_headers(&app.state.db, site_id, lang, audience)
        .await
        .log_as("Cannot fetch home headers")?;
    Ok(private_json(&homes))
}

/// The experiments of the caller, read as the page's were decided (and recording
/// nothing): only with the performance consent (C0002), bucketed by member id or by the
/// anonymous id cookie; everyone else is outside any experiment (the defaults).
fn call_experiments(app: &AppCtx, headers: &HeaderMap, member_id: Option<i64>) -> Experiments {
    use app::experiments::rules::{Subject, ANON_ID_COOKIE, CONSENT_CATEGORY};
    use app::onboarding::rules::{consent_accepted, parse_consent, CONSENT_COOKIE};
    let consent = parse_consent(cookie(headers, CONSENT_COOKIE).as_deref());
    if !consent_accepted(&consent, CONSENT_CATEGORY) {
        return Experiments::outside();
    }
    let subject = match (member_id, cookie(headers, ANON_ID_COOKIE)) {
        (Some(id), _) => Subject::Member(id),
        (None, Some(anon)) if app::experiments::rules::is_anon_id(&anon) => {
            Subject::Anonymous(anon)
        }
        _ => return Experiments::outside(),
    };
    app.experiments
        .current()
        .experiments_for(subject.audience(), &subject.key())
}

/// The lateral menu's config (the call ending in `/10`): the site's switches
/// (`rules::menu_switches`, as the menus drawn on the page), the items this visitor sees
/// (loggedIn items only for members) and the account menu's sections.
#[utoipa::path(get, path = "/api/content/v1/menu/{id}", tag = "content",
    params(("id" = u32, Path, description = "always 10"), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = MenuConfig), (status = 404, body = ErrorBody)))]
async fn menu_config(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if id != MENU_CONFIG_ID.to_string() {
        return Err(ApiError::NotFound);
    }
    let signed_in = member.id().is_some();
    let switches = rules::menu_switches(site_id, &call_experiments(&app, &headers, member.id()));
    let config = MenuConfig {
        id: MENU_CONFIG_ID,
        switches,
        items: rules::visible(rules::lateral_menu_items(switches), signed_in),
        account: if signed_in {
            rules::visible(rules::account_sections(switches), true)
        } else {
            Vec::new()
        },
    };
    Ok(private_json(&config))
}

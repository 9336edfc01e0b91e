//! Navigation and content calls (spec 000 §7 "Navigation and content"): translations,
//! homes by id or name, the footer, and the landing pages (list and one by slug).
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::home::rules::parse_preview_date;
use app::home::store::{self, HomeQuery};
use app::model::error::ErrorBody;
use app::model::home::Home;

use super::error::{ApiError, LogAs, OrNotFound};
use super::extract::{MaybeMember, Params, Path, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(translations))
        .routes(routes!(home))
        .routes(routes!(footer))
        .routes(routes!(landings))
        .routes(routes!(landing))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct TranslationsParams {
    /// e.g. `fr-fr`, `de-at`.
    locale: Option<String>,
    /// Default `fr-fr`.
    fallback_locale: Option<String>,
    #[allow(dead_code)]
    device: Option<String>,
}

/// The merged table of a locale over its fallback.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Translations {
    locale: String,
    fallback_locale: String,
    translations: BTreeMap<String, String>,
}

/// Translations of a locale over its fallback. Browsers and proxies may keep it 5 minutes
/// (spec 000 §9).
#[utoipa::path(get, path = "/api/content/v1/translations", tag = "content",
    params(TranslationsParams),
    responses((status = 200, body = Translations), (status = 400, body = ErrorBody)))]
async fn translations(
    State(app): State<Arc<AppCtx>>,
    Params(q): Params<TranslationsParams>,
) -> Result<Response, ApiError> {
    let locale = q
        .locale
        .filter(|l| !l.trim().is_empty())
        .ok_or(ApiError::bad_request(
            "missing_locale",
            "errors.general_retry.notification",
        ))?;
    let fallback = q.fallback_locale.unwrap_or_else(|| "fr-fr".into());
    let lang = app::site::i18n::lang_of(&locale).to_string();
    let fallback_lang = app::site::i18n::lang_of(&fallback).to_string();
    let body = app
        .translations
        .get_or_build((lang.clone(), fallback_lang.clone()), || {
            let body = Translations {
                locale: format!("{lang}-{lang}"),
                fallback_locale: format!("{fallback_lang}-{fallback_lang}"),
                translations: app::site::i18n::merged(&lang, &fallback_lang)
                    .into_iter()
                    .collect(),
            };
            Bytes::from(serde_json::to_vec(&body).unwrap_or_default())
        });
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HomeParams {
    /// Site; defaults to the `x-vp-siteid` header, then the request's site.
    #[param(value_type = Option<u16>)]
    #[allow(dead_code)]
    site_id: Option<String>,
    /// The reduced home: first 4 modules, no media-ads banners.
    #[param(value_type = Option<bool>)]
    is_home_reduced: Option<String>,
    /// `YYYY-MM-DD`: sales and sale banners as live on that day. Only when the server
    /// allows previews (`ROSACE_HOME_PREVIEW`); ignored otherwise.
    preview_date: Option<String>,
    /// Keep sale, campaign and split banners without a mobile image.
    #[param(value_type = Option<bool>)]
    skip_mobile_image_check: Option<String>,
    /// Free marketing parameter (spec 001 §7 homes), accepted and not used.
    #[allow(dead_code)]
    userparam: Option<String>,
}

fn flag(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some("true" | "1"))
}

/// A home by id or by name (case-insensitive), with its modules and banners in display
/// order. Answers are reused for up to 5 seconds.
#[utoipa::path(get, path = "/api/content/v1/homes/{idOrName}", tag = "content",
    params(("idOrName" = String, Path, description = "numeric id, or a name such as default"),
        HomeParams, ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Home),
        (status = 400, body = ErrorBody, description = "invalid_home_name, or invalid_preview_date with the localized `message`"),
        (status = 404, body = ErrorBody)))]
async fn home(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Path(id_or_name): Path<String>,
    Params(q): Params<HomeParams>,
) -> Result<Json<Home>, ApiError> {
    // Home names are slugs; anything else cannot name a home.
    let valid = !id_or_name.is_empty()
        && id_or_name.len() <= 64
        && id_or_name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(ApiError::bad_request(
            "invalid_home_name",
            "errors.not_found",
        ));
    }
    // Ignored unless the server allows previews (`ROSACE_HOME_PREVIEW`, review L6).
    let preview = app
        .homes
        .preview_date(q.preview_date.as_deref())
        .map(str::to_string);
    let preview_day = match preview.as_deref().map(parse_preview_date) {
        None => None,
        Some(Some(day)) => Some(day),
        Some(None) => return Err(invalid_preview_date(site_id)),
    };
    let query = HomeQuery {
        key: id_or_name,
        reduced: flag(&q.is_home_reduced),
        preview_day,
        preview_date: preview_day.and(preview),
        skip_mobile_check: flag(&q.skip_mobile_image_check),
    };
    store::home_cached(
        &app.state.db,
        &app.homes,
        site_id,
        &query,
        app::platform::state::now(),
    )
    .await
    .log_as("Cannot fetch home")?
    .or_not_found()
    .map(Json)
}

/// 400 with the message in the language of the requested site.
fn invalid_preview_date(site_id: u16) -> ApiError {
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    let key = "home.errors.preview_date";
    ApiError::Wire {
        status: axum::http::StatusCode::BAD_REQUEST,
        body: Box::new(ErrorBody {
            message: Some(app::site::i18n::t(lang, key).to_string()),
            ..ErrorBody::new("invalid_preview_date", key)
        }),
        cause: None,
        what: "",
    }
}

fn content_error(e: app::content::error::ContentError) -> ApiError {
    ApiError::wire(&e).logged_as("content call failed")
}

/// The footer's sections and links for the site (`x-vp-siteid`, else the request's site),
/// as a visitor or as the signed-in member sees them (members-only links only for them).
#[utoipa::path(get, path = "/api/content/v1/footer", tag = "content",
    params(("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = app::content::model::Footer)))]
async fn footer(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    MaybeMember(member): MaybeMember,
) -> Result<Json<app::content::model::Footer>, ApiError> {
    app::content::service::footer(&app.state.db, site_id, member.is_some())
        .await
        .map(Json)
        .map_err(content_error)
}

/// The site's landing pages (slug and heading), in display order.
#[utoipa::path(get, path = "/api/content/v1/landings", tag = "content",
    params(("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = [app::content::model::LandingLink])))]
async fn landings(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
) -> Result<Json<Vec<app::content::model::LandingLink>>, ApiError> {
    app::content::store::landings(&app.state.db, site_id)
        .await
        .map(Json)
        .map_err(|e| content_error(e.into()))
}

/// A landing page: its seoConfig (title, description, footer paragraphs), content blocks
/// and selection (live sales, or a brand's items) as live now.
#[utoipa::path(get, path = "/api/content/v1/landings/{slug}", tag = "content",
    params(("slug" = String, Path), ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = app::content::model::Landing),
        (status = 400, body = ErrorBody, description = "invalid_slug"),
        (status = 404, body = ErrorBody)))]
async fn landing(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    MaybeMember(member): MaybeMember,
    Path(slug): Path<String>,
) -> Result<Json<app::content::model::Landing>, ApiError> {
    if !app::content::rules::valid_landing_slug(&slug) {
        return Err(content_error(
            app::content::error::ContentError::InvalidSlug,
        ));
    }
    let viewer = app::cart::store::Viewer {
        member_id: member.map(|m| m.member_id),
        max_per_member: app.cart.settings.max_per_member,
    };
    app::content::service::landing(
        &app.state.db,
        site_id,
        &slug,
        viewer,
        app::platform::state::now(),
    )
    .await
    .map(Json)
    .map_err(content_error)
}

//! Travel catalog calls (spec 001 §7 "Travel": campaign, products, offers, count, SEO)
//! under `/api/travel/v1`. The query parameters are the catalog URL's (`checkin=DDMMYY`,
//! `board=a,b`, `page` 1-based, ...), read by the same rule as the page; a value that
//! cannot be read is a 400 naming it, an unknown or ended sale a 404.
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::model::travel_catalog::{Facet, OfferPage, OfferQuery};
use app::platform::state::now;
use app::travel::api::catalog::localize;
use app::travel::error::TravelError;
use app::travel::rules::{self, FILTER_NAMES};
use app::travel::store::offers;

use super::error::{ApiError, LogAs, OrNotFound};
use super::extract::{MaybeMember, Params, Path, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(campaign))
        .routes(routes!(campaign_products))
        .routes(routes!(search_offers))
        .routes(routes!(count))
        .routes(routes!(seo))
}

/// The query parameters of an offers list, as the catalog's URL writes them. Every value
/// is text: one that cannot be read is refused by name (400), never guessed.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct OfferParams {
    /// Departure day, `DDMMYY` (or `YYYY-MM-DD`).
    checkin: Option<String>,
    /// Return day, `DDMMYY` (or `YYYY-MM-DD`), after `checkin`.
    checkout: Option<String>,
    /// `1`: the check-in ± 3 days.
    flex: Option<String>,
    /// A flexible period: a day of the month, `DDMMYY`, or `YYYY-MM`.
    dates: Option<String>,
    /// A destination id (it and what lies under it) or a travel sale, `sale-{id}`.
    destination_id: Option<String>,
    /// Free text matched against destination names.
    destination_text: Option<String>,
    departure_city_code: Option<String>,
    trip_type_id: Option<String>,
    /// Comma-separated values of each filter (`included`, `none`).
    transportation: Option<String>,
    transportationtype: Option<String>,
    accomodationtype: Option<String>,
    board: Option<String>,
    notoriousbrands: Option<String>,
    /// Comma-separated city destination ids.
    location: Option<String>,
    paymentfacility: Option<String>,
    establishmentrating: Option<String>,
    thematics: Option<String>,
    /// 1-based page of `pageSize` offers.
    #[param(value_type = Option<u32>)]
    page: Option<String>,
    /// `0`: the default catalogue (filters ignored).
    dc: Option<String>,
    #[param(value_type = Option<u16>)]
    site_id: Option<String>,
}

/// A 400 naming the parameter, with the message in the site's language.
fn invalid(site_id: u16, field: &str) -> ApiError {
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    let mut body = ErrorBody::new("invalid_query", "travel.catalog.invalid");
    body.message = Some(app::site::i18n::t(lang, "travel.catalog.invalid"));
    body.field_errors = Some(vec![app::model::error::FieldError {
        field: field.into(),
        message_key: "travel.catalog.invalid".into(),
    }]);
    ApiError::Wire {
        status: StatusCode::BAD_REQUEST,
        body: Box::new(body),
        cause: None,
        what: "bad travel query",
    }
}

/// Reads the query as the page does, but refuses what the page would quietly drop.
fn offer_query(site_id: u16, raw: Option<&str>) -> Result<OfferQuery, ApiError> {
    let pairs = rules::query_pairs(raw.unwrap_or(""));
    let query = rules::parse_offer_query(&pairs);
    let given = |key: &str| pairs.iter().any(|(k, v)| k == key && !v.trim().is_empty());
    let checks: [(&str, bool); 7] = [
        ("checkin", query.checkin.is_some()),
        ("checkout", query.checkout.is_some()),
        (
            "dates",
            query.dates.is_some() || query.checkin.is_some() || query.checkout.is_some(),
        ),
        ("destinationId", query.destination_id.is_some()),
        ("destinationText", query.destination_text.is_some()),
        ("departureCityCode", query.departure_city_code.is_some()),
        ("tripTypeId", query.trip_type_id.is_some()),
    ];
    let dc = pairs.iter().any(|(k, v)| k == "dc" && v.trim() == "0");
    for (key, read) in checks {
        if given(key) && !read && !(dc && matches!(key, "checkin" | "checkout" | "dates")) {
            return Err(invalid(site_id, key));
        }
    }
    if given("page")
        && !pairs
            .iter()
            .any(|(k, v)| k == "page" && v.trim().parse::<u32>().is_ok_and(|p| p >= 1))
    {
        return Err(invalid(site_id, "page"));
    }
    for name in FILTER_NAMES {
        let values = pairs
            .iter()
            .filter(|(k, _)| k == name)
            .flat_map(|(_, v)| v.split(','));
        if values.clone().any(|v| v.trim().chars().count() > 64) {
            return Err(invalid(site_id, name));
        }
    }
    Ok(OfferQuery { site_id, ..query })
}

async fn page_of(
    app: &AppCtx,
    query: &OfferQuery,
    member: Option<i64>,
) -> Result<OfferPage, ApiError> {
    let mut page = offers::offers(&app.state.db, query, member, now())
        .await
        .map_err(TravelError::from)
        .log_as("Unavailable Sale Content")?;
    localize(
        &mut page,
        app::site::i18n::lang_of(app::site::by_id_or_default(query.site_id).locale),
    );
    Ok(page)
}

/// A travel sale as its catalog opens: name, features, the facets of its offers and
/// their total.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignView {
    pub id: i64,
    pub name: String,
    pub with_map: bool,
    pub with_quotation_price: bool,
    pub total: u32,
    pub facets: Vec<Facet>,
    /// The catalog's address (`travel::rules::catalog_link`).
    pub url: String,
}

/// A live travel sale of the site with its filters (facets with counts, for the query's
/// filters) and the number of offers.
#[utoipa::path(get, path = "/api/travel/v1/campaigns/{campaignId}", tag = "travel",
    params(("campaignId" = i64, Path), OfferParams),
    responses((status = 200, body = CampaignView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn campaign(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Path(campaign_id): Path<i64>,
    RawQuery(raw): RawQuery,
) -> Result<Json<CampaignView>, ApiError> {
    let query = OfferQuery {
        campaign_id: Some(campaign_id),
        ..offer_query(site_id, raw.as_deref())?
    };
    let sale = offers::campaign(&app.state.db, site_id, campaign_id, now())
        .await
        .map_err(TravelError::from)
        .log_as("Unavailable Sale Content")?
        .or_not_found()?;
    let page = page_of(&app, &query, None).await?;
    Ok(Json(CampaignView {
        id: sale.id,
        name: sale.name,
        with_map: sale.with_map,
        with_quotation_price: sale.with_quotation_price,
        total: page.total,
        facets: page.facets,
        url: rules::catalog_link(None, None, sale.id),
    }))
}

/// One page of a travel sale's offers for the catalog's filters, with the member's
/// favourites.
#[utoipa::path(get, path = "/api/travel/v1/campaigns/{campaignId}/products", tag = "travel",
    params(("campaignId" = i64, Path), OfferParams),
    responses((status = 200, body = OfferPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn campaign_products(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    MaybeMember(member): MaybeMember,
    Path(campaign_id): Path<i64>,
    RawQuery(raw): RawQuery,
) -> Result<Json<OfferPage>, ApiError> {
    let query = OfferQuery {
        campaign_id: Some(campaign_id),
        ..offer_query(site_id, raw.as_deref())?
    };
    let page = page_of(&app, &query, member.map(|m| m.member_id)).await?;
    if page.campaign_name.is_none() {
        return Err(ApiError::NotFound);
    }
    Ok(Json(page))
}

/// One page of the offers of every live travel sale of the site for a search and filters
/// (`destinationId`, `departureCityCode`, dates, ...).
#[utoipa::path(get, path = "/api/travel/v1/offers", tag = "travel",
    params(OfferParams),
    responses((status = 200, body = OfferPage), (status = 400, body = ErrorBody)))]
async fn search_offers(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    MaybeMember(member): MaybeMember,
    RawQuery(raw): RawQuery,
) -> Result<Json<OfferPage>, ApiError> {
    let query = offer_query(site_id, raw.as_deref())?;
    Ok(Json(
        page_of(&app, &query, member.map(|m| m.member_id)).await?,
    ))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OfferCount {
    pub count: u32,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct CountParams {
    /// A travel sale; none: every live travel sale of the site.
    #[param(value_type = Option<i64>)]
    campaign_id: Option<String>,
}

/// How many offers match the filters (of one sale with `campaignId`, else of all).
#[utoipa::path(get, path = "/api/travel/v1/offers/count", tag = "travel",
    params(CountParams, OfferParams),
    responses((status = 200, body = OfferCount), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn count(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    RawQuery(raw): RawQuery,
) -> Result<Json<OfferCount>, ApiError> {
    let mut query = offer_query(site_id, raw.as_deref())?;
    let pairs = rules::query_pairs(raw.as_deref().unwrap_or(""));
    if let Some((_, v)) = pairs
        .iter()
        .find(|(k, v)| k == "campaignId" && !v.is_empty())
    {
        let id = v
            .trim()
            .parse::<i64>()
            .map_err(|_| invalid(site_id, "campaignId"))?;
        offers::campaign(&app.state.db, site_id, id, now())
            .await
            .map_err(TravelError::from)
            .log_as("Unavailable Sale Content")?
            .or_not_found()?;
        query.campaign_id = Some(id);
    }
    let count = offers::count(&app.state.db, &query, now())
        .await
        .map_err(TravelError::from)
        .log_as("Unavailable Sale Content")?;
    Ok(Json(OfferCount { count }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeoParams {
    /// A travel path: `/voyages/c/{campaignId}` (a query makes it a filtered state).
    path: Option<String>,
}

/// What a crawler is told about a travel path.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeoView {
    pub title: String,
    pub description: String,
    /// The absolute URL of the indexable page.
    pub canonical: String,
    pub indexable: bool,
}

/// Title, description, canonical URL and indexability of a travel catalog path
/// (`/voyages/c/{id}` and `/t/c/{id}[/{universeId}]`, with or without a query).
#[utoipa::path(get, path = "/api/travel/v1/seo", tag = "travel",
    params(SeoParams),
    responses((status = 200, body = SeoView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn seo(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Params(given): Params<SeoParams>,
) -> Result<Json<SeoView>, ApiError> {
    let full = given.path.unwrap_or_default();
    let (path, query) = full.split_once('?').unwrap_or((full.as_str(), ""));
    let route = app::routes::resolve(path)
        .filter(|r| r.kind == app::routes::PageKind::TravelCatalog)
        .ok_or_else(|| invalid(site_id, "path"))?;
    let campaign_id = route
        .get_id("campaignId")
        .ok_or_else(|| invalid(site_id, "path"))?;
    let sale = offers::campaign(&app.state.db, site_id, campaign_id, now())
        .await
        .map_err(TravelError::from)
        .log_as("Unavailable Sale Content")?
        .or_not_found()?;
    let state = rules::parse_offer_query(&rules::query_pairs(query));
    let site = app::site::by_id_or_default(site_id);
    let lang = app::site::i18n::lang_of(site.locale);
    let canonical_path = format!("/voyages/c/{}", sale.id);
    // The same absolute address as the page's own canonical link (`SeoMeta`).
    let ctx = app::context::RequestCtx {
        site_id,
        origins: app.origins.clone(),
        default_origin: app.config.public_origin.clone(),
        ..Default::default()
    };
    Ok(Json(SeoView {
        description: app::site::i18n::t_with(
            lang,
            "travel.catalog.description",
            &[("sale", &sale.name), ("brand", site.brand.name())],
        ),
        title: format!("{} | {}", sale.name, site.brand.name()),
        canonical: ctx.url_on(site_id, &canonical_path),
        indexable: route.seo && !rules::is_filtered(&state) && state.page == 0,
    }))
}

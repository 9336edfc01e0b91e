//! Travel search calls (spec 001 §7 "search", "autocomplete", "countries", "redirect"):
//! destination suggestions while typing, the countries with offers, the offers of a search
//! and where a search leads. Search parameters are the travel search selection's field
//! names (`destinationId`, `destinationText`, `departureCityCode`, `tripTypeId`, `checkin`,
//! `checkout`, `dates`, `flex`), read as the results page reads its URL: a value that does
//! not fit is left out.
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::model::travel::DestinationSuggestion;
use app::model::travel_catalog::OfferPage;
use app::platform::state::now;
use app::travel::error::TravelError;
use app::travel::rules::search::{
    autocomplete_text, offer_query, parse_search, redirect_url, SearchRequest,
};
use app::travel::store::destinations;

use super::error::ApiError;
use super::extract::{MaybeMember, Params, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(autocomplete))
        .routes(routes!(countries))
        .routes(routes!(search))
        .routes(routes!(redirect))
}

/// A 400 whose body carries the message in the site's language too.
fn refused(site_id: u16, code: &'static str, key: &'static str) -> ApiError {
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    ApiError::Wire {
        status: StatusCode::BAD_REQUEST,
        body: Box::new(ErrorBody {
            message: Some(app::site::i18n::t(lang, key)),
            ..ErrorBody::new(code, key)
        }),
        cause: None,
        what: "",
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AutocompleteParams {
    /// What was typed (1 to 60 characters, any alphabet).
    q: Option<String>,
}

/// Destinations (countries, regions, cities) and live travel sales (`sale-{id}`) whose
/// name or one of its words starts with `q`, accents ignored, with their live offers; at
/// most 8, best match first. 400 when `q` is blank or longer than 60 characters.
#[utoipa::path(get, path = "/api/travel/v1/autocomplete", tag = "travel",
    params(AutocompleteParams, ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Vec<DestinationSuggestion>), (status = 400, body = ErrorBody)))]
async fn autocomplete(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    Params(p): Params<AutocompleteParams>,
) -> Result<Json<Vec<DestinationSuggestion>>, ApiError> {
    let folded = autocomplete_text(p.q.as_deref().unwrap_or(""))
        .map_err(|e| refused(site_id, e.code(), e.message_key()))?;
    let found = destinations::autocomplete(&app.state.db, site_id, &folded, now())
        .await
        .map_err(TravelError::from)?;
    Ok(Json(found))
}

/// The countries with live travel offers, by name, with their number of offers.
#[utoipa::path(get, path = "/api/travel/v1/countries", tag = "travel",
    params(("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = Vec<DestinationSuggestion>)))]
async fn countries(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
) -> Result<Json<Vec<DestinationSuggestion>>, ApiError> {
    let list = destinations::countries(&app.state.db, site_id, now())
        .await
        .map_err(TravelError::from)?;
    Ok(Json(list))
}

/// The travel search selection (spec 001 §3) as query parameters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// A destination id, or `sale-{id}` for a travel sale (as the autocomplete gives them).
    destination_id: Option<String>,
    /// Free text matched against destination names when no destination id is given.
    destination_text: Option<String>,
    departure_city_code: Option<String>,
    trip_type_id: Option<String>,
    /// `YYYY-MM-DD` (or `DDMMYY`).
    checkin: Option<String>,
    /// `YYYY-MM-DD` (or `DDMMYY`), after `checkin`.
    checkout: Option<String>,
    /// A month `YYYY-MM`; exact dates win when both are given.
    dates: Option<String>,
    /// Days either side of the check-in: 1, 3 or 7 (`true`, `on`, `yes`: 3); else exact.
    flex: Option<String>,
    /// 0-based page of 9 offers.
    #[param(value_type = Option<u32>)]
    page: Option<String>,
}

impl SearchParams {
    fn request(self) -> SearchRequest {
        let map: HashMap<&str, Option<String>> = HashMap::from([
            ("destinationId", self.destination_id),
            ("destinationText", self.destination_text),
            ("departureCityCode", self.departure_city_code),
            ("tripTypeId", self.trip_type_id),
            ("checkin", self.checkin),
            ("checkout", self.checkout),
            ("dates", self.dates),
            ("flex", self.flex),
            ("page", self.page),
        ]);
        parse_search(|k| map.get(k).cloned().flatten())
    }
}

/// The live travel offers matching a search, a page at a time, with the facets of the
/// whole selection. 400 when the checkout is not after the checkin.
#[utoipa::path(get, path = "/api/travel/v1/search", tag = "travel",
    params(SearchParams, ("x-vp-siteid" = Option<u16>, Header)),
    responses((status = 200, body = OfferPage), (status = 400, body = ErrorBody)))]
async fn search(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    member: MaybeMember,
    Params(p): Params<SearchParams>,
) -> Result<Json<OfferPage>, ApiError> {
    let request = p.request();
    if let Some(problem) = request.problem {
        return Err(refused(site_id, problem.code(), problem.message_key()));
    }
    let query = offer_query(&request.search, site_id, request.page);
    let mut page = app::travel::store::offers::offers(&app.state.db, &query, member.id(), now())
        .await
        .map_err(TravelError::from)?;
    let lang = app::site::i18n::lang_of(app::site::by_id_or_default(site_id).locale);
    app::travel::api::catalog::localize(&mut page, lang);
    Ok(Json(page))
}

/// Where a search leads.
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchTarget {
    /// A travel sale's catalog (`/t/c/{id}`) or the results page (`/t/r?…`).
    pub url: String,
}

/// Where a search should lead: a travel sale chosen as destination opens its catalog,
/// anything else the results page with the search in its query.
#[utoipa::path(get, path = "/api/travel/v1/redirect", tag = "travel",
    params(SearchParams),
    responses((status = 200, body = SearchTarget), (status = 400, body = ErrorBody)))]
async fn redirect(
    SiteId(site_id): SiteId,
    Params(p): Params<SearchParams>,
) -> Result<Json<SearchTarget>, ApiError> {
    let request = p.request();
    if let Some(problem) = request.problem {
        return Err(refused(site_id, problem.code(), problem.message_key()));
    }
    Ok(Json(SearchTarget {
        url: redirect_url(&request.search),
    }))
}

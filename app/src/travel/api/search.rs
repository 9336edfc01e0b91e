//! Server functions of the travel search (autocomplete, the form's choices) and the travel
//! home (its modules, live travel sales, the member's last viewed offers). GET reads; the
//! site and the member come from the request, never from the arguments.
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use serde::{Deserialize, Serialize};

use crate::model::catalog::SaleCard;
use crate::model::home::HomeModule;
use crate::model::travel::{DestinationSuggestion, TravelOffer, TravelSearch};
#[cfg(feature = "ssr")]
use crate::{
    context::RequestCtx,
    platform::state::{app_state, now, shared, WireResult},
    travel::error::TravelError,
    travel::store::destinations,
};

/// Last viewed offers shown on the travel home.
pub const LAST_VIEWED_SHOWN: u32 = 8;
/// Months a flexible period may name, from this one.
pub const PERIOD_MONTHS: u32 = 12;

/// One choice of a select: the value sent, the label shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// The search form: what it starts with and what its selects offer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchForm {
    pub search: TravelSearch,
    pub departure_cities: Vec<Choice>,
    pub trip_types: Vec<Choice>,
    /// `YYYY-MM` months of the flexible period.
    pub months: Vec<Choice>,
    /// `YYYY-MM-DD`: the earliest day the date inputs offer.
    pub today: String,
    /// A checkout day the results page refused, shown back as typed, and why (in the page's
    /// language); both empty when none. Fields of the form rather than an island prop of
    /// their own: no new type for every page's WASM to read.
    #[serde(default)]
    pub refused_checkout: String,
    #[serde(default)]
    pub refused_message: String,
}

/// The travel home: the modules of the site's `travel` home, its live travel sales, the
/// search form and the server's clock (first countdown values).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TravelHome {
    pub modules: Vec<HomeModule>,
    pub sales: Vec<SaleCard>,
    pub form: SearchForm,
    pub now: i64,
}

/// The form's choices around `search`. A member's remembered departure city (the
/// `trv_departure_city` cookie) fills an empty one. Visitors' pages may be cached and shared,
/// so for them the browser does that (see the search box island).
#[cfg(feature = "ssr")]
async fn form_for(mut search: TravelSearch) -> Result<SearchForm, ServerFnError> {
    use crate::travel::rules::search::{months, remembered_city, sale_of};
    use crate::travel::rules::Date;
    let state = app_state()?;
    let ctx = RequestCtx::current();
    let (db, site, now) = (&state.db, ctx.site_id, now());
    let cities = destinations::departure_cities(db, site, now)
        .await
        .wire::<TravelError>()?;
    let types = destinations::trip_types(db, site, now)
        .await
        .wire::<TravelError>()?;
    if search.departure_city_code.is_empty() && ctx.is_member() {
        let header = use_context::<axum::http::request::Parts>()
            .and_then(|p| {
                p.headers
                    .get(axum::http::header::COOKIE)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let codes: Vec<String> = cities.iter().map(|(c, _)| c.clone()).collect();
        if let Some(code) = remembered_city(&header, &codes) {
            search.departure_city_code = code;
        }
    }
    // A destination given by id alone (a shared link) shows its name.
    if search.destination_text.is_empty() && sale_of(search.destination_id.as_deref()).is_none() {
        if let Some(id) = search
            .destination_id
            .as_deref()
            .and_then(|i| i.parse().ok())
        {
            if let Some(name) = destinations::destination_name(db, site, id)
                .await
                .wire::<TravelError>()?
            {
                search.destination_text = name;
            }
        }
    }
    let today = Date::from_unix(now);
    let lang = ctx.lang();
    let label = |key: String, fallback: &str| {
        crate::site::i18n::lookup(lang, &key)
            .map(str::to_string)
            .unwrap_or_else(|| fallback.to_string())
    };
    Ok(SearchForm {
        search,
        departure_cities: cities
            .into_iter()
            .map(|(value, label)| Choice { value, label })
            .collect(),
        trip_types: types
            .into_iter()
            .map(|t| Choice {
                label: label(format!("travel.search.trip_type.{t}"), &t),
                value: t,
            })
            .collect(),
        months: months(today, PERIOD_MONTHS)
            .into_iter()
            .map(|(value, year, month)| Choice {
                label: ctx.t_with(
                    "travel.search.period.month",
                    &[
                        ("month", &ctx.t(&format!("travel.search.month.{month}"))),
                        ("year", &year.to_string()),
                    ],
                ),
                value,
            })
            .collect(),
        today: today.to_string(),
        refused_checkout: String::new(),
        refused_message: String::new(),
    })
}

/// The search form's choices, starting from `search` (as read from the URL).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/search-form")]
pub async fn fetch_search_form(search: TravelSearch) -> Result<SearchForm, ServerFnError> {
    form_for(search).await
}

/// The travel home of the site.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/home")]
pub async fn fetch_travel_home() -> Result<TravelHome, ServerFnError> {
    use crate::home::store::{home_cached, HomeCache, HomeQuery};
    let state = app_state()?;
    let site = RequestCtx::current().site_id;
    let now = now();
    let cache = shared::<HomeCache>()?;
    let query = HomeQuery {
        key: "travel".into(),
        reduced: false,
        preview_day: None,
        preview_date: None,
        skip_mobile_check: false,
    };
    let home = home_cached(&state.db, &cache, site, &query, now)
        .await
        .wire::<TravelError>()?;
    let sales = destinations::travel_sales(&state.db, site, now)
        .await
        .wire::<TravelError>()?;
    Ok(TravelHome {
        modules: home.map(|h| h.modules).unwrap_or_default(),
        sales,
        form: form_for(TravelSearch::default()).await?,
        now,
    })
}

/// The signed-in member's last viewed travel offers on this site, still on sale, newest
/// first (none for visitors).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/last-viewed")]
pub async fn fetch_last_viewed() -> Result<Vec<TravelOffer>, ServerFnError> {
    let ctx = RequestCtx::current();
    let Some(member) = ctx.member_id else {
        return Ok(Vec::new());
    };
    let state = app_state()?;
    crate::travel::store::last_viewed::list(
        &state.db,
        ctx.site_id,
        member,
        now(),
        LAST_VIEWED_SHOWN,
    )
    .await
    .wire::<TravelError>()
}

/// The countries with live travel offers, by name.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "travel/countries")]
pub async fn fetch_countries() -> Result<Vec<DestinationSuggestion>, ServerFnError> {
    let state = app_state()?;
    destinations::countries(&state.db, RequestCtx::current().site_id, now())
        .await
        .wire::<TravelError>()
}

//! Travel search `/t/s` (the form, with the countries to start from) and its results `/t/r`
//! (the form prefilled from the URL, then the matching offers with their map). A search
//! naming a travel sale leads to that sale's catalog.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::model::travel::TravelSearch;
use crate::routes::ResolvedRoute;
use crate::travel::api::catalog::fetch_offers;
use crate::travel::api::search::{fetch_countries, fetch_search_form};
use crate::travel::rules::search::{
    is_empty, offer_query, parse_search, redirect_url, results_url, sale_of, SearchRequest,
};
use crate::travel::ui::offers::OfferResults;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

pub mod search_box;

pub use search_box::TravelSearchBox;

/// The travel home, where an empty result sends the member back.
pub const TRAVEL_HOME: &str = "/home/travel";

fn loading() -> impl IntoView {
    view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }
}

/// The search of the page's URL.
fn request_of_url() -> SearchRequest {
    let query = use_query_map().get_untracked();
    parse_search(|k| query.get(k))
}

/// The form, prefilled with `search`, once its choices are loaded.
#[component]
fn SearchFormSection(search: TravelSearch, refused: Option<(String, String)>) -> impl IntoView {
    let form = Resource::new(move || search.clone(), fetch_search_form);
    view! {
        <Suspense fallback=loading>
            {move || {
                let refused = refused.clone();
                Suspend::new(async move {
                match form.await {
                    Ok(mut form) => {
                        if let Some((typed, message)) = refused {
                            form.refused_checkout = typed;
                            form.refused_message = message;
                        }
                        view! { <TravelSearchBox form /> }.into_any()
                    }
                    Err(_) => view! { <ErrorNotice /> }.into_any(),
                }
            })}}
        </Suspense>
    }
}

#[component]
pub fn TravelSearchPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let _ = (route, path);
    let ctx = RequestCtx::current();
    let request = request_of_url();
    let countries = Resource::new(|| (), |_| fetch_countries());
    let title = ctx.t("travel.search.title");
    view! {
        <SeoMeta title=title.clone() description=ctx.t("travel.search.description") path="/t/s".to_string() indexable=false />
        <section class="travel-search-page" data-testid="travel-search-page">
            <h1 class="travel-search-page__title">{title}</h1>
            <SearchFormSection search=request.search refused=None />
            <Suspense fallback=loading>
                {move || Suspend::new(async move {
                    let ctx = RequestCtx::current();
                    match countries.await {
                        Ok(list) if !list.is_empty() => view! {
                            <section class="travel-countries" aria-labelledby="trv-countries-title">
                                <h2 id="trv-countries-title" class="home__section-title">{ctx.t("travel.search.countries")}</h2>
                                <ul class="travel-countries__list" data-testid="travel-countries">
                                    {list.into_iter().map(|c| {
                                        let search = TravelSearch {
                                            destination_id: Some(c.id.clone()),
                                            destination_text: c.label.clone(),
                                            ..TravelSearch::default()
                                        };
                                        let offers = if c.count == 1 {
                                            ctx.t("travel.search.offers_count.one")
                                        } else {
                                            ctx.t_with("travel.search.offers_count", &[("count", &c.count.to_string())])
                                        };
                                        view! {
                                            <li>
                                                <a class="travel-countries__link" href=results_url(&search, 0)>
                                                    <span>{c.label}</span>
                                                    <span class="travel-countries__count">{offers}</span>
                                                </a>
                                            </li>
                                        }
                                    }).collect_view()}
                                </ul>
                            </section>
                        }.into_any(),
                        Ok(_) => ().into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// Sends the browser on to `url` (a search naming a travel sale opens its catalog).
fn redirect_to(url: &str) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(location) = axum::http::HeaderValue::from_str(url) {
            response.set_status(axum::http::StatusCode::SEE_OTHER);
            response.insert_header(axum::http::header::LOCATION, location);
        }
    }
    #[cfg(not(feature = "ssr"))]
    let _ = url;
}

/// Keeps the chosen departure city for next time, also when the form was sent without
/// scripts (`/t/r` is a member's page: never a shared cached copy).
fn remember_city(code: &str) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        let cookie = crate::travel::rules::search::departure_cookie(code);
        if let Ok(value) = axum::http::HeaderValue::from_str(&cookie) {
            response.append_header(axum::http::header::SET_COOKIE, value);
        }
    }
    #[cfg(not(feature = "ssr"))]
    let _ = code;
}

#[component]
pub fn TravelResultsPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let _ = route;
    let ctx = RequestCtx::current();
    let SearchRequest {
        search,
        page,
        problem,
        refused_checkout,
    } = request_of_url();
    if sale_of(search.destination_id.as_deref()).is_some() {
        redirect_to(&redirect_url(&search));
    }
    if !search.departure_city_code.is_empty() {
        remember_city(&search.departure_city_code);
    }
    let query = offer_query(&search, ctx.site_id, page);
    let offers = {
        let query = query.clone();
        Resource::new(move || query.clone(), fetch_offers)
    };
    let title = if search.destination_text.is_empty() {
        ctx.t("travel.search.results.title")
    } else {
        ctx.t_with(
            "travel.search.results.title.destination",
            &[("destination", &search.destination_text)],
        )
    };
    // A search is a member's own view: only the bare results page could be indexed.
    let indexable = is_empty(&search) && page == 0;
    view! {
        <SeoMeta title=title.clone() description=ctx.t("travel.search.description") path=path indexable />
        <section class="travel-results" data-testid="travel-results-page">
            <h1 class="travel-search-page__title">{title}</h1>
            // A refused date is said by its field, in the form.
            <SearchFormSection search=search.clone() refused=problem.map(|p| (
                refused_checkout.unwrap_or_default(),
                ctx.t(p.message_key()),
            )) />
            <Suspense fallback=loading>
                {move || {
                    let query = query.clone();
                    Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        match offers.await {
                            Ok(page) if page.total == 0 => view! {
                                <div class="travel-results__empty" data-testid="travel-results-empty">
                                    <h2 class="home__section-title">{ctx.t("travel.search.results.empty")}</h2>
                                    <p>{ctx.t("travel.search.results.empty.hint")}</p>
                                    <a class="button button--primary" href=TRAVEL_HOME>{ctx.t("travel.search.results.back_home")}</a>
                                </div>
                            }.into_any(),
                            Ok(page) => view! {
                                <div class="travel-results__list" data-testid="travel-results">
                                    <OfferResults page query />
                                </div>
                            }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        </section>
    }
}

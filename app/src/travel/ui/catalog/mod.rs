//! Travel catalogs `/t/c/{campaignId}[/{universeId}]` and the SEO `/voyages/c/{campaignId}`
//! (spec 001 §2): the sale's heading, the filters as a GET form (a drawer on phones), the
//! active filters with their remove links, and the offers with the map. The filter state
//! lives in the query (`travel::rules::parse_offer_query`); dates travel as `DDMMYY`, so a
//! form that submitted `YYYY-MM-DD` is redirected to that form of its URL.
mod drawer;
mod filters;

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::RequestCtx;
use crate::model::travel_catalog::{OfferPage, OfferQuery};
use crate::routes::ResolvedRoute;
use crate::travel::api::catalog::fetch_offers;
use crate::travel::rules::{
    active_filters, canonical_query, drawer_cookie, first_page, has_iso_dates, is_filtered,
    offer_query_string, parse_offer_query, query_pairs,
};
use crate::travel::ui::offers::OfferResults;
use crate::ui::error_template::ErrorNotice;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

use filters::{ActiveFilters, FilterForm};

/// Where the catalog's own links point: the SEO path or the members' one.
fn base_path(route: &ResolvedRoute) -> String {
    let campaign = route.get("campaignId").unwrap_or("0");
    match (route.seo, route.get("universeId")) {
        (true, _) => format!("/voyages/c/{campaign}"),
        (false, Some(u)) => format!("/t/c/{campaign}/{u}"),
        (false, None) => format!("/t/c/{campaign}"),
    }
}

#[component]
pub fn TravelCatalogPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let pairs = query_pairs(&use_location().search.get_untracked());
    let query = OfferQuery {
        site_id: ctx.site_id,
        campaign_id: route.get_id("campaignId"),
        universe_id: route.get_id("universeId"),
        ..parse_offer_query(&pairs)
    };
    let base = base_path(&route);
    if has_iso_dates(&pairs) {
        redirect(&format!("{base}{}", canonical_query(&query, &pairs)));
    }
    let _ = path;
    let drawer_open = drawer_cookie_says_open();
    let data = Resource::new(
        {
            let query = query.clone();
            move || query.clone()
        },
        fetch_offers,
    );
    let seo = route.seo;
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let (base, query) = (base.clone(), query.clone());
                move || {
                    let (base, query) = (base.clone(), query.clone());
                    Suspend::new(async move {
                        match data.await {
                            Ok(page) if page.campaign_name.is_some() => {
                                view! { <CatalogView page query base seo drawer_open /> }.into_any()
                            }
                            Ok(_) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn CatalogView(
    page: OfferPage,
    query: OfferQuery,
    base: String,
    seo: bool,
    drawer_open: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let name = page.campaign_name.clone().unwrap_or_default();
    let campaign = query.campaign_id.unwrap_or(0);
    let description = ctx.t_with(
        "travel.catalog.description",
        &[("sale", &name), ("brand", ctx.site().brand.name())],
    );
    // One indexable address per sale: its SEO path, unfiltered and on its first page.
    let indexable = seo && !is_filtered(&query) && query.page == 0;
    let canonical = format!("/voyages/c/{campaign}");
    let active = active_filters(&query);
    let active_count = active.len();
    let reset = format!("{base}?dc=0");
    let link = {
        let base = base.clone();
        move |q: &OfferQuery| format!("{base}{}", offer_query_string(q))
    };
    let remove_links: Vec<(String, String, String)> = active
        .iter()
        .map(|a| (a.name.clone(), a.value.clone(), link(&a.without)))
        .collect();
    let intro = if page.total == 1 {
        ctx.t("travel.catalog.intro.one")
    } else {
        ctx.t_with(
            "travel.catalog.intro",
            &[("count", &page.total.to_string())],
        )
    };
    let facets = page.facets.clone();
    view! {
        <SeoMeta title=name.clone() description path=canonical indexable />
        <section class="trv-catalog" data-campaign-id=campaign data-testid="travel-catalog">
            <header class="trv-catalog__head">
                <h1>{name}</h1>
                <p class="trv-catalog__intro">{intro}</p>
            </header>
            <div class="trv-catalog__layout">
                <aside class="trv-catalog__filters" aria-label=ctx.t("travel.filter.title")>
                    <details id=drawer::DRAWER_ID class="filters-box trv-drawer" open=drawer_open data-testid="filters-drawer"
                        data-cookie-open=drawer_cookie(true) data-cookie-closed=drawer_cookie(false)>
                        <summary class="filters-box__summary trv-drawer__toggle" data-testid="filters-toggle">
                            {ctx.t("travel.filter.title")}
                            {(active_count > 0).then(|| view! { <span class="trv-drawer__badge">{format!(" ({active_count})")}</span> })}
                        </summary>
                        <FilterForm facets=facets.clone() query=first_page(&query) action=base.clone() reset=reset.clone() />
                        <drawer::DrawerControl />
                    </details>
                </aside>
                <div class="trv-catalog__main">
                    <ActiveFilters links=remove_links facets=facets reset />
                    <OfferResults page query />
                </div>
            </div>
        </section>
    }
}

/// Sends the browser to `target` (302) instead of rendering: the page is rendered whole
/// before anything is sent (async SSR), so the status and header still apply.
fn redirect(target: &str) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::FOUND);
        if let Ok(value) = axum::http::HeaderValue::from_str(target) {
            response.insert_header(axum::http::header::LOCATION, value);
        }
    }
    #[cfg(not(feature = "ssr"))]
    let _ = target;
}

/// Whether the phone drawer was left open (`trv_push_filter=drawerOpened`).
fn drawer_cookie_says_open() -> bool {
    #[cfg(feature = "ssr")]
    {
        use_context::<axum::http::request::Parts>()
            .and_then(|p| {
                p.headers
                    .get(axum::http::header::COOKIE)
                    .and_then(|v| v.to_str().ok())
                    .map(crate::travel::rules::drawer_open)
            })
            .unwrap_or(false)
    }
    #[cfg(not(feature = "ssr"))]
    false
}

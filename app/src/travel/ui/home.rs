//! The travel home `/home/travel` (and `/voyage`, `/voyage/default`, the open-door
//! `/voyages`): the search form, the modules of the site's `travel` home, its live travel
//! sales and, for a signed-in member, the travel offers they opened last.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::home::ui::modules::Module;
use crate::home::ui::tiles::Countdown;
use crate::model::catalog::SaleCard;
use crate::model::experiments::Feature;
use crate::model::travel::TravelOffer;
use crate::routes::ResolvedRoute;
use crate::travel::api::search::{fetch_last_viewed, fetch_travel_home, TravelHome};
use crate::travel::ui::offers::OfferCard;
use crate::travel::ui::search::TravelSearchBox;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

/// The one address search engines get for the travel home.
pub const CANONICAL_PATH: &str = "/voyages";

#[component]
pub fn TravelHomePage(route: ResolvedRoute, path: String) -> impl IntoView {
    let _ = path;
    let home = Resource::new(|| (), |_| fetch_travel_home());
    // The last viewed list is a launched feature held back from a small control
    // (`member_last_viewed`): not fetched for a request that goes without it.
    let last_viewed = RequestCtx::current().experiments.on(Feature::LastViewed);
    let recent = Resource::new(
        move || last_viewed,
        |shown| async move {
            if shown {
                fetch_last_viewed().await
            } else {
                Ok(Vec::new())
            }
        },
    );
    let seo = route.seo;
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                match (home.await, recent.await) {
                    (Ok(home), recent) => {
                        // The last viewed list is a bonus: the home shows without it.
                        let recent = recent.unwrap_or_default();
                        view! { <TravelHomeView home recent seo /> }.into_any()
                    }
                    (Err(_), _) => view! { <ErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn TravelHomeView(home: TravelHome, recent: Vec<TravelOffer>, seo: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let title = ctx.t_with("travel.home.title", &[("brand", brand)]);
    let description = ctx.t_with("travel.home.description", &[("brand", brand)]);
    let now = home.now;
    let sales = home.sales;
    view! {
        <SeoMeta title=title.clone() description path=CANONICAL_PATH.to_string() indexable=seo />
        <section class="home travel-home" data-testid="travel-home">
            <div class="home__hero">
                <h1>{ctx.t("travel.home.heading")}</h1>
                <p>{ctx.t("travel.home.subtitle")}</p>
            </div>
            <section class="travel-home__search" aria-labelledby="trv-home-search">
                <h2 id="trv-home-search" class="home__section-title">{ctx.t("travel.home.search")}</h2>
                <TravelSearchBox form=home.form />
            </section>
            {(!recent.is_empty()).then(|| view! { <LastViewed offers=recent /> })}
            <section class="travel-home__sales" aria-labelledby="trv-home-sales">
                <h2 id="trv-home-sales" class="home__section-title">{ctx.t("travel.home.sales")}</h2>
                {if sales.is_empty() {
                    view! { <p class="empty">{ctx.t("travel.home.sales.empty")}</p> }.into_any()
                } else {
                    view! {
                        <ul class="sale-grid" data-testid="travel-sales">
                            {sales.into_iter().map(|sale| view! { <TravelSaleTile sale now /> }).collect_view()}
                        </ul>
                    }.into_any()
                }}
            </section>
            {home.modules.into_iter().map(|module| view! { <Module module now /> }).collect_view()}
        </section>
    }
}

/// A live travel sale: members open its catalog, visitors its open-door variant.
#[component]
fn TravelSaleTile(sale: SaleCard, now: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    let href = if ctx.is_member() {
        crate::travel::rules::catalog_link(None, Some(&sale.seo_slug), sale.id)
    } else {
        format!("/voyages/c/{}", sale.id)
    };
    let price = sale
        .min_price_cents
        .map(|c| ctx.t_with("sale.from_price", &[("price", &ctx.money(c))]));
    let discount = sale
        .max_discount_percent
        .map(|d| ctx.t_with("sale.discount_up_to", &[("percent", &d.to_string())]));
    let end = sale.end_date;
    view! {
        <li class="sale-tile" data-sale-id=sale.id data-testid="travel-sale">
            <a href=href>
                <img class="sale-tile__banner" src=sale.banner_url alt="" width="600" height="300" loading="lazy" />
                <div class="sale-tile__body">
                    <img class="sale-tile__logo" src=sale.logo_url alt="" width="48" height="48" loading="lazy" />
                    <div>
                        <h3 class="sale-tile__name">{sale.name}</h3>
                        <p class="sale-tile__meta">
                            {discount.map(|d| view! { <span class="sale-tile__discount">{d}</span> })}
                            {price.map(|p| view! { <span class="sale-tile__price">{p}</span> })}
                        </p>
                        <div class="sale-tile__ends"><Countdown end now /></div>
                    </div>
                </div>
            </a>
        </li>
    }
}

/// The member's last viewed offers, newest first, as the offer cards of the lists (the
/// travel home and the travel product page show it).
#[component]
pub fn LastViewed(offers: Vec<TravelOffer>) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="travel-home__recent" aria-labelledby="trv-home-recent" data-testid="travel-last-viewed">
            <h2 id="trv-home-recent" class="home__section-title">{ctx.t("travel.home.last_viewed")}</h2>
            <ul class="trv-offers travel-home__recent-list">
                {offers.into_iter().map(|offer| view! { <OfferCard offer /> }).collect_view()}
            </ul>
        </section>
    }
}

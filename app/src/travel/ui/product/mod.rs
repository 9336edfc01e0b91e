//! Travel product `/t/p/{campaignId}/{productId}` and its SEO twin `/voyages/p/...`
//! (spec 001 §2, §3, §4): title, price with its notices, description, tabs and the
//! configurator with its price calendar. Complete in the server HTML, the configurator
//! included: it is a form that works without scripts (`configurator.rs`).
mod calendar;
mod configurator;
mod facts;
mod party;

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::RequestCtx;
use crate::routes::ResolvedRoute;
use crate::travel::api::product::{fetch_travel_product, TravelProductLoad};
use crate::ui::error_template::ErrorNotice;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

pub use calendar::show_date;

#[component]
pub fn TravelProductPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let key = (
        route.get_id("campaignId").unwrap_or(0),
        route.get_id("productId").unwrap_or(0),
    );
    // The configurator's form comes back to the page with its fields in the query.
    let query = use_location().search;
    let load = Resource::new(
        move || (key, query.get()),
        |((campaign_id, product_id), query)| fetch_travel_product(campaign_id, product_id, query),
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let path = path.clone();
                move || {
                    let path = path.clone();
                    Suspend::new(async move {
                        match load.await {
                            Ok(Some(load)) => view! { <ProductView load path /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn ProductView(load: TravelProductLoad, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let product = load.product.clone();
    let url = ctx.url_on(ctx.site_id, &path);
    let ld = facts::json_ld(&product, &url, ctx.site().currency_code);
    let description = ctx.t_with(
        "travel.product.meta",
        &[
            ("title", &product.title),
            ("destination", &product.destination),
        ],
    );
    let product_path = format!("/t/p/{}/{}", product.campaign_id, product.id);
    let product_id = product.id;
    let TravelProductLoad {
        product: full,
        config,
        days,
        age_changes,
    } = load;
    view! {
        <SeoMeta title=product.title.clone() description path=path.clone() />
        <script type="application/ld+json" inner_html=ld></script>
        <article class="trip" data-product-id=product_id>
            <header class="trip__head">
                <p class="trip__destination">{product.destination.clone()}</p>
                <h1 class="trip__title">{product.title.clone()}</h1>
                {product.benefit.clone().map(|b| view! { <p class="trip__benefit badge">{b}</p> })}
            </header>
            <div class="trip__media">
                <img class="trip__image" src=product.image.clone() alt=product.title.clone() width="640" height="400" />
                <crate::ui::favourite::FavouriteButton sale_id=product.campaign_id item_id=product.id initial=product.favorite compact=false />
            </div>
            <facts::PriceBox product=product.clone() />
            <configurator::ConfiguratorForm product=full config days age_changes action=path.clone() product_path />
            <facts::Description product />
        </article>
        <RecentTrips current=product_id />
    }
}

/// The member's other last viewed trips (none for visitors, nor for the control of the
/// `member_last_viewed` holdback); the page shows without them.
#[component]
fn RecentTrips(current: i64) -> impl IntoView {
    let shown = RequestCtx::current()
        .experiments
        .on(crate::model::experiments::Feature::LastViewed);
    let recent = Resource::new(
        move || shown,
        |shown| async move {
            if shown {
                crate::travel::api::search::fetch_last_viewed().await
            } else {
                Ok(Vec::new())
            }
        },
    );
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let offers: Vec<_> = recent
                    .await
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|o| o.id != current)
                    .collect();
                (!offers.is_empty()).then(|| view! { <crate::travel::ui::home::LastViewed offers /> })
            })}
        </Suspense>
    }
}

//! Offer cards and the map, shared by the catalogs and the search results.
//!
//! The list is complete server HTML: a page reached with `?page=N` (the no-script "more"
//! link) lists pages 1 to N, so nothing is lost without scripts. `frontend-react/src/pages/travel-offers.ts`
//! (plain JS, loaded by these pages only) makes "more" append the next page's cards in
//! place and ties each pin of the map to its card.
mod map;
mod more;

use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::{MapOffer, MapPrice, TravelOffer};
use crate::model::travel_catalog::{OfferPage, OfferQuery, OFFERS_PAGE_SIZE};
use crate::travel::api::catalog::fetch_offers_before;
use crate::ui::favourite::FavouriteButton;

pub use map::OfferMap;
pub use more::MoreOffers;

/// The list the script works on.
pub const GRID_ID: &str = "offers-grid";
/// The map element the script works on.
pub const MAP_ID: &str = "offers-map";

/// The pin and thumbnail of an offer, its price formatted for the member.
pub fn map_offer(offer: &TravelOffer, ctx: &RequestCtx) -> MapOffer {
    MapOffer {
        id: offer.id,
        title: offer.title.clone(),
        image: offer.image.clone(),
        href: offer.href.clone(),
        lat: offer.lat,
        lng: offer.lng,
        price: MapPrice {
            value: ctx.money(offer.price_from),
            unit: ctx.t("travel.offer.per_person"),
        },
        benefit: offer.benefit.clone(),
    }
}

/// The offers of a catalog or of search results: cards, "more", and the map when the
/// sale has one (`page.with_map`). `query` is the state `page` was read with.
#[component]
pub fn OfferResults(page: OfferPage, query: OfferQuery) -> impl IntoView {
    if page.page == 0 {
        return view! { <OfferList earlier=vec![] page /> }.into_any();
    }
    // Reached without scripts through "more": the pages before this one come first.
    let before = OfferQuery {
        page: page.page,
        ..query
    };
    let earlier = Resource::new(move || before.clone(), fetch_offers_before);
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let page = page.clone();
                move || {
                    let page = page.clone();
                    Suspend::new(async move {
                        let earlier = earlier.await.unwrap_or_default();
                        view! { <OfferList earlier page /> }
                    })
                }
            }
        </Suspense>
    }
    .into_any()
}

#[component]
fn OfferList(earlier: Vec<TravelOffer>, page: OfferPage) -> impl IntoView {
    let ctx = RequestCtx::current();
    let size = OFFERS_PAGE_SIZE.max(1) as usize;
    let offers: Vec<(u32, TravelOffer)> = earlier
        .into_iter()
        .enumerate()
        .map(|(i, o)| ((i / size) as u32, o))
        .chain(page.offers.iter().cloned().map(|o| (page.page, o)))
        .collect();
    let shown = offers.len() as u32;
    let total = page.total;
    let heading = if total == 1 {
        ctx.t("travel.offer.count.one")
    } else {
        ctx.t_with("travel.offer.count", &[("count", &total.to_string())])
    };
    let map = page.with_map && !offers.is_empty();
    let pins: Vec<MapOffer> = offers.iter().map(|(_, o)| map_offer(o, &ctx)).collect();
    let (path, search) = current_address();
    view! {
        <section class="trv-results" class:trv-results--map=map aria-labelledby="trv-results-title" data-testid="offer-results">
            <h2 id="trv-results-title" class="trv-results__title" data-testid="offers-count" data-total=total>{heading}</h2>
            {(total == 0).then(|| view! { <p class="trv-results__empty" data-testid="offers-empty">{ctx.t("travel.offer.empty")}</p> })}
            <div class="trv-results__body">
                <div class="trv-results__list">
                    <ul id=GRID_ID class="trv-offers" data-testid="offers-grid">
                        {offers.into_iter().map(|(n, offer)| view! { <OfferCard offer page=n /> }).collect_view()}
                    </ul>
                    {(shown < total).then(|| view! {
                        <MoreOffers path search shown total next=page.page + 1 />
                    })}
                </div>
                {map.then(|| view! {
                    // The map's script loads as it nears the viewport (`pages/navigation.ts`).
                    <div class="trv-results__map" data-widget-visible=crate::ui::assets::widget("travel-map")>
                        <OfferMap offers=pins label=ctx.t("travel.offer.map") />
                    </div>
                })}
            </div>
            <script type="module" src=crate::ui::assets::script("travel-offers")></script>
        </section>
    }
}

/// The path and query string of the page being rendered ("more" links to the same one).
fn current_address() -> (String, String) {
    let location = leptos_router::hooks::use_location();
    (
        location.pathname.get_untracked(),
        location.search.get_untracked(),
    )
}

/// An offer's card: its title links to the product; hovering or focusing it highlights
/// its pin (the script listens); `data-map-offer` lets the map pin cards appended later.
#[component]
pub fn OfferCard(offer: TravelOffer, #[prop(default = 0)] page: u32) -> impl IntoView {
    let ctx = RequestCtx::current();
    let pin = serde_json::to_string(&map_offer(&offer, &ctx)).unwrap_or_default();
    let board =
        crate::site::i18n::lookup(ctx.lang(), &format!("travel.filter.board.{}", offer.board))
            .map(String::from)
            .unwrap_or_else(|| offer.board.clone());
    let nights = ctx.t_with(
        "travel.offer.nights",
        &[("count", &offer.nights.to_string())],
    );
    let rating = ctx.t_with(
        "travel.offer.rating",
        &[("count", &offer.rating.to_string())],
    );
    let title_id = format!("offer-{}-title", offer.id);
    let labelled_by = title_id.clone();
    let retail = (offer.retail_value > offer.price_from).then(|| {
        view! {
            <s class="trv-card__retail">
                <span class="visually-hidden">{ctx.t("travel.offer.retail")}" "</span>
                {ctx.money(offer.retail_value)}
            </s>
        }
    });
    view! {
        <li class="trv-card" data-offer-id=offer.id data-page=page data-map-offer=pin data-testid="offer-card">
            <article class="trv-card__body" aria-labelledby=labelled_by>
                <img class="trv-card__image" src=offer.image.clone() alt="" width="320" height="200" loading="lazy" decoding="async" />
                <div class="trv-card__text">
                    <h3 class="trv-card__title" id=title_id>
                        <a href=offer.href.clone() data-testid="offer-link">{offer.title.clone()}</a>
                    </h3>
                    <p class="trv-card__destination">{offer.destination.clone()}</p>
                    <p class="trv-card__facts">
                        {(offer.nights > 0).then(|| view! { <span>{nights}</span> })}
                        <span>{board}</span>
                        {(offer.rating > 0).then(|| view! { <span>{rating}</span> })}
                    </p>
                    <p class="trv-card__prices">
                        <span class="trv-card__from">{ctx.t("travel.offer.from")}</span>" "
                        <strong class="trv-card__price" data-testid="offer-price">{ctx.money(offer.price_from)}</strong>" "
                        {retail}
                        <span class="trv-card__unit">{ctx.t("travel.offer.per_person")}</span>
                    </p>
                    {offer.benefit.clone().map(|b| view! { <p class="trv-card__benefit">{b}</p> })}
                </div>
                <FavouriteButton sale_id=offer.campaign_id item_id=offer.id initial=offer.favorite compact=true />
            </article>
        </li>
    }
}

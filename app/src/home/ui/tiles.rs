//! Home tiles: banner tiles in the M / XL / XXL / MEGAFAT sizes and 1x1, 1x2, 2x1, 2x2
//! layouts, the sale grid and the ticking end-date countdown of every sale tile.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::home::rules::{
    countdown_text, seconds_left, tile_classes, MEDIA_ADS, PUBLICITY, SPONSORED,
};
use crate::model::catalog::SaleCard;
use crate::model::home::Banner;

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;
}

/// Unix seconds by the clock of whoever runs this (browser or server).
pub fn unix_now() -> i64 {
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        (date_now() / 1000.0) as i64
    }
    #[cfg(feature = "ssr")]
    {
        crate::platform::state::now()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        0
    }
}

/// "Ends in 2 d 04:12:09": rendered by the server from its clock (`now`), then ticking
/// once a second in the browser, as an island of its own.
#[island]
pub fn Countdown(end: i64, now: i64) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    view! { <CountdownClock end now /> }
}

/// The countdown itself; inside another island use this rather than `Countdown`, which
/// would be hydrated twice.
#[component]
pub fn CountdownClock(end: i64, now: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    let lang = ctx.lang();
    // It ticks on in the browser: from days to hours to the end.
    crate::site::i18n::shown_later([
        "home.countdown.days",
        "home.countdown.hours",
        "home.countdown.ended",
    ]);
    let left = RwSignal::new(seconds_left(end, now));
    Effect::new(move |_| {
        let handle = set_interval_with_handle(
            move || left.set(seconds_left(end, unix_now())),
            std::time::Duration::from_secs(1),
        );
        // A tile's clock stops with its page: once it is swapped out by an in-app
        // navigation (where `on_cleanup` does not run) or when its island is disposed.
        let Ok(handle) = handle else { return };
        #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
        crate::ui::hydrated::on_page_swapped(move || handle.clear());
        on_cleanup(move || handle.clear());
    });
    let date = ctx.t_with("sale.ends_on", &[("date", &ctx.date(end))]);
    view! {
        // A span: it sits inside tiles' captions, which are spans within links.
        <span class="countdown" data-testid="countdown" title=date>
            <span aria-hidden="true" class="countdown__clock"></span>
            <span class="countdown__text">{move || countdown_text(lang, left.get())}</span>
        </span>
    }
}

/// A banner as a tile of its size and layout. Sale banners carry the countdown.
#[component]
pub fn BannerTile(
    banner: Banner,
    now: i64,
    #[prop(optional)] link: Option<String>,
    /// Set when an island renders the tile (its countdown then ticks as part of it).
    #[prop(optional)]
    in_island: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let classes = tile_classes(&banner.tile_size, &banner.layout);
    let href = link.unwrap_or_else(|| banner.link.clone());
    let is_ad = banner.kind == MEDIA_ADS;
    let sponsored = banner.advertising_type.as_deref() == Some(SPONSORED);
    let mobile = (!banner.mobile_image_url.is_empty()).then(|| banner.mobile_image_url.clone());
    view! {
        <li
            class=classes
            data-testid="banner-tile"
            data-banner-kind=banner.kind.clone()
            data-banner-id=banner.id
            data-tile-size=banner.tile_size.clone()
            data-layout=banner.layout.clone()
        >
            <a href=href class="tile__link">
                <picture class="tile__media">
                    {mobile.map(|m| view! { <source media="(max-width: 640px)" srcset=m /> })}
                    <img src=banner.image_url.clone() alt="" loading="lazy" width="600" height="300" />
                </picture>
                <span class="tile__caption">
                    {is_ad.then(|| view! {
                        <span class="tile__ad" data-advertising-type=if sponsored { SPONSORED } else { PUBLICITY }>
                            {if sponsored { ctx.t("home.sponsored_label") } else { ctx.t("home.ad_label") }}
                        </span>
                    })}
                    <span class="tile__title">{banner.title.clone()}</span>
                    {banner.end_date.map(|end| if in_island {
                        view! { <CountdownClock end now /> }.into_any()
                    } else {
                        view! { <Countdown end now /> }.into_any()
                    })}
                </span>
            </a>
        </li>
    }
}

/// Every live sale, as the flat grid (`data-testid="sale-grid"`).
#[component]
pub fn SaleGrid(sales: Vec<SaleCard>, now: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <ul class="sale-grid" data-testid="sale-grid">
            {sales.into_iter().map(|sale| view! { <SaleTile sale ctx=ctx.clone() now /> }).collect_view()}
        </ul>
    }
}

#[component]
fn SaleTile(sale: SaleCard, ctx: RequestCtx, now: i64) -> impl IntoView {
    // Members go to the catalog; visitors to its open-door SEO variant.
    let href = if ctx.is_member() {
        format!("/catalog/{}/{}", sale.id, sale.first_universe_id)
    } else {
        format!(
            "/c/{}/{}/{}",
            sale.seo_slug, sale.id, sale.first_universe_id
        )
    };
    let price = sale
        .min_price_cents
        .map(|c| ctx.t_with("sale.from_price", &[("price", &ctx.money(c))]));
    let discount = sale
        .max_discount_percent
        .map(|d| ctx.t_with("sale.discount_up_to", &[("percent", &d.to_string())]));
    let end = sale.end_date;
    let offer = crate::catalog::offer::label_key(&sale.offer_type).map(|k| {
        view! { <span class="offer-badge" data-offer=sale.offer_type.clone()>{ctx.t(k)}</span> }
    });
    view! {
        <li class="sale-tile" data-sale-id=sale.id>
            <a href=href>
                <img class="sale-tile__banner" src=sale.banner_url alt="" width="600" height="300" loading="lazy" />
                <div class="sale-tile__body">
                    <img class="sale-tile__logo" src=sale.logo_url alt="" width="48" height="48" loading="lazy" />
                    <div>
                        <h3 class="sale-tile__name">{sale.name}</h3>
                        <p class="sale-tile__meta">
                            {offer}
                            {discount.map(|d| view! { <span class="sale-tile__discount">{d}</span> })}
                            {price.map(|p| view! { <span class="sale-tile__price" data-testid="sale-price">{p}</span> })}
                        </p>
                        <div class="sale-tile__ends"><Countdown end now /></div>
                    </div>
                </div>
            </a>
        </li>
    }
}

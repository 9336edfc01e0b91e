//! The item tile of the catalog, brand, favourites and search grids.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::catalog_api::{Availability, CatalogItem};
use crate::ui::favourite::{FavouriteButton, FavouriteToggle};
use crate::ui::personal::{Marks, TileState};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakpoint {
    Mobile,
    Tablet,
    Desktop,
}

/// Catalog media width by columns and breakpoint (spec 000 §9).
pub fn media_size(columns: u8, bp: Breakpoint) -> u32 {
    match (columns <= 2, bp) {
        (_, Breakpoint::Mobile) => 179,
        (true, Breakpoint::Tablet) => 312,
        (true, Breakpoint::Desktop) => 361,
        (false, Breakpoint::Tablet) => 235,
        (false, Breakpoint::Desktop) => 285,
    }
}

/// A catalog tile, shared by the catalog, brand, favourites and search pages.
/// The `sizes` attribute of a tile's image in a grid of `columns`.
pub fn sizes_attr(columns: u8) -> String {
    let size = |bp| media_size(columns, bp);
    format!(
        "(min-width: 1025px) {}px, (min-width: 641px) {}px, {}px",
        size(Breakpoint::Desktop),
        size(Breakpoint::Tablet),
        size(Breakpoint::Mobile)
    )
}

#[component]
pub fn ItemTile(
    item: CatalogItem,
    #[prop(default = 2)] columns: u8,
    /// Set when the tile is rendered by an island (which then hydrates its heart too).
    #[prop(optional)]
    in_island: bool,
) -> impl IntoView {
    // A member template holds the tile once per state of the member's own (heart, hold);
    // the server keeps the member's variant (`ui::personal`). Tiles inside an island are
    // never in a template: their props would carry the stand-in's state.
    match Marks::current().filter(|_| !in_island) {
        Some(marks) => {
            let variants = TileState::ALL
                .iter()
                .map(|state| {
                    let mut variant = item.clone();
                    variant.favorite = state.favourite;
                    variant.availability = match state.held {
                        1 => Availability::InBasket,
                        2 => Availability::MaxReached,
                        _ => item.availability,
                    };
                    view! { {marks.choice(item.id, *state)} {tile(variant, columns, false)} }
                })
                .collect_view();
            view! { {variants} {marks.choice_end()} }.into_any()
        }
        None => tile(item, columns, in_island).into_any(),
    }
}

/// A product's page: the member's, or the one open to search engines.
fn product_href(ctx: &RequestCtx, sale_id: i64, id: i64, brand: &str, name: &str) -> String {
    if ctx.is_member() {
        format!("/product/{sale_id}/{id}")
    } else {
        format!(
            "/seo-product/{}/{sale_id}/{}/{id}",
            crate::text::slug::slug(brand),
            crate::text::slug::slug(name),
        )
    }
}

/// A Carrousel item's strip (type 7): the pictures of its bundle's products, each a link,
/// scrolled sideways (CSS scroll snap, no script).
fn carousel_strip(ctx: &RequestCtx, item: &CatalogItem) -> Option<impl IntoView> {
    if item.carousel.is_empty() {
        return None;
    }
    let entries = item
        .carousel
        .iter()
        .map(|e| {
            let href = product_href(ctx, item.sale_id, e.id, &e.brand, &e.name);
            view! {
                <li><a href=href title=e.name.clone()>
                    <img src=e.image_url.clone() alt=e.name.clone() width="64" height="64" loading="lazy" />
                </a></li>
            }
        })
        .collect_view();
    Some(view! {
        <ul class="item-tile__carousel" aria-label=ctx.t("catalog.carousel") data-testid="carousel">
            {entries}
        </ul>
    })
}

fn tile(item: CatalogItem, columns: u8, in_island: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let href = product_href(&ctx, item.sale_id, item.id, &item.brand, &item.name);
    let strip = carousel_strip(&ctx, &item);
    let discount = crate::site::format::discount_percent(item.price.value, item.price.retail_value);
    // Dynamic pricing as a price display variant (experiment, spec 000 §6): the saving in
    // money under the prices. The control shows the prices as they always were.
    let saving = (ctx
        .experiments
        .on(crate::model::experiments::Feature::DynamicPricing)
        && item.price.retail_value > item.price.value)
        .then(|| {
            let amount = ctx.money(item.price.retail_value - item.price.value);
            ctx.t_with("experiments.price.saving", &[("amount", &amount)])
        });
    let out = item.availability == Availability::OutOfStock;
    let status = match item.availability {
        Availability::Available => None,
        Availability::OutOfStock => Some(ctx.t("product.out_of_stock")),
        Availability::InBasket => Some(ctx.t("product.in_basket")),
        Availability::MaxReached => Some(ctx.t("product.max_reached")),
    };
    let availability = format!("{:?}", item.availability);
    let size = |bp| media_size(columns, bp);
    let src = item.image_url.clone();
    // A drawn picture (SVG) fits any width: widths to choose from would only cost bytes
    // (about 14 KB of a 48-tile catalog page). Uploaded pictures come in the tile's widths.
    let scalable = src.ends_with(".svg");
    let sizes = (!scalable).then(|| sizes_attr(columns));
    let srcset = (!scalable).then(|| {
        [179, 235, 285, 312, 361]
            .iter()
            .map(|w| format!("{src}?w={w} {w}w"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    let width = size(Breakpoint::Desktop);
    let kind = match item.item_type {
        7 => Some(ctx.t("catalog.type.carrousel")),
        10 => Some(ctx.t("catalog.type.ad")),
        _ => None,
    }
    .map(|label| view! { <span class="item-tile__type">{label}</span> });
    let tier = (item.tier != "ORDINARY").then(|| {
        let key = format!("catalog.tier.{}", item.tier.to_ascii_lowercase());
        view! { <span class="item-tile__tier" data-tier=item.tier.clone()>{ctx.t(&key)}</span> }
    });
    view! {
        <li class="item-tile" class:item-tile--out=out data-item-id=item.id data-favorite=item.favorite.to_string()
            data-tier=item.tier.clone() data-availability=availability data-type=item.item_type>
            <a href=href>
                <img src=item.image_url.clone() srcset=srcset sizes=sizes alt=item.name.clone() width=width height=width loading="lazy" />
                {tier}
                {kind}
                <p class="item-tile__brand">{item.brand.clone()}</p>
                <p class="item-tile__name">{item.name.clone()}</p>
                <p class="item-tile__prices">
                    <span class="item-tile__price">{ctx.money(item.price.value)}</span>
                    <s>{ctx.money(item.price.retail_value)}</s>
                    {discount.map(|d| view! { <span class="item-tile__discount">{format!("-{d}%")}</span> })}
                </p>
                {saving.map(|s| view! { <p class="item-tile__saving" data-testid="price-saving">{s}</p> })}
                {status.map(|s| view! { <p class="item-tile__stock">{s}</p> })}
            </a>
            {strip}
            {if in_island {
                view! { <FavouriteToggle sale_id=item.sale_id item_id=item.id initial=item.favorite compact=true /> }.into_any()
            } else {
                view! { <FavouriteButton sale_id=item.sale_id item_id=item.id initial=item.favorite compact=true /> }.into_any()
            }}
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_sizes() {
        assert_eq!(media_size(2, Breakpoint::Desktop), 361);
        assert_eq!(media_size(1, Breakpoint::Tablet), 312);
        assert_eq!(media_size(4, Breakpoint::Desktop), 285);
        assert_eq!(media_size(3, Breakpoint::Tablet), 235);
        assert_eq!(media_size(3, Breakpoint::Mobile), 179);
    }
}

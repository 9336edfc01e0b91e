//! The deals home: the live rose-deals sales of the site, each deal with its partner,
//! face value, price, validity and stock, the cart button and the favourite heart; above
//! them, for a member with deals in the cart, the media basket (spec 001 §2 "basket").
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::help::ui::pages::PostSalesErrorNotice;
use crate::rosedeals::api::{fetch_basket, fetch_deals};
use crate::rosedeals::model::{Deal, DealBasket};

#[component]
pub fn DealsHome() -> impl IntoView {
    let load = Resource::new(|| (), |_| fetch_deals());
    let basket = Resource::new(|| (), |_| fetch_basket());
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                // A failed basket is logged (the server function) and leaves the deals shown.
                match basket.await {
                    Ok(Some(b)) if !b.items.is_empty() => view! { <Basket basket=b /> }.into_any(),
                    _ => ().into_any(),
                }
            })}
        </Suspense>
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                match load.await {
                    Ok(sales) if sales.is_empty() => view! {
                        <p class="account-empty" data-testid="deals-empty">{RequestCtx::current().t("rosedeals.home.empty")}</p>
                    }.into_any(),
                    Ok(sales) => sales.into_iter().map(|s| {
                        let ctx = RequestCtx::current();
                        let heading = format!("deal-sale-{}", s.sale_id);
                        let labelled = heading.clone();
                        view! {
                            <section class="deal-sale" aria-labelledby=labelled data-testid="deal-sale">
                                <h2 id=heading>{s.name.clone()}</h2>
                                <p class="deal-sale__ends">{ctx.t_with("rosedeals.home.ends", &[("date", &ctx.date(s.ends_at))])}</p>
                                <ul class="deal-grid">
                                    {s.deals.into_iter().map(|d| view! { <DealTile deal=d /> }).collect_view()}
                                </ul>
                            </section>
                        }
                    }).collect_view().into_any(),
                    Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn DealTile(deal: Deal) -> impl IntoView {
    let ctx = RequestCtx::current();
    let face = ctx.money(deal.face_value);
    let price = ctx.money(deal.price);
    let offer = ctx.t_with(
        "rosedeals.deal.offer",
        &[
            ("value", &face),
            ("partner", &deal.partner),
            ("price", &price),
        ],
    );
    let validity = ctx.t_with(
        "rosedeals.deal.validity",
        &[("days", &deal.validity_days.to_string())],
    );
    let stock = if deal.stock > 0 {
        ctx.t_with(
            "rosedeals.deal.stock",
            &[("count", &deal.stock.to_string())],
        )
    } else {
        ctx.t("rosedeals.deal.sold_out")
    };
    let member = ctx.is_member();
    view! {
        <li class="deal-tile" data-testid="deal" data-item-id=deal.item_id data-option-id=deal.option_id>
            <h3 class="deal-tile__partner">{deal.partner.clone()}</h3>
            <p class="deal-tile__offer" data-testid="deal-offer">{offer}</p>
            <p class="deal-tile__meta">{validity}" · "{stock}</p>
            {(deal.stock > 0).then(|| view! { <crate::rosedeals::ui::add::AddDeal sale_id=deal.sale_id option_id=deal.option_id /> })}
            {member.then(|| view! { <crate::ui::favourite::FavouriteButton sale_id=deal.sale_id item_id=deal.item_id initial=deal.is_favorite compact=false /> })}
        </li>
    }
}

/// The member's media basket: the rose-deal lines waiting in the cart, their total and the
/// way to the cart.
#[component]
fn Basket(basket: DealBasket) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="deal-basket account-section" aria-labelledby="deal-basket-title" data-testid="deal-basket">
            <h2 id="deal-basket-title">{ctx.t("rosedeals.basket.title")}</h2>
            <ul class="deal-basket__lines">
                {basket.items.into_iter().map(|l| {
                    let ctx = RequestCtx::current();
                    view! {
                        <li data-testid="deal-basket-line" data-product-id=l.product_id.clone()>
                            {ctx.t_with("rosedeals.basket.line", &[
                                ("partner", &l.partner),
                                ("name", &l.name),
                                ("quantity", &l.quantity.to_string()),
                                ("price", &ctx.money(l.price * l.quantity)),
                            ])}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p class="deal-basket__total" data-testid="deal-basket-total">{ctx.t_with("rosedeals.basket.total", &[("amount", &ctx.money(basket.total))])}</p>
            <p><a class="button button--primary" href="/cart" data-testid="deal-basket-cart">{ctx.t("rosedeals.basket.cart")}</a></p>
        </section>
    }
}

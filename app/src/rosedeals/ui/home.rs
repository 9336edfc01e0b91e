//! The deals home: the live rose-deals sales of the site, each deal with its partner,
//! face value, price, validity and stock, the cart button and the favourite heart.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::rosedeals::api::fetch_deals;
use crate::rosedeals::model::Deal;
use crate::ui::error_template::ErrorNotice;

#[component]
pub fn DealsHome() -> impl IntoView {
    let load = Resource::new(|| (), |_| fetch_deals());
    view! {
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
                    Err(_) => view! { <ErrorNotice /> }.into_any(),
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

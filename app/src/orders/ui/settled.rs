//! What the order's returns and refunds came to: each return with its state, the lines
//! sent back and its refund, and what was refunded in all. Server HTML only.
use leptos::prelude::*;

use super::iso;
use crate::context::RequestCtx;
use crate::orders::model::OrderDetail;

#[component]
pub fn Settlement(detail: OrderDetail) -> impl IntoView {
    let ctx = RequestCtx::current();
    if detail.returns.is_empty() && detail.refunded_amount == 0 {
        return ().into_any();
    }
    let refunded = (detail.refunded_amount > 0).then(|| {
        view! {
            <p class="order-detail__refunded" data-testid="order-refunded">
                {ctx.t_with("orders.detail.refunded", &[("amount", &ctx.money(detail.refunded_amount))])}
            </p>
        }
    });
    let returns = detail
        .returns
        .iter()
        .map(|r| {
            let ctx = RequestCtx::current();
            let lines = r
                .lines
                .iter()
                .map(|l| {
                    view! {
                        <li data-testid="order-return-line" data-product-id=l.product_id.to_string()>
                            {l.name.clone()}" · "{ctx.t_with("orders.detail.quantity", &[("quantity", &l.quantity.to_string())])}
                        </li>
                    }
                })
                .collect_view();
            let refund = r.refund_amount.map(|a| {
                view! { <p data-testid="order-return-refund">{ctx.t_with("orders.return.refund", &[("amount", &ctx.money(a))])}</p> }
            });
            view! {
                <li class="order-return" data-testid="order-return" data-state=r.status.clone()>
                    <p>
                        <time datetime=iso(r.created_at)>
                            {ctx.t_with("orders.return.title", &[("id", &r.id.to_string()), ("date", &ctx.date(r.created_at))])}
                        </time>
                        " · "<strong>{ctx.t(&format!("orders.return.state.{}", r.status))}</strong>
                    </p>
                    <ul>{lines}</ul>
                    {refund}
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="order-detail__block" data-testid="order-returns" aria-labelledby="order-returns-title">
            <h2 id="order-returns-title">{ctx.t("orders.detail.returns")}</h2>
            {refunded}
            <ul class="order-returns">{returns}</ul>
        </section>
    }
    .into_any()
}

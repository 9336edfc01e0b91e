//! Current (`/rosedeals/ongoing`) and archived (`/rosedeals/history`) orders, paged with
//! `?page=` (default 1), each with its vouchers (code, value, expiry), the print page and,
//! for a current order, the refund and retry forms.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::rosedeals::api::fetch_orders;
use crate::rosedeals::model::DealOrder;
use crate::rosedeals::rules::page_of;
use crate::ui::error_template::ErrorNotice;

#[component]
pub fn OrdersList(archived: bool) -> impl IntoView {
    let page = use_query_map()
        .get_untracked()
        .get("page")
        .and_then(|p| p.parse().ok());
    let page = page_of(page).unwrap_or(1);
    let load = Resource::new(move || (archived, page), |(a, p)| fetch_orders(a, p));
    let base = if archived {
        "/rosedeals/history"
    } else {
        "/rosedeals/ongoing"
    };
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                let ctx = RequestCtx::current();
                match load.await {
                    Ok(p) if p.orders.is_empty() => view! {
                        <p class="account-empty" data-testid="orders-empty">{ctx.t(if archived { "rosedeals.history.empty" } else { "rosedeals.ongoing.empty" })}</p>
                    }.into_any(),
                    Ok(p) => {
                        let pages = (p.total + p.page_size - 1) / p.page_size;
                        view! {
                            <ul class="deal-orders" data-testid="deal-orders">
                                {p.orders.into_iter().map(|o| view! { <OrderCard order=o archived /> }).collect_view()}
                            </ul>
                            <nav class="pager" aria-label=ctx.t("rosedeals.pager")>
                                {(p.page > 1).then(|| view! { <a rel="prev" href=format!("{base}?page={}", p.page - 1)>{RequestCtx::current().t("rosedeals.previous")}</a> })}
                                " "<span>{ctx.t_with("rosedeals.page", &[("page", &p.page.to_string()), ("pages", &pages.max(1).to_string())])}</span>" "
                                {(p.page < pages).then(|| view! { <a rel="next" href=format!("{base}?page={}", p.page + 1)>{RequestCtx::current().t("rosedeals.next")}</a> })}
                            </nav>
                        }.into_any()
                    }
                    Err(_) => view! { <ErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
pub fn OrderCard(order: DealOrder, archived: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let id = order.basket_id;
    let heading = format!("deal-order-{id}");
    let status_key = format!("rosedeals.status.{}", order.status);
    let status = ctx.t(&status_key);
    let print = order.vouchers.first().map(|v| v.print.clone());
    view! {
        <li class="deal-order" data-testid="deal-order" data-basket-id=id>
            <h2 id=heading>{ctx.t_with("rosedeals.order.title", &[("id", &id.to_string()), ("date", &ctx.date(order.created_at))])}</h2>
            <p class="deal-order__status" data-testid="deal-order-status">{status}" · "{ctx.money(order.total)}</p>
            {order.refund_amount.map(|a| view! { <p data-testid="deal-order-refund">{RequestCtx::current().t_with("rosedeals.order.refund", &[("amount", &RequestCtx::current().money(a))])}</p> })}
            <table class="deal-vouchers">
                <caption class="visually-hidden">{ctx.t("rosedeals.vouchers.caption")}</caption>
                <thead><tr>
                    <th scope="col">{ctx.t("rosedeals.vouchers.partner")}</th>
                    <th scope="col">{ctx.t("rosedeals.vouchers.code")}</th>
                    <th scope="col">{ctx.t("rosedeals.vouchers.value")}</th>
                    <th scope="col">{ctx.t("rosedeals.vouchers.expiry")}</th>
                    <th scope="col">{ctx.t("rosedeals.vouchers.status")}</th>
                </tr></thead>
                <tbody>
                    {order.vouchers.into_iter().map(|v| {
                        let ctx = RequestCtx::current();
                        view! {
                            <tr data-testid="deal-voucher" data-code=v.code.clone()>
                                <td>{v.partner.clone()}</td>
                                <td><code data-testid="deal-voucher-code">{v.code.clone()}</code></td>
                                <td>{ctx.money(v.value)}</td>
                                <td>{ctx.date(v.expires_at)}</td>
                                <td>{ctx.t(&format!("rosedeals.voucher.{}", v.status))}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <p class="deal-order__actions">
                {print.map(|href| view! { <a class="button" href=href target="_blank" rel="noopener" data-testid="deal-print">{RequestCtx::current().t("rosedeals.print")}</a> })}
                " "
                {(!archived).then(|| view! {
                    <a class="button button--primary" href=format!("/rosedeals/refund?basketId={id}") data-testid="deal-refund-link">{RequestCtx::current().t("rosedeals.refund.link")}</a>
                })}
                " "
                <a class="link-button" href="/rosedeals/contact-form">{ctx.t("rosedeals.nav.contact")}</a>
            </p>
        </li>
    }
}

//! Current (`/rosedeals/ongoing`) and archived (`/rosedeals/history`) orders, paged with
//! `?page=` (default 1), each with its vouchers (code, value, expiry), the print page and,
//! for a current order, the refund and retry forms; and one order by its `basketId`
//! (`/rosedeals/order/{basketId}`). Both lists are fetched together, concurrently (spec 001
//! §4, §7): the page shows its own and counts the other in the tabs.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::help::ui::pages::PostSalesErrorNotice;
use crate::rosedeals::api::{fetch_lists, fetch_order, is_not_found};
use crate::rosedeals::model::{DealLists, DealOrder};
use crate::rosedeals::rules::{is_current, page_of};
use crate::ui::error_template::ErrorNotice;

fn loading() -> impl IntoView {
    view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }
}

/// "Ongoing (n) · History (m)": both lists' sizes, as the last fetch of both found them.
#[component]
pub fn ListTabs(lists: DealLists, #[prop(optional)] current: Option<bool>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let tabs = [
        (
            false,
            "/rosedeals/ongoing",
            "rosedeals.tabs.ongoing",
            lists.current.total,
        ),
        (
            true,
            "/rosedeals/history",
            "rosedeals.tabs.history",
            lists.archived.total,
        ),
    ];
    view! {
        <nav class="deal-tabs" aria-label=ctx.t("rosedeals.tabs.label") data-testid="deal-tabs">
            {tabs.into_iter().map(|(archived, href, key, count)| {
                let here = (current == Some(archived)).then_some("page");
                let testid = if archived { "deal-tab-history" } else { "deal-tab-ongoing" };
                view! {
                    <a class="deal-tabs__tab" href=href aria-current=here data-testid=testid data-count=count>
                        {RequestCtx::current().t_with(key, &[("count", &count.to_string())])}
                    </a>
                }
            }).collect_view()}
        </nav>
    }
}

#[component]
pub fn OrdersList(archived: bool) -> impl IntoView {
    let page = use_query_map()
        .get_untracked()
        .get("page")
        .and_then(|p| p.parse().ok());
    let page = page_of(page).unwrap_or(1);
    // This list's page, the other's first.
    let (current_page, archived_page) = if archived { (1, page) } else { (page, 1) };
    let load = Resource::new(
        move || (current_page, archived_page),
        |(c, a)| fetch_lists(c, a),
    );
    let base = if archived {
        "/rosedeals/history"
    } else {
        "/rosedeals/ongoing"
    };
    view! {
        <Suspense fallback=loading>
            {move || Suspend::new(async move {
                let ctx = RequestCtx::current();
                let lists = match load.await {
                    Ok(lists) => lists,
                    Err(_) => return view! { <PostSalesErrorNotice /> }.into_any(),
                };
                let tabs = view! { <ListTabs lists=lists.clone() current=archived /> };
                let p = if archived { lists.archived } else { lists.current };
                if p.orders.is_empty() {
                    return view! {
                        {tabs}
                        <p class="account-empty" data-testid="orders-empty">{ctx.t(if archived { "rosedeals.history.empty" } else { "rosedeals.ongoing.empty" })}</p>
                    }.into_any();
                }
                let pages = (p.total + p.page_size - 1) / p.page_size;
                view! {
                    {tabs}
                    <ul class="deal-orders" data-testid="deal-orders">
                        {p.orders.into_iter().map(|o| {
                            let id = o.basket_id;
                            view! { <li class="deal-order" data-testid="deal-order" data-basket-id=id><OrderCard order=o archived /></li> }
                        }).collect_view()}
                    </ul>
                    <nav class="pager" aria-label=ctx.t("rosedeals.pager")>
                        {(p.page > 1).then(|| view! { <a rel="prev" href=format!("{base}?page={}", p.page - 1)>{RequestCtx::current().t("rosedeals.previous")}</a> })}
                        " "<span>{ctx.t_with("rosedeals.page", &[("page", &p.page.to_string()), ("pages", &pages.max(1).to_string())])}</span>" "
                        {(p.page < pages).then(|| view! { <a rel="next" href=format!("{base}?page={}", p.page + 1)>{RequestCtx::current().t("rosedeals.next")}</a> })}
                    </nav>
                }.into_any()
            })}
        </Suspense>
    }
}

/// One order: its heading (a link to its own page in the lists), status and total, refund,
/// vouchers (partner, code, value, expiry, status), and the print, refund/retry and contact
/// links. `archived`: no refund or retry any more.
#[component]
pub fn OrderCard(
    order: DealOrder,
    archived: bool,
    /// On the order's own page: the heading is not a link to itself.
    #[prop(optional)]
    alone: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let id = order.basket_id;
    let heading = format!("deal-order-{id}");
    let status_key = format!("rosedeals.status.{}", order.status);
    let status = ctx.t(&status_key);
    let print = order.vouchers.first().map(|v| v.print.clone());
    let title = ctx.t_with(
        "rosedeals.order.title",
        &[
            ("id", &id.to_string()),
            ("date", &ctx.date(order.created_at)),
        ],
    );
    let title = if alone {
        view! { {title} }.into_any()
    } else {
        view! { <a href=format!("/rosedeals/order/{id}") data-testid="deal-order-link">{title}</a> }
            .into_any()
    };
    view! {
        <h2 id=heading>{title}</h2>
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
            <a class="link-button" href=format!("/rosedeals/contact-form?basketId={id}") data-testid="deal-contact-link">{ctx.t("rosedeals.nav.contact")}</a>
        </p>
    }
}

/// `/rosedeals/order/{basketId}`: one of the member's orders with its vouchers. Another
/// member's basket, or none, answers 404 with the not-found notice; a failed load shows the
/// post-sales error.
#[component]
pub fn OrderPage(basket_id: Option<i64>) -> impl IntoView {
    let Some(id) = basket_id else {
        return not_found().into_any();
    };
    let load = Resource::new(move || id, fetch_order);
    view! {
        <Suspense fallback=loading>
            {move || Suspend::new(async move {
                match load.await {
                    Ok(order) => {
                        let statuses: Vec<&str> = order.vouchers.iter().map(|v| v.status.as_str()).collect();
                        let archived = !is_current(&order.status, &statuses);
                        view! {
                            <article class="deal-order deal-order--alone" data-testid="deal-order" data-basket-id=id>
                                <OrderCard order=order.clone() archived alone=true />
                            </article>
                            <p><a href=if archived { "/rosedeals/history" } else { "/rosedeals/ongoing" }>
                                {RequestCtx::current().t(if archived { "rosedeals.nav.history" } else { "rosedeals.nav.ongoing" })}
                            </a></p>
                        }.into_any()
                    }
                    Err(e) if is_not_found(&e) => not_found().into_any(),
                    Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                }
            })}
        </Suspense>
    }
    .into_any()
}

/// The not-found notice of an unknown or another member's basket, with the 404 status.
pub fn not_found() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    view! { <div data-testid="deal-not-found"><ErrorNotice key="errors.not_found" /></div> }
}

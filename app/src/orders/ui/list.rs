//! `/my-orders`: the member's orders, newest first, ten a page; the pager is plain links
//! (`?page=N`) that work without scripts.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::{iso, t};
use crate::context::RequestCtx;
use crate::orders::api::fetch_orders;
use crate::orders::model::{OrderSummary, OrdersPage};
use crate::orders::rules::{
    line_name, page_count, page_options, status_label_key, Paging, DEFAULT_PAGE_SIZE,
};
use crate::ui::SeoMeta;

#[component]
pub fn OrdersListPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t("page.myorders");
    // In a member template the list comes per request (`render_hole`).
    if let Some(marks) = crate::ui::personal::Marks::current() {
        return view! {
            <SeoMeta title=title.clone() description=title.clone() path indexable=false />
            <section class="orders-page" data-testid="orders-page" aria-labelledby="orders-title">
                <h1 id="orders-title">{title}</h1>
                {marks.hole(crate::ui::personal::Hole::Orders)}
            </section>
        }
        .into_any();
    }
    let query = use_query_map().get_untracked();
    let paging = Paging::lenient(query.get("page").as_deref(), query.get("size").as_deref());
    let load = Resource::new(
        move || (paging.page, paging.size),
        |(page, size)| fetch_orders(page, size),
    );
    view! {
        <SeoMeta title=title.clone() description=title.clone() path indexable=false />
        <section class="orders-page" data-testid="orders-page" aria-labelledby="orders-title">
            <h1 id="orders-title">{title}</h1>
            <Suspense fallback=|| view! { <p class="loading" aria-busy="true" data-testid="orders-loading">{t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok(p) => view! { <OrdersList page=p /> }.into_any(),
                        // A failed load: the post-sales error (/ps/errors' content).
                        Err(_) => view! { <crate::help::ui::pages::PostSalesErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
    .into_any()
}

/// The list of a "my orders" template for the member of `ctx`: `page`, their orders as
/// `orders::service::list` read them (none: the notice the page shows on a failed load).
#[cfg(feature = "ssr")]
pub fn render_hole(ctx: RequestCtx, page: Option<OrdersPage>) -> String {
    crate::ui::personal::render_fragment(ctx, move || match page {
        Some(p) => view! { <OrdersList page=p /> }.into_any(),
        None => view! { <crate::help::ui::pages::PostSalesErrorNotice /> }.into_any(),
    })
}

#[component]
fn OrdersList(page: OrdersPage) -> impl IntoView {
    let ctx = RequestCtx::current();
    if page.orders.is_empty() && page.total == 0 {
        return view! {
            <p class="empty" data-testid="orders-empty">{ctx.t("orders.empty")}</p>
            <p><a class="button" href="/">{ctx.t("orders.list.shop")}</a></p>
        }
        .into_any();
    }
    let pages = page_count(page.total, page.size);
    let summary = ctx.t_with(
        "orders.list.summary",
        &[
            ("total", &page.total.to_string()),
            ("page", &page.page.to_string()),
            ("pages", &pages.to_string()),
        ],
    );
    view! {
        <p class="orders__summary" data-testid="orders-summary">{summary}</p>
        {page.orders.is_empty().then(|| view! { <p class="empty" data-testid="orders-page-empty">{t("orders.list.page_empty")}</p> })}
        <ul class="orders" data-testid="orders">{page.orders.into_iter().map(order_entry).collect_view()}</ul>
        <Pager current=page.page total=page.total size=page.size />
    }
    .into_any()
}

fn order_entry(s: OrderSummary) -> impl IntoView {
    let ctx = RequestCtx::current();
    let o = s.order;
    let items = o
        .items
        .iter()
        .map(|i| view! { <li>{format!("{} × {}", line_name(&o.cart_type, &i.name, &i.option_label, ctx.site().date_format), i.quantity)}</li> })
        .collect_view();
    let kind = ctx.t(&format!("orders.type.{}", o.cart_type));
    view! {
        <li class="order" data-testid="order" data-order-id=o.id data-status=o.status.clone()>
            <h2 class="order__head">
                <a href=s.detail_url data-testid="order-link">{ctx.t_with("orders.number", &[("order", &o.id.to_string())])}</a>
                <span class="order__status" data-testid="order-status">{ctx.t(&status_label_key(&o.status))}</span>
            </h2>
            <p class="order__meta">
                <time datetime=iso(o.created_at)>{ctx.date(o.created_at)}</time>
                " · "{ctx.money(o.total)}" · "{kind}
            </p>
            <ul class="order__items">{items}</ul>
        </li>
    }
}

/// Page links: previous, each page from 1, next; the current one marked.
#[component]
fn Pager(current: u32, total: i64, size: u32) -> impl IntoView {
    let ctx = RequestCtx::current();
    let pages = page_count(total, size);
    if pages <= 1 {
        return ().into_any();
    }
    // A size asked for in the address stays in the links; the default one is left out.
    let href = move |n: u32| {
        if size == DEFAULT_PAGE_SIZE {
            format!("/my-orders?page={n}")
        } else {
            format!("/my-orders?page={n}&size={size}")
        }
    };
    let numbers = page_options(total, size)
        .map(|n| {
            let label = RequestCtx::current().t_with("orders.pager.page", &[("page", &n.to_string())]);
            if n == current {
                view! { <li><a class="pager__link pager__link--current" href=href(n) aria-current="page" aria-label=label data-testid="pager-current">{n}</a></li> }.into_any()
            } else {
                view! { <li><a class="pager__link" href=href(n) aria-label=label data-testid="pager-page">{n}</a></li> }.into_any()
            }
        })
        .collect_view();
    view! {
        <nav class="pager" aria-label=ctx.t("orders.pager.label") data-testid="orders-pager">
            <ul class="pager__list">
                {(current > 1).then(|| view! { <li><a class="pager__link" href=href(current - 1) rel="prev" data-testid="pager-prev">{t("orders.pager.previous")}</a></li> })}
                {numbers}
                {(current < pages).then(|| view! { <li><a class="pager__link" href=href(current + 1) rel="next" data-testid="pager-next">{t("orders.pager.next")}</a></li> })}
            </ul>
        </nav>
    }
    .into_any()
}

//! One order (`/my-orders/{type}/{id}`, `/details/{id}`, `/postsales/{id}/details`): its
//! lines, delivery address, payment, tracking number once shipped, the timeline of its
//! statuses, the help link and the after-sale actions; another member's order is not found.
use leptos::prelude::*;

use super::reopen::ReopenForm;
use super::{iso, t};
use crate::context::RequestCtx;
use crate::orders::api::fetch_order;
use crate::orders::model::OrderDetail;
use crate::orders::rules::status_label_key;
use crate::ui::SeoMeta;

#[component]
pub fn OrderDetailPage(path: String, order_id: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t_with("orders.number", &[("order", &order_id.to_string())]);
    let load = Resource::new(move || order_id, fetch_order);
    view! {
        <SeoMeta title=title.clone() description=ctx.t("page.orderdetails") path indexable=false />
        // The after-sale forms answer with this page: the enhancement script swaps it whole
        // (the status and the timeline change with a return).
        <section class="orders-page order-detail" data-testid="order-detail" aria-labelledby="order-title"
            data-enhance-region="order">
            <h1 id="order-title">{title}</h1>
            <Suspense fallback=|| view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }>
                {move || Suspend::new(async move {
                    match load.await {
                        Ok(d) => view! { <Detail detail=d /> }.into_any(),
                        Err(e) if e.to_string().contains("orders.not_found") => {
                            view! { <p class="error" role="alert" data-testid="order-not-found">{t("orders.not_found")}</p> }.into_any()
                        }
                        // Any other failure: the post-sales error (/ps/errors' content).
                        Err(_) => view! { <crate::help::ui::pages::PostSalesErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
            <p class="order-detail__back"><a href="/my-orders">{t("orders.back")}</a></p>
        </section>
    }
}

#[component]
fn Detail(detail: OrderDetail) -> impl IntoView {
    let ctx = RequestCtx::current();
    let o = detail.order.clone();
    let status = ctx.t(&status_label_key(&o.status));
    let lines = o
        .items
        .iter()
        .map(|i| {
            let ctx = RequestCtx::current();
            view! {
                <li class="order-line" data-testid="order-line">
                    <span class="order-line__name">{crate::orders::rules::line_name(&o.cart_type, &i.name, &i.option_label, ctx.site().date_format)}</span>
                    <span class="order-line__qty">{ctx.t_with("orders.detail.quantity", &[("quantity", &i.quantity.to_string())])}</span>
                    <span class="order-line__price">{ctx.money(i.unit_price * i.quantity)}</span>
                </li>
            }
        })
        .collect_view();
    // A trip or a deal's vouchers are not delivered: their address is the booking's.
    let address_title = if crate::orders::rules::sends_parcel(&o.cart_type) {
        "address.order.title"
    } else {
        "address.order.billing_title"
    };
    let address = o.delivery_address.as_ref().map(|a| {
        let lines = crate::address::ui::page::address_lines(a);
        view! {
            <section class="order-detail__block" data-testid="order-delivery" aria-labelledby="order-delivery-title">
                <h2 id="order-delivery-title">{t(address_title)}</h2>
                <p>{lines.into_iter().enumerate().map(|(i, l)| view! { {(i > 0).then(|| view! { <br /> })}{l} }).collect_view()}</p>
            </section>
        }
    });
    let payment = detail.payment.clone().map(|p| {
        let ctx = RequestCtx::current();
        view! {
            <section class="order-detail__block" data-testid="order-payment" aria-labelledby="order-payment-title">
                <h2 id="order-payment-title">{ctx.t("orders.detail.payment")}</h2>
                <p>
                    {ctx.t(&format!("orders.payment.{}", p.method))}
                    {p.card.clone().map(|c| view! { " "<span data-testid="order-payment-card">{c}</span> })}" · "
                    <span data-testid="order-payment-reference">{ctx.t_with("orders.payment.reference", &[("reference", &p.reference)])}</span>
                    " · "<time datetime=iso(p.paid_at)>{ctx.date(p.paid_at)}</time>
                </p>
            </section>
        }
    });
    let events = detail
        .events
        .iter()
        .map(|e| {
            let ctx = RequestCtx::current();
            view! {
                <li class="order-timeline__step" data-testid="order-event" data-status=e.status.clone()>
                    <span class="order-timeline__status">{ctx.t(&status_label_key(&e.status))}</span>
                    " "
                    <time class="order-timeline__at" datetime=iso(e.at)>
                        {ctx.t_with("orders.detail.at", &[("date", &ctx.date(e.at)), ("time", &crate::site::format::time(e.at))])}
                    </time>
                    {e.reason.clone().map(|r| view! {
                        <p class="order-timeline__reason" data-testid="order-event-reason">{ctx.t("orders.detail.reason")}" "{r}</p>
                    })}
                </li>
            }
        })
        .collect_view();
    let tracking = detail.tracking_number.clone().map(|n| {
        view! {
            <p class="order-detail__tracking">
                {t("orders.detail.tracking")}" "
                <strong data-testid="order-tracking">{n}</strong>
            </p>
        }
    });
    // A booking's places and a deal's issued codes are not units to put back in a cart.
    let reopenable = o.status == "validated" && crate::orders::rules::sends_parcel(&o.cart_type);
    let delivered = detail
        .events
        .iter()
        .any(|e| matches!(e.status.as_str(), "received" | "received_partially"));
    view! {
        <div class="order-detail__summary">
            <p>
                <span class="order__status" data-testid="order-status" data-status=o.status.clone()>{status}</span>
                " · "<time datetime=iso(o.created_at)>{ctx.date(o.created_at)}</time>
            </p>
            <p class="order-detail__total" data-testid="order-total">{ctx.t_with("orders.detail.total", &[("total", &ctx.money(o.total))])}</p>
        </div>
        <section class="order-detail__block" aria-labelledby="order-lines-title">
            <h2 id="order-lines-title">{ctx.t("orders.detail.lines")}</h2>
            <ul class="order-lines">{lines}</ul>
            <OrderTotals order=o.clone() />
        </section>
        {address}
        {(!detail.travellers.is_empty()).then(|| view! { <Travellers travellers=detail.travellers.clone() /> })}
        {payment}
        <section class="order-detail__block" data-testid="order-follow" aria-labelledby="order-follow-title">
            <h2 id="order-follow-title">{ctx.t("orders.detail.timeline")}</h2>
            {tracking}
            <ol class="order-timeline" data-testid="order-timeline">{events}</ol>
        </section>
        <super::settled::Settlement detail=detail.clone() />
        <section class="order-detail__block" aria-labelledby="order-help-title">
            <h2 id="order-help-title">{ctx.t("orders.detail.help_title")}</h2>
            <p><a href=detail.help_url.clone() data-testid="order-help">{ctx.t("orders.detail.help")}</a></p>
            // The chat about this order, in a new window (spec 001 §2: reason, order, isPastOrder).
            <p>
                <crate::help::ui::NewWindowLink
                    href=crate::help::rules::chat_link("order", Some((o.id, crate::help::rules::is_past_order(&o.status))))
                    label=ctx.t("help.chat.order") testid="order-chat" />
            </p>
            <crate::orders::ui::after_sale::AfterSaleActions order=detail.order.clone() delivered=delivered />
            {reopenable.then(|| view! { <ReopenForm order_id=o.id xsrf=ctx.xsrf.clone() label=ctx.t("orders.reopen") /> })}
        </section>
    }
}

/// A trip's travellers, labelled as the configurator and the checkout labelled them
/// ("Child 1"), with a child's or baby's birthday in the site's date format.
#[component]
fn Travellers(travellers: Vec<crate::orders::model::OrderTraveller>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let labels = crate::travel::rules::traveller_labels(travellers.iter().map(|p| p.kind));
    let rows = travellers
        .into_iter()
        .zip(labels)
        .map(|(p, (key, n))| {
            let ctx = RequestCtx::current();
            let birthday = p.birthday.as_deref().and_then(|b| {
                crate::site::format::iso_day(ctx.site().date_format, b)
                    .map(|shown| view! { " · "<time datetime=b.to_string()>{shown}</time> })
            });
            view! {
                <dt>{ctx.t_with(key, &[("n", &n.to_string())])}</dt>
                <dd data-testid="order-traveller">{format!("{} {}", p.first_name, p.last_name)}{birthday}</dd>
            }
        })
        .collect_view();
    view! {
        <section class="order-detail__block" data-testid="order-travellers" aria-labelledby="order-travellers-title">
            <h2 id="order-travellers-title">{ctx.t("orders.detail.travellers")}</h2>
            <dl class="order-travellers">{rows}</dl>
        </section>
    }
}

/// What the lines come to: items, discount, shipping and subscription, then the total paid,
/// so the page adds up (a discount or shipping is a line of its own, never hidden).
#[component]
fn OrderTotals(order: crate::model::cart::Order) -> impl IntoView {
    let ctx = RequestCtx::current();
    let row = |key: &str, amount: i64, testid: &'static str| {
        let ctx = RequestCtx::current();
        view! {
            <dt>{ctx.t(key)}</dt>
            <dd data-testid=testid data-amount=amount.to_string()>{ctx.money(amount)}</dd>
        }
    };
    view! {
        <dl class="order-totals" data-testid="order-totals">
            {row("cart.subtotal", order.subtotal, "order-subtotal")}
            {(order.discount != 0).then(|| row("cart.discount", -order.discount.abs(), "order-discount"))}
            {(order.shipping != 0 || crate::orders::rules::sends_parcel(&order.cart_type)).then(|| row("cart.shipping", order.shipping, "order-shipping"))}
            {(order.loyalty != 0).then(|| row("cart.loyalty", order.loyalty, "order-loyalty"))}
            <dt>{ctx.t("cart.total")}</dt>
            <dd data-testid="order-totals-total" data-amount=order.total.to_string()><strong>{ctx.money(order.total)}</strong></dd>
        </dl>
    }
}

//! The member's orders (`/my-orders`) and one order (`/my-orders/{type}/{id}`), read from
//! the orders API once the page is interactive.
use leptos::prelude::*;

use crate::cart::ui::cart_call;
use crate::context::RequestCtx;
use crate::model::cart::Order;
use crate::ui::SeoMeta;

fn t(key: &str) -> String {
    RequestCtx::current().t(key)
}

#[derive(serde::Deserialize)]
struct OrdersReply {
    orders: Vec<Order>,
}

fn order_card(order: Order, detailed: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let status_key = format!("orders.status.{}", order.status);
    let items = order
        .items
        .iter()
        .map(|i| {
            view! {
                <li>{format!("{} · {} × {}", i.name, i.option_label, i.quantity)}" "{detailed.then(|| RequestCtx::current().money(i.unit_price * i.quantity))}</li>
            }
        })
        .collect_view();
    view! {
        <li class="order" data-testid="order" data-order-id=order.id data-status=order.status.clone()>
            <p class="order__head">
                <a href=format!("/my-orders/{}/{}", order.cart_type, order.id)>{ctx.t_with("orders.number", &[("order", &order.id.to_string())])}</a>
                <span class="order__status" data-testid="order-status">{ctx.t(&status_key)}</span>
            </p>
            <p class="order__meta">{ctx.date(order.created_at)}" · "{ctx.money(order.total)}</p>
            <ul class="order__items">{items}</ul>
            {order.delivery_address.as_ref().filter(|_| detailed).map(|a| {
                let lines = crate::address::ui::page::address_lines(a);
                view! {
                    <div class="order__delivery" data-testid="order-delivery">
                        <h2 class="order__delivery-title">{RequestCtx::current().t("address.order.title")}</h2>
                        <p>{lines.into_iter().enumerate().map(|(i, l)| view! { {(i > 0).then(|| view! { <br /> })}{l} }).collect_view()}</p>
                    </div>
                }
            })}
            {(detailed && order.status == "validated" && order.cart_type != "travel").then(|| view! { <ReopenButton order_id=order.id cart_type=order.cart_type.clone() /> })}
        </li>
    }
}

/// Reopening a recent order brings its items back into the cart (spec 000 §3
/// `order_to_reopen`), to add more before paying again.
#[component]
fn ReopenButton(order_id: i64, cart_type: String) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let reopen = move |_| {
        busy.set(true);
        let body = serde_json::json!({ "order_to_reopen": order_id.to_string(), "cart_type": cart_type.clone() });
        leptos::task::spawn_local(async move {
            match cart_call(
                "POST",
                &format!("{}/item", crate::cart::ui::CART),
                Some(body),
            )
            .await
            {
                Ok(reply) => match crate::cart::ui::state_notice(&reply) {
                    Some(key) => error.set(Some(key)),
                    None => crate::client::navigate("/cart"),
                },
                Err(e) => error.set(Some(e.message_key())),
            }
            busy.set(false);
        });
    };
    view! {
        <button type="button" class="button" data-testid="order-reopen" on:click=reopen disabled=move || busy.get()>{t("orders.reopen")}</button>
        {move || error.get().map(|k| view! { <p class="error" role="alert">{t(&k)}</p> })}
    }
}

#[component]
pub fn OrdersPage(path: String, #[prop(optional)] order_id: Option<i64>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t(if order_id.is_some() {
        "page.orderdetails"
    } else {
        "page.myorders"
    });
    view! {
        <SeoMeta title=title.clone() description=title.clone() path />
        <OrdersView title order_id />
    }
}

/// The orders the browser loads, with their reopen buttons: the page's island.
#[island(lazy)]
fn OrdersView(title: String, order_id: Option<i64>) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let orders = RwSignal::new(None::<Result<Vec<Order>, String>>);
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            let url = match order_id {
                Some(id) => format!("/api/orders/v1/orders/{id}"),
                None => "/api/orders/v1/orders".to_string(),
            };
            let result = match cart_call("GET", &url, None).await {
                Ok(reply) => match order_id {
                    Some(_) => reply.json::<Order>().map(|o| vec![o]),
                    None => reply.json::<OrdersReply>().map(|r| r.orders),
                }
                .ok_or_else(|| "errors.general_retry.notification".to_string()),
                Err(crate::client::CallError::Status(404, _)) => Err("orders.not_found".into()),
                Err(e) => Err(e.message_key()),
            };
            orders.set(Some(result));
        });
    });
    view! {
        <section class="orders-page" data-testid="orders-page">
            <h1>{title}</h1>
            {move || match orders.get() {
                None => view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }.into_any(),
                Some(Err(key)) => view! { <p class="error" role="alert">{t(&key)}</p> }.into_any(),
                Some(Ok(list)) if list.is_empty() => view! { <p class="empty" data-testid="orders-empty">{t("orders.empty")}</p> }.into_any(),
                Some(Ok(list)) => view! {
                    <ul class="orders">{list.into_iter().map(|o| order_card(o, order_id.is_some())).collect_view()}</ul>
                }.into_any(),
            }}
            {order_id.is_some().then(|| view! { <a href="/my-orders">{t("orders.back")}</a> })}
        </section>
    }
}

//! Orders for customer care: found by number, member email, status, site and day; an
//! order's lines, payment, address, invoice, returns and timeline; and its moves along
//! the life cycle of `app::orders::rules` (cancel included) through
//! `app::orders::service::advance_in`, the service the fulfilment simulator uses, so the
//! member is notified as by the simulator.
pub mod order;
mod retries;
pub mod returns;
pub mod store;

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;

use app::orders::rules::OrderStatus;

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;
use store::Filter;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/orders"), get(list_page))
        .route(&format!("{PREFIX}/orders/{{id}}"), get(order::page))
        .route(&format!("{PREFIX}/returns"), get(returns::page))
        .route(
            &format!("{PREFIX}/returns/retries/{{id}}/handled"),
            post(retries::handled),
        )
        .route(
            &format!("{PREFIX}/orders/{{id}}/move"),
            post(order::move_form),
        )
}

/// A status in the operator's words.
pub fn status_label(op: &Operator, status: &str) -> String {
    match OrderStatus::parse(status) {
        Some(s) => op.t(&format!("order.status.{}", s.wire())).to_string(),
        None => status.to_string(),
    }
}

async fn list_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(f): Query<Filter>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageOrders) {
        return r;
    }
    let t = |k: &str| op.t(k);
    let (rows, more, error) = match store::search(&app.state.db, &f).await {
        Ok(Ok((rows, more))) => (rows, more, None),
        Ok(Err(key)) => (vec![], false, Some(key)),
        Err(e) => return ui::db_error(e),
    };
    let status_options = OrderStatus::ALL
        .iter()
        .map(|s| view! { <option value=s.wire() selected=f.status == s.wire()>{status_label(&op, s.wire())}</option> })
        .collect_view();
    let site: i64 = f.site.parse().unwrap_or(0);
    let sites = app::site::SITES
        .iter()
        .map(|s| {
            let id = i64::from(s.site_id);
            view! { <option value=id.to_string() selected=id == site>{super::sales::site_label(id)}</option> }
        })
        .collect_view();
    let page = f.page.max(1) as usize;
    let link = |p: usize| {
        let query = serde_urlencoded::to_string([
            ("q", f.q.as_str()),
            ("status", f.status.as_str()),
            ("site", f.site.as_str()),
            ("from", f.from.as_str()),
            ("until", f.until.as_str()),
            ("page", &p.to_string()),
        ])
        .unwrap_or_default();
        format!("{PREFIX}/orders?{query}")
    };
    let list = if rows.is_empty() {
        view! { <p>{t("orders.none")}</p> }.into_any()
    } else {
        let body = rows
            .iter()
            .map(|o| {
                view! {
                    <tr data-order=o.id.to_string()>
                        <td><a href=format!("{PREFIX}/orders/{}", o.id)>{format!("#{}", o.id)}</a></td>
                        <td>{ui::when(o.created_at)}</td>
                        <td class="num">{o.site_id}</td>
                        <td>{o.email.clone()}</td>
                        <td data-status=o.status.clone()>{status_label(&op, &o.status)}</td>
                        <td class="num">{format!("{} {}", ui::amount(o.total), o.currency)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="orders">
                    <thead><tr>
                        <th scope="col">{t("orders.number")}</th>
                        <th scope="col">{t("orders.date")}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col">{t("support.member")}</th>
                        <th scope="col">{t("support.state")}</th>
                        <th scope="col" class="num">{t("orders.total")}</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let pager = ui::pager(&op, page, more, link);
    let error_view = error.map(|k| view! { <p class="bo-error" role="alert">{op.t(k)}</p> });
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let body = view! {
        <form method="get" action=format!("{PREFIX}/orders") class="bo-inline" role="search" id="order-search">
            <label for="q">{t("orders.search")}</label>
            <input id="q" name="q" type="search" maxlength="120" value=f.q.clone() />
            <label for="status">{t("support.state")}</label>
            <select id="status" name="status"><option value="">{t("orders.any_status")}</option>{status_options}</select>
            <label for="site">{t("sales.site")}</label>
            <select id="site" name="site"><option value="">{t("sales.any_site")}</option>{sites}</select>
            <label for="from">{t("orders.from")}</label>
            <input id="from" name="from" type="date" value=f.from.clone() />
            <label for="until">{t("orders.until")}</label>
            <input id="until" name="until" type="date" value=f.until.clone() />
            <button type="submit" class="bo-secondary">{t("products.search_submit")}</button>
        </form>
        {error_view}
        {list}
        {pager}
    }
    .into_any();
    ui::page(status, op.lang(), Some(&op), t("orders.title"), None, body)
}

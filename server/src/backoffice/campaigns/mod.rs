//! Voucher and promotion campaigns: a merchandiser creates one (a discount, fixed or in
//! percent, on the products or the shipping; its sites, dates, total and per-member
//! limits; a code to type, a promotion listed on the vouchers page, or automatic), then
//! follows its use per site and stops it. The shop applies a campaign's vouchers as it
//! applies any voucher (`app::cart`), spent conditionally at payment; the campaign row
//! counts the total across its sites.
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;

use super::roles::Permission;
use super::session::Operator;
use super::{ui, PREFIX};
use crate::state::AppCtx;

mod campaign;
mod new;
pub mod rules;
pub mod store;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(
            &format!("{PREFIX}/campaigns"),
            get(list_page).post(new::create),
        )
        .route(&format!("{PREFIX}/campaigns/new"), get(new::page))
        .route(&format!("{PREFIX}/campaigns/{{id}}"), get(campaign::page))
        .route(
            &format!("{PREFIX}/campaigns/{{id}}/stop"),
            post(campaign::stop),
        )
}

/// `10 %` or `5.00` (the shop's currency), as a list shows a discount.
fn discount(op: &Operator, discount_type: &str, scope: &str, value: i64) -> String {
    let amount = if discount_type == "PERCENT" {
        format!("{value} %")
    } else {
        ui::amount(value)
    };
    format!("{amount} · {}", op.t(&format!("campaigns.scope.{scope}")))
}

fn sites_label(sites: &[i64]) -> String {
    sites
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn used(c: &store::CampaignRow) -> String {
    match c.total_limit {
        Some(total) => format!("{} / {total}", c.used_count),
        None => c.used_count.to_string(),
    }
}

async fn list_page(State(app): State<Arc<AppCtx>>, op: Operator) -> Response {
    if let Err(r) = op.require(Permission::ManagePromotions) {
        return r;
    }
    let campaigns = match store::list(&app.state.db).await {
        Ok(c) => c,
        Err(e) => return ui::db_error(e),
    };
    let now = app::platform::state::now();
    let t = |k: &str| op.t(k);
    let rows = campaigns
        .iter()
        .map(|c| {
            let status = rules::status(c.valid_from, c.valid_until, c.stopped_at.is_some(), now);
            view! {
                <tr data-campaign=c.id.to_string()>
                    <td><a href=format!("{PREFIX}/campaigns/{}", c.id)>{c.name.clone()}</a></td>
                    <td><code>{c.code.clone()}</code></td>
                    <td>{t(&format!("campaigns.delivery.{}", c.delivery))}</td>
                    <td>{discount(&op, &c.discount_type, &c.scope, c.value)}</td>
                    <td>{sites_label(&c.sites)}</td>
                    <td>{format!("{} → {}", ui::when(c.valid_from), ui::when(c.valid_until))}</td>
                    <td class="num">{used(c)}</td>
                    <td>{t(&format!("campaigns.status.{status}"))}</td>
                </tr>
            }
        })
        .collect_view();
    let table = if campaigns.is_empty() {
        view! { <p>{t("campaigns.none")}</p> }.into_any()
    } else {
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="campaigns">
                    <thead><tr>
                        <th scope="col">{t("campaigns.name")}</th>
                        <th scope="col">{t("campaigns.code")}</th>
                        <th scope="col">{t("campaigns.delivery")}</th>
                        <th scope="col">{t("campaigns.discount")}</th>
                        <th scope="col">{t("campaigns.sites")}</th>
                        <th scope="col">{t("campaigns.dates")}</th>
                        <th scope="col" class="num">{t("campaigns.used")}</th>
                        <th scope="col">{t("support.state")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let body = view! {
        <p><a href=format!("{PREFIX}/campaigns/new")>{t("campaigns.new")}</a></p>
        {table}
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("campaigns.title"),
        None,
        body,
    )
}

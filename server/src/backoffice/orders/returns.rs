//! The returns and refunds queue: orders with a return or a refund under way, by step
//! (requested, accepted, received, refund in progress: rose-deal refund requests are
//! there too), the longest waiting first. Each row leads to the order's page, whose
//! moves accept or deny (with a reason), mark received and refund: the life cycle's own
//! steps, each notified to the member and shown in My orders. Rose-deal retries have
//! their own tab (`retries.rs`).
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use super::store::{self, RETURN_STATUSES};
use super::{retries, status_label};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::Operator;
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ReturnsQuery {
    status: String,
    done: String,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(q): Query<ReturnsQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageOrders) {
        return r;
    }
    let notice = (!q.done.is_empty()).then(|| op.t("operators.saved").to_string());
    render(&app, &op, &q.status, notice, None, StatusCode::OK).await
}

/// The queue at one tab (a status, or the rose-deal retries), with a notice or an error.
pub async fn render(
    app: &AppCtx,
    op: &Operator,
    tab: &str,
    notice: Option<String>,
    error: Option<&'static str>,
    code: StatusCode,
) -> Response {
    let retries_tab = tab == retries::TAB;
    let status = RETURN_STATUSES
        .iter()
        .find(|s| **s == tab)
        .copied()
        .unwrap_or(RETURN_STATUSES[0]);
    let db = &app.state.db;
    let (rows, counts, retries_waiting, retry_rows) = match tokio::try_join!(
        async {
            if retries_tab {
                Ok(vec![])
            } else {
                store::returns_queue(db, status, 200).await
            }
        },
        store::returns_counts(db),
        retries::waiting_count(db),
        async {
            if retries_tab {
                retries::waiting(db, 200).await
            } else {
                Ok(vec![])
            }
        }
    ) {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let now = app::platform::state::now();
    let tabs = RETURN_STATUSES
        .iter()
        .map(|s| {
            let n = counts.iter().find(|(k, _)| k == s).map_or(0, |(_, n)| *n);
            view! {
                <a href=format!("{PREFIX}/returns?status={s}") aria-current=(!retries_tab && *s == status).then_some("page")>
                    {format!("{} ({n})", status_label(op, s))}
                </a>
            }
        })
        .collect_view();
    let list = if retries_tab {
        retries::list(op, &retry_rows, now)
    } else if rows.is_empty() {
        view! { <p>{t("returns.none")}</p> }.into_any()
    } else {
        let body = rows
            .iter()
            .map(|r| {
                let kind = if r.deal_refund { t("returns.deal_refund") } else { t("returns.goods") };
                view! {
                    <tr data-order=r.id.to_string()>
                        <td><a href=format!("{PREFIX}/orders/{}", r.id)>{format!("#{}", r.id)}</a></td>
                        <td>{crate::backoffice::moderation::age(op, r.since, now)}</td>
                        <td class="num">{r.site_id}</td>
                        <td>{r.email.clone()}</td>
                        <td>{kind}</td>
                        <td class="num">{format!("{} / {}", ui::amount(r.refunded), ui::amount(r.total))}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="bo-table-wrap" tabindex="0">
                <table id="returns">
                    <thead><tr>
                        <th scope="col">{t("orders.number")}</th>
                        <th scope="col">{t("support.waiting_since")}</th>
                        <th scope="col" class="num">{t("sales.site")}</th>
                        <th scope="col">{t("support.member")}</th>
                        <th scope="col">{t("returns.kind")}</th>
                        <th scope="col" class="num">{t("returns.refunded_of_total")}</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let error = error.map(|k| view! { <p class="bo-error" role="alert">{op.t(k)}</p> });
    let body = view! {
        <nav class="bo-tabs" aria-label=t("returns.title")>
            {tabs}
            <a href=format!("{PREFIX}/returns?status={}", retries::TAB) aria-current=retries_tab.then_some("page")>
                {format!("{} ({retries_waiting})", t("returns.retries"))}
            </a>
        </nav>
        {error}
        {list}
    }
    .into_any();
    ui::page(code, op.lang(), Some(op), t("returns.title"), notice, body)
}

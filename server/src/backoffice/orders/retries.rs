//! Rose-deal retries in the returns queue. A retry is self-service (the member's named
//! codes are re-issued at once, `app::rosedeals::service::retry`), so there is nothing to
//! approve; customer care reads what the member wrote (a partner may need to hear of a
//! faulty code, or the member may need an answer) and marks it handled. The first
//! operator to do so wins; a second is told.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::de::IgnoredAny;
use sqlx::Row;

use app::platform::db::Db;

use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

/// The queue's tab for retries (beside the order statuses).
pub const TAB: &str = "retries";

pub struct RetryRow {
    pub id: i64,
    pub order_id: i64,
    pub site_id: i64,
    pub email: String,
    pub codes: Vec<String>,
    pub content: String,
    pub created_at: i64,
}

/// Retries nobody handled yet, the oldest first.
pub async fn waiting(db: &Db, limit: i64) -> Result<Vec<RetryRow>, sqlx::Error> {
    sqlx::query(
        "SELECT r.id, r.order_id, o.site_id, m.email, r.vouchers_json, r.content, r.created_at
           FROM rosedeal_retries r JOIN orders o ON o.id = r.order_id JOIN members m ON m.id = o.member_id
          WHERE r.handled_at IS NULL ORDER BY r.created_at, r.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        let json: String = r.try_get("vouchers_json")?;
        Ok(RetryRow {
            id: r.try_get("id")?,
            order_id: r.try_get("order_id")?,
            site_id: r.try_get("site_id")?,
            email: r.try_get("email")?,
            // Written by the retry itself from a list of strings.
            codes: serde_json::from_str(&json).unwrap_or_default(),
            content: r.try_get("content")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect()
}

pub async fn waiting_count(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM rosedeal_retries WHERE handled_at IS NULL")
        .fetch_one(&db.pool)
        .await
}

/// The retries tab's table.
pub fn list(op: &Operator, rows: &[RetryRow], now: i64) -> AnyView {
    let t = |k: &str| op.t(k);
    if rows.is_empty() {
        return view! { <p>{t("returns.no_retry")}</p> }.into_any();
    }
    let body = rows
        .iter()
        .map(|r| {
            view! {
                <tr data-retry=r.id.to_string()>
                    <td><a href=format!("{PREFIX}/orders/{}", r.order_id)>{format!("#{}", r.order_id)}</a></td>
                    <td>{crate::backoffice::moderation::age(op, r.created_at, now)}</td>
                    <td class="num">{r.site_id}</td>
                    <td>{r.email.clone()}</td>
                    <td>{r.codes.join(", ")}</td>
                    <td class="bo-text">{r.content.clone()}</td>
                    <td>
                        <form method="post" action=format!("{PREFIX}/returns/retries/{}/handled", r.id)>
                            {ui::xsrf_field(op)}
                            <button type="submit" class="bo-secondary">{t("returns.handled")}</button>
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="bo-hint">{t("returns.retries_hint")}</p>
        <div class="bo-table-wrap" tabindex="0">
            <table id="retries">
                <thead><tr>
                    <th scope="col">{t("orders.number")}</th>
                    <th scope="col">{t("support.waiting_since")}</th>
                    <th scope="col" class="num">{t("sales.site")}</th>
                    <th scope="col">{t("support.member")}</th>
                    <th scope="col">{t("returns.codes")}</th>
                    <th scope="col">{t("returns.message")}</th>
                    <th scope="col">{t("returns.action")}</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
    .into_any()
}

pub async fn handled(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<IgnoredAny>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageOrders) {
        return r;
    }
    let now = app::platform::state::now();
    let done = async {
        let mut tx = app.state.db.begin().await?;
        let order: Option<i64> =
            sqlx::query_scalar("SELECT order_id FROM rosedeal_retries WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(order) = order else {
            return Ok(None);
        };
        let n = sqlx::query(
            "UPDATE rosedeal_retries SET handled_at = $2, handled_by = $3
              WHERE id = $1 AND handled_at IS NULL",
        )
        .bind(id)
        .bind(now)
        .bind(op.row.id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n != 1 {
            return Ok(Some(false));
        }
        let entry = Entry {
            action: "retry handled",
            object_kind: "order",
            object_id: order.to_string(),
            summary: format!("rose-deal retry #{id}"),
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(Some(true))
    }
    .await;
    match done {
        Ok(Some(true)) => ui::see_other(&format!("{PREFIX}/returns?status={TAB}&done=1")),
        Ok(Some(false)) => {
            super::returns::render(
                &app,
                op,
                TAB,
                None,
                Some("returns.already_handled"),
                StatusCode::CONFLICT,
            )
            .await
        }
        Ok(None) => ui::not_found(op),
        Err(e) => ui::db_error(e),
    }
}

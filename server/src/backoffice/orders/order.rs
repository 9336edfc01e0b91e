//! One order as customer care reads it, and the form that moves it: the statuses the life
//! cycle allows this kind of order from where it is now, each a button; the form carries
//! the status the operator saw, so a move someone made meanwhile is told, not stacked.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use leptos::prelude::*;
use serde::Deserialize;

use app::orders::error::OrdersError;
use app::orders::returns::settlement::{check_refund, RefundRefused};
use app::orders::returns::store as returns_store;
use app::orders::service;

use super::{status_label, store};
use crate::backoffice::audit::{self, Entry};
use crate::backoffice::roles::Permission;
use crate::backoffice::sales::rules::cents;
use crate::backoffice::session::{Operator, OperatorForm};
use crate::backoffice::{ui, PREFIX};
use crate::state::AppCtx;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct OrderQuery {
    done: String,
}

pub async fn page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<OrderQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ManageOrders) {
        return r;
    }
    let notice = (q.done == "1").then(|| op.t("orders.moved").to_string());
    render(&app, &op, id, notice, None, None, StatusCode::OK).await
}

/// Refund moves: they carry the amount customer care decided.
fn refunds(to: &str) -> bool {
    matches!(to, "refund_in_progress" | "refunded")
}

async fn render(
    app: &AppCtx,
    op: &Operator,
    id: i64,
    notice: Option<String>,
    error: Option<String>,
    typed_amount: Option<String>,
    status: StatusCode,
) -> Response {
    let db = &app.state.db;
    let Some((member_id, email, site_id, invoice)) = (match store::owner(db, id).await {
        Ok(o) => o,
        Err(e) => return ui::db_error(e),
    }) else {
        return ui::not_found(op);
    };
    let now = app::platform::state::now();
    let (detail, moves) = match tokio::try_join!(
        service::detail(db, member_id, id),
        service::moves(db, id, now)
    ) {
        Ok(r) => r,
        Err(OrdersError::NotFound) => return ui::not_found(op),
        Err(e) => {
            tracing::error!(order = id, error = %e, "back office: order unreadable");
            return ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::INTERNAL_SERVER_ERROR,
                op.t("form.errors"),
            );
        }
    };
    // The refund the open returns propose, when a move can start or make it.
    let proposed = if moves.iter().any(|s| refunds(s.wire())) {
        let proposed = async {
            let mut tx = db.begin().await?;
            app::orders::returns::store::proposed_refund(&mut tx, id).await
        }
        .await;
        match proposed {
            Ok(p) => p,
            Err(e) => return ui::db_error(e),
        }
    } else {
        None
    };
    let t = |k: &str| op.t(k);
    let o = &detail.order;
    let lines = o
        .items
        .iter()
        .map(|i| {
            view! {
                <tr>
                    <td>{format!("{} · {}", i.name, i.option_label)}</td>
                    <td class="num">{i.quantity}</td>
                    <td class="num">{ui::amount(i.unit_price)}</td>
                </tr>
            }
        })
        .collect_view();
    let events = detail
        .events
        .iter()
        .map(|e| view! { <li data-status=e.status.clone()>{format!("{} · {}", ui::when(e.at), status_label(op, &e.status))}</li> })
        .collect_view();
    let address = o.delivery_address.as_ref().map(|a| {
        format!(
            "{} {}, {} {}, {} {} {}, {}",
            a.first_name, a.last_name, a.details, a.extras, a.zip_code, a.city, a.country, a.phone
        )
    });
    let payment = detail.payment.as_ref().map(|p| {
        format!(
            "{} {} · {} · {}",
            p.method,
            p.card.clone().unwrap_or_default(),
            p.reference,
            ui::when(p.paid_at)
        )
    });
    let returns = detail
        .returns
        .iter()
        .map(|r| view! { <li>{format!("#{} · {} · {}", r.id, r.status, ui::when(r.created_at))}</li> })
        .collect_view();
    let buttons = moves
        .iter()
        .map(|s| {
            let class = if s.wire() == "cancelled" { "bo-danger" } else { "bo-secondary" };
            view! { <button type="submit" name="to" value=s.wire() class=class>{status_label(op, s.wire())}</button> }
        })
        .collect_view();
    let move_form = if moves.is_empty() {
        view! { <p>{t("orders.no_move")}</p> }.into_any()
    } else {
        view! {
            <form method="post" action=format!("{PREFIX}/orders/{id}/move") id="move" class="bo-inline">
                {ui::xsrf_field(op)}
                <input type="hidden" name="from" value=o.status.clone() />
                <p>{t("orders.move_hint")}</p>
                <label for="note">{t("orders.note")}</label>
                <input id="note" name="note" class="bo-wide" maxlength="500" />
                {proposed.map(|cents| view! {
                    <label for="amount">{format!("{} ({} {})", t("orders.refund_amount"), t("orders.refund_left"),
                        ui::amount(app::orders::returns::settlement::refundable(o.total, detail.refunded_amount)))}</label>
                    <input id="amount" name="amount" inputmode="decimal" maxlength="12"
                        value=typed_amount.clone().unwrap_or_else(|| ui::amount(cents)) />
                })}
                {buttons}
            </form>
        }
        .into_any()
    };
    let error = error.map(|e| view! { <p class="bo-error" role="alert">{e}</p> });
    let body = view! {
        <dl class="bo-facts" id="order-facts" data-status=o.status.clone()>
            <dt>{t("support.state")}</dt><dd>{status_label(op, &o.status)}</dd>
            <dt>{t("support.member")}</dt><dd>{format!("{email} (#{member_id})")}</dd>
            <dt>{t("sales.site")}</dt><dd>{super::super::sales::site_label(site_id)}</dd>
            <dt>{t("orders.date")}</dt><dd>{ui::when(o.created_at)}</dd>
            <dt>{t("orders.total")}</dt>
            <dd>{format!("{} {} ({} {}, {} {}, {} {})", ui::amount(o.total), o.currency,
                t("orders.subtotal"), ui::amount(o.subtotal), t("orders.discount"), ui::amount(o.discount),
                t("orders.shipping"), ui::amount(o.shipping))}</dd>
            <dt>{t("orders.refunded")}</dt><dd>{ui::amount(detail.refunded_amount)}</dd>
            <dt>{t("orders.payment")}</dt><dd>{payment.unwrap_or_else(|| t("orders.unpaid").to_string())}</dd>
            <dt>{t("orders.address")}</dt><dd>{address.unwrap_or_else(|| "—".to_string())}</dd>
            <dt>{t("orders.invoice")}</dt><dd>{invoice.unwrap_or_else(|| t("orders.no_invoice").to_string())}</dd>
            {detail.tracking_number.clone().map(|n| view! { <dt>{t("orders.tracking")}</dt><dd>{n}</dd> })}
        </dl>
        <h2>{t("orders.lines")}</h2>
        <div class="bo-table-wrap" tabindex="0">
            <table id="lines">
                <thead><tr><th scope="col">{t("orders.item")}</th><th scope="col" class="num">{t("orders.quantity")}</th><th scope="col" class="num">{t("orders.unit_price")}</th></tr></thead>
                <tbody>{lines}</tbody>
            </table>
        </div>
        <h2>{t("orders.timeline")}</h2>
        <ol id="timeline">{events}</ol>
        {(!detail.returns.is_empty()).then(|| view! { <h2>{t("orders.returns")}</h2><ul>{returns}</ul> })}
        <h2>{t("orders.move")}</h2>
        {error}
        {move_form}
    }
    .into_any();
    let title = format!("{} #{id}", t("orders.order"));
    ui::page(status, op.lang(), Some(op), &title, notice, body)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MoveFields {
    from: String,
    to: String,
    note: String,
    /// The refund, typed as `12.50`; empty for what the returns propose.
    amount: String,
}

/// What a move came to.
enum Outcome {
    Moved,
    /// Someone moved the order since the page was shown.
    Stale,
    /// The refund amount is not one the order allows.
    Refund(RefundRefused),
}

pub async fn move_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<MoveFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::ManageOrders) {
        return r;
    }
    let f = &form.fields;
    let note: String = f
        .note
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(500)
        .collect();
    let typed = (!f.amount.trim().is_empty()).then(|| f.amount.trim().to_string());
    let refused = |key: &str| {
        let text = op.t(key).to_string();
        let typed = typed.clone();
        let app = app.clone();
        async move {
            render(
                &app,
                op,
                id,
                None,
                Some(text),
                typed,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    };
    if f.to == "return_requested_denied" && note.is_empty() {
        return refused("orders.error.note").await;
    }
    // A refund amount typed is a price (`12.50`); empty takes what the returns propose.
    let amount = match (&typed, refunds(&f.to)) {
        (Some(text), true) => match cents(text) {
            Some(c) => Some(c),
            None => return refused("orders.error.amount").await,
        },
        _ => None,
    };
    // A denial's reason is the member's to read in My orders; other notes stay internal.
    let reason = (f.to == "return_requested_denied").then(|| note.clone());
    // The timeline keeps who moved it, and why when the operator said.
    let note = if note.is_empty() {
        "operator".to_string()
    } else {
        format!("operator: {note}")
    };
    let now = app::platform::state::now();
    let db = &app.state.db;
    let moved = async {
        let mut tx = db.begin().await?;
        // Still at the status the page showed? The write takes the row (PostgreSQL's lock;
        // SQLite's one writer), so a colleague's concurrent move is seen, not stacked.
        let still =
            sqlx::query("UPDATE orders SET updated_at = updated_at WHERE id = $1 AND status = $2")
                .bind(id)
                .bind(&f.from)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if still == 0 {
            return Ok(Outcome::Stale);
        }
        let mut refund = None;
        if refunds(&f.to) {
            if let Some(proposed) = returns_store::proposed_refund(&mut tx, id).await? {
                let (paid, refunded): (i64, i64) =
                    sqlx::query_as("SELECT total, refunded_amount FROM orders WHERE id = $1")
                        .bind(id)
                        .fetch_one(&mut *tx)
                        .await?;
                let decided = match check_refund(amount.unwrap_or(proposed), paid, refunded) {
                    Ok(a) => a,
                    Err(why) => return Ok(Outcome::Refund(why)),
                };
                returns_store::set_refund(&mut tx, id, decided).await?;
                refund = Some(decided);
            }
        }
        let moved =
            service::advance_in(&mut tx, db.backend, id, Some(&f.to), Some(&note), now).await?;
        if let Some(reason) = &reason {
            sqlx::query(
                "UPDATE order_events SET reason = $1
                  WHERE id = (SELECT MAX(id) FROM order_events WHERE order_id = $2)",
            )
            .bind(reason)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let entry = Entry {
            action: "move",
            object_kind: "order",
            object_id: id.to_string(),
            summary: match refund {
                Some(cents) => format!(
                    "status: {:?} → {:?}; refund {}; {note}",
                    moved.from,
                    moved.to.wire(),
                    ui::amount(cents)
                ),
                None => format!("status: {:?} → {:?}; {note}", moved.from, moved.to.wire()),
            },
        };
        audit::record(&mut tx, &op.actor(), entry, now).await?;
        tx.commit().await?;
        Ok::<_, OrdersError>(Outcome::Moved)
    }
    .await;
    match moved {
        Ok(Outcome::Moved) => ui::see_other(&format!("{PREFIX}/orders/{id}?done=1")),
        Ok(Outcome::Stale) => {
            let text = op.t("orders.changed").to_string();
            render(
                &app,
                op,
                id,
                None,
                Some(text),
                typed.clone(),
                StatusCode::CONFLICT,
            )
            .await
        }
        Ok(Outcome::Refund(RefundRefused::NotPositive)) => {
            refused("orders.error.refund_zero").await
        }
        Ok(Outcome::Refund(RefundRefused::MoreThanPaid)) => {
            refused("orders.error.refund_more").await
        }
        Err(OrdersError::NotFound) => ui::not_found(op),
        Err(OrdersError::Refused(_)) => refused("orders.refused").await,
        Err(e) => {
            tracing::error!(order = id, error = %e, "back office: order move failed");
            ui::message_page(
                op.lang(),
                Some(op),
                StatusCode::INTERNAL_SERVER_ERROR,
                op.t("form.errors"),
            )
        }
    }
}

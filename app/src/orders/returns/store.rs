//! The returns' SQL, in the caller's transaction.
use sqlx::{Any, Row, Transaction};

use crate::orders::model::{OrderReturn, OrderReturnLine};
use crate::orders::returns::rules::LineState;
use crate::orders::returns::settlement::{refund_amount, return_step, ReturnStep};

/// The member's order: (status, cart_type), or none for anyone else's.
pub async fn own_order(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    order_id: i64,
) -> Result<Option<(String, String)>, sqlx::Error> {
    let row = sqlx::query("SELECT status, cart_type FROM orders WHERE id = $1 AND member_id = $2")
        .bind(order_id)
        .bind(member_id)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| Ok((r.try_get("status")?, r.try_get("cart_type")?)))
        .transpose()
}

/// Each line of the order with what was bought, returned (returns not denied) and whether
/// a return of it is open.
pub async fn line_states(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
) -> Result<Vec<LineState>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT i.option_id, i.quantity,
                CAST(COALESCE((SELECT SUM(l.quantity) FROM return_lines l JOIN returns r ON r.id = l.return_id
                           WHERE l.order_id = i.order_id AND l.option_id = i.option_id AND r.status <> 'denied'), 0) AS BIGINT) AS returned,
                (SELECT COUNT(*) FROM return_lines l
                  WHERE l.order_id = i.order_id AND l.option_id = i.option_id AND l.open = 1) AS open_count
           FROM order_items i WHERE i.order_id = $1 ORDER BY i.option_id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(LineState {
                product_id: r.try_get("option_id")?,
                bought: r.try_get("quantity")?,
                returned: r.try_get("returned")?,
                open: r.try_get::<i64, _>("open_count")? > 0,
            })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)] // one row of the returns table
pub async fn insert_return(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    channel: &str,
    reason_id: &str,
    sub_reason_id: Option<&str>,
    comment: Option<&str>,
    lines: &[(i64, i64)],
    now: i64,
) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO returns (order_id, channel, reason_id, sub_reason_id, comment, status, created_at)
         VALUES ($1, $2, $3, $4, $5, 'requested', $6) RETURNING id",
    )
    .bind(order_id)
    .bind(channel)
    .bind(reason_id)
    .bind(sub_reason_id.map(str::to_string))
    .bind(comment.map(str::to_string))
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    for (option_id, quantity) in lines {
        sqlx::query(
            "INSERT INTO return_lines (return_id, order_id, option_id, quantity, open) VALUES ($1, $2, $3, $4, 1)",
        )
        .bind(id)
        .bind(order_id)
        .bind(option_id)
        .bind(quantity)
        .execute(&mut **tx)
        .await?;
    }
    Ok(id)
}

/// When the order was first delivered (its first `received`/`received_partially` event).
pub async fn delivered_at(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT MIN(created_at) FROM order_events
          WHERE order_id = $1 AND status IN ('received', 'received_partially')",
    )
    .bind(order_id)
    .fetch_one(&mut **tx)
    .await
}

/// What the order's move to `order_status` does to its returns in progress (see
/// `settlement::return_step`), in the move's transaction: every open return takes the step
/// (several are open together only when requests joined a pending one, so they are all at
/// the same step). A refund without a return (a rose-deal refund) records the rose-deal
/// refund's amount on the order.
pub async fn settle(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    order_status: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    let Some(step) = return_step(order_status) else {
        return Ok(());
    };
    let open: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM returns WHERE order_id = $1 AND settled_at IS NULL ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    if open.is_empty() {
        if step == ReturnStep::Refunded {
            sqlx::query(
                "UPDATE orders SET refunded_amount =
                    COALESCE((SELECT amount FROM rosedeal_refunds WHERE order_id = $1), refunded_amount)
                  WHERE id = $1",
            )
            .bind(order_id)
            .execute(&mut **tx)
            .await?;
        }
        return Ok(());
    }
    for return_id in open {
        settle_one(tx, order_id, return_id, step, now).await?;
    }
    Ok(())
}

async fn settle_one(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    return_id: i64,
    step: ReturnStep,
    now: i64,
) -> Result<(), sqlx::Error> {
    match step {
        ReturnStep::State(state) => {
            sqlx::query("UPDATE returns SET status = $2 WHERE id = $1")
                .bind(return_id)
                .bind(state)
                .execute(&mut **tx)
                .await?;
        }
        ReturnStep::Denied => {
            close(tx, return_id, "denied", now).await?;
        }
        ReturnStep::RefundStarted => {
            // An amount customer care set for this refund stands; otherwise the lines'.
            let set: Option<i64> =
                sqlx::query_scalar("SELECT refund_amount FROM returns WHERE id = $1")
                    .bind(return_id)
                    .fetch_one(&mut **tx)
                    .await?;
            let amount = match set {
                Some(a) => a,
                None => returned_value(tx, return_id).await?,
            };
            let amount = amount.min(left_to_refund(tx, order_id).await?);
            sqlx::query(
                "UPDATE returns SET status = 'refund_in_progress', refund_amount = $2 WHERE id = $1",
            )
            .bind(return_id)
            .bind(amount)
            .execute(&mut **tx)
            .await?;
        }
        ReturnStep::Refunded => {
            let started: Option<i64> =
                sqlx::query_scalar("SELECT refund_amount FROM returns WHERE id = $1")
                    .bind(return_id)
                    .fetch_one(&mut **tx)
                    .await?;
            let amount = match started {
                Some(a) => a,
                None => returned_value(tx, return_id).await?,
            };
            let amount = amount.min(left_to_refund(tx, order_id).await?);
            sqlx::query("UPDATE returns SET refund_amount = $2 WHERE id = $1")
                .bind(return_id)
                .bind(amount)
                .execute(&mut **tx)
                .await?;
            close(tx, return_id, "refunded", now).await?;
            sqlx::query("UPDATE orders SET refunded_amount = refunded_amount + $2 WHERE id = $1")
                .bind(order_id)
                .bind(amount)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

/// Settles a return: its state, when, and its lines are no longer open.
async fn close(
    tx: &mut Transaction<'static, Any>,
    return_id: i64,
    state: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE returns SET status = $2, settled_at = $3 WHERE id = $1")
        .bind(return_id)
        .bind(state)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE return_lines SET open = 0 WHERE return_id = $1")
        .bind(return_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The returned lines of a return at the price paid, in cents.
/// What is left to refund on the order (`settlement::refundable`).
pub async fn left_to_refund(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
) -> Result<i64, sqlx::Error> {
    let (paid, refunded): (i64, i64) =
        sqlx::query_as("SELECT total, refunded_amount FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&mut **tx)
            .await?;
    Ok(super::settlement::refundable(paid, refunded))
}

/// What customer care decided to refund for the order's open returns, before the move that
/// starts or makes the refund (`settle` then uses it): the whole amount on the oldest open
/// return, nothing on others joined to it, so the order's refunded total is the amount.
pub async fn set_refund(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    amount: i64,
) -> Result<bool, sqlx::Error> {
    let open: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM returns WHERE order_id = $1 AND settled_at IS NULL ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    for (i, id) in open.iter().enumerate() {
        sqlx::query("UPDATE returns SET refund_amount = $2 WHERE id = $1")
            .bind(id)
            .bind(if i == 0 { amount } else { 0 })
            .execute(&mut **tx)
            .await?;
    }
    Ok(!open.is_empty())
}

/// The refund the open returns of an order propose: the amount set when the refund
/// started, else the returned lines at the price paid; at most what is left to refund.
pub async fn proposed_refund(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let open: Vec<(i64, Option<i64>)> = sqlx::query_as(
        "SELECT id, refund_amount FROM returns WHERE order_id = $1 AND settled_at IS NULL ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    if open.is_empty() {
        return Ok(None);
    }
    let mut total = 0;
    for (id, set) in open {
        total += match set {
            Some(a) => a,
            None => returned_value(tx, id).await?,
        };
    }
    Ok(Some(total.min(left_to_refund(tx, order_id).await?)))
}

async fn returned_value(
    tx: &mut Transaction<'static, Any>,
    return_id: i64,
) -> Result<i64, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT l.quantity, i.unit_price FROM return_lines l
           JOIN order_items i ON i.order_id = l.order_id AND i.option_id = l.option_id
          WHERE l.return_id = $1",
    )
    .bind(return_id)
    .fetch_all(&mut **tx)
    .await?;
    let lines = rows
        .iter()
        .map(|r| Ok((r.try_get("quantity")?, r.try_get("unit_price")?)))
        .collect::<Result<Vec<(i64, i64)>, sqlx::Error>>()?;
    Ok(refund_amount(&lines))
}

/// The order's returns, oldest first, with their lines (for the order detail).
pub async fn of_order(
    conn: &mut sqlx::AnyConnection,
    order_id: i64,
) -> Result<Vec<OrderReturn>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, status, created_at, refund_amount FROM returns WHERE order_id = $1 ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: i64 = r.try_get("id")?;
        let lines = sqlx::query(
            "SELECT l.option_id, i.name, i.option_label, l.quantity FROM return_lines l
               JOIN order_items i ON i.order_id = l.order_id AND i.option_id = l.option_id
              WHERE l.return_id = $1 ORDER BY l.option_id",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|l| {
            let name: String = l.try_get("name")?;
            let label: String = l.try_get("option_label")?;
            Ok(OrderReturnLine {
                product_id: l.try_get("option_id")?,
                name: if label.is_empty() {
                    name
                } else {
                    format!("{name} · {label}")
                },
                quantity: l.try_get("quantity")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        out.push(OrderReturn {
            id,
            status: r.try_get("status")?,
            created_at: r.try_get("created_at")?,
            refund_amount: r.try_get("refund_amount")?,
            lines,
        });
    }
    Ok(out)
}

//! The one write that moves an order to a status: the order row, its timeline event and,
//! when the member should hear of it, a message-centre notification, in the caller's
//! transaction. Every area that changes an order's status (payment, the fulfilment
//! simulator, returns, refunds, rose deals) goes through here, so the timeline is whole.
use sqlx::{Any, Transaction};

/// Moves `order_id` to `status` (already checked by the caller's rules) and records it.
pub async fn record(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    status: &str,
    note: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    let member_id: i64 = sqlx::query_scalar(
        "UPDATE orders SET status = $2, updated_at = $3 WHERE id = $1 RETURNING member_id",
    )
    .bind(order_id)
    .bind(status)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO order_events (order_id, status, note, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(order_id)
    .bind(status)
    .bind(note)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if crate::orders::rules::OrderStatus::parse(status).is_some_and(|s| s.notified()) {
        sqlx::query(
            "INSERT INTO notifications (member_id, kind, order_id, status, created_at)
             VALUES ($1, 'order', $2, $3, $4)",
        )
        .bind(member_id)
        .bind(order_id)
        .bind(status)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The first event of a new order (payment done), written beside its INSERT.
pub async fn record_created(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    status: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO order_events (order_id, status, created_at) VALUES ($1, $2, $3)")
        .bind(order_id)
        .bind(status)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

//! The returns' SQL, in the caller's transaction.
use sqlx::{Any, Row, Transaction};

use crate::orders::returns::rules::LineState;

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

//! The fulfilment simulator's SQL: which orders can move, the guarded read of an order's
//! status inside the move's transaction, the tracking number.
use sqlx::{Any, AnyConnection, Row, Transaction};

/// An order's status, read inside the move's transaction; on PostgreSQL the row stays
/// locked until the end of it (SQLite's `BEGIN IMMEDIATE` already serializes writers).
pub async fn lock_status(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    postgres: bool,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    let sql = if postgres {
        "SELECT status, tracking_number FROM orders WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT status, tracking_number FROM orders WHERE id = $1"
    };
    sqlx::query(sql)
        .bind(order_id)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| Ok((r.try_get("status")?, r.try_get("tracking_number")?)))
        .transpose()
}

/// Gives the order its tracking number.
pub async fn set_tracking(
    tx: &mut Transaction<'static, Any>,
    order_id: i64,
    tracking: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE orders SET tracking_number = $2 WHERE id = $1 AND tracking_number IS NULL")
        .bind(order_id)
        .bind(tracking)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The orders in one of `statuses`, oldest first (the simulator's work list).
pub async fn in_statuses(
    conn: &mut AnyConnection,
    statuses: &[&str],
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    if statuses.is_empty() {
        return Ok(Vec::new());
    }
    let list = (0..statuses.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let sql =
        format!("SELECT id FROM orders WHERE status IN ({list}) ORDER BY created_at, id LIMIT $1");
    let mut q = sqlx::query_scalar(&sql).bind(limit);
    for s in statuses {
        q = q.bind(*s);
    }
    q.fetch_all(&mut *conn).await
}

/// What the simulator needs to know of an order beside its status: its cart type, the
/// delivery modes of its lines' products, and for a travel booking its stay (check-in day,
/// days). Read in the move's transaction, or on its own for the moves an operator is offered.
pub async fn facts(
    conn: &mut AnyConnection,
    order_id: i64,
) -> Result<(String, Vec<i64>, Option<(String, i64)>), sqlx::Error> {
    let cart_type: String = sqlx::query_scalar("SELECT cart_type FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&mut *conn)
        .await?;
    let modes: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT p.delivery_mode FROM order_items i JOIN products p ON p.id = i.product_id
          WHERE i.order_id = $1",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    let stay = sqlx::query(
        "SELECT b.day, d.days FROM travel_bookings b JOIN travel_durations d ON d.id = b.duration_id
          WHERE b.order_id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| Ok::<_, sqlx::Error>((r.try_get("day")?, r.try_get::<i64, _>("days")?)))
    .transpose()?;
    Ok((cart_type, modes, stay))
}

/// Active travel bookings with their stay (order id, check-in day, days), oldest first: the
/// simulator expires those whose stay is over.
pub async fn active_stays(
    conn: &mut AnyConnection,
) -> Result<Vec<(i64, String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT o.id, b.day, d.days FROM orders o
           JOIN travel_bookings b ON b.order_id = o.id
           JOIN travel_durations d ON d.id = b.duration_id
          WHERE o.status = 'active' ORDER BY o.created_at, o.id",
    )
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| Ok((r.try_get("id")?, r.try_get("day")?, r.try_get("days")?)))
    .collect()
}

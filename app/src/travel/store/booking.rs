//! Places of departures: held while a member pays, sold once paid. A departure's row keeps
//! `held + sold <= places` (a CHECK in the schema); every change is one conditional UPDATE,
//! so concurrent bookings for the last places never exceed them on SQLite or PostgreSQL.
use sqlx::{Any, Row, Transaction};

use crate::travel::rules::Date;

/// Holds `n` places of the departure (duration, day) inside `tx`. The departure's row is
/// created with `season_places` the first time; `false` when fewer than `n` are left.
pub async fn hold(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
    day: Date,
    season_places: i64,
    n: i64,
) -> Result<bool, sqlx::Error> {
    let day = day.to_string();
    sqlx::query(
        "INSERT INTO travel_departures (duration_id, day, places, held, sold) VALUES ($1, $2, $3, 0, 0)
         ON CONFLICT (duration_id, day) DO NOTHING",
    )
    .bind(duration_id)
    .bind(&day)
    .bind(season_places)
    .execute(&mut **tx)
    .await?;
    let done = sqlx::query(
        "UPDATE travel_departures SET held = held + $3
          WHERE duration_id = $1 AND day = $2 AND held + sold + $3 <= places",
    )
    .bind(duration_id)
    .bind(&day)
    .bind(n)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(done == 1)
}

/// Gives back `n` held places.
pub async fn release(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
    day: &str,
    n: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE travel_departures SET held = held - $3 WHERE duration_id = $1 AND day = $2 AND held >= $3",
    )
    .bind(duration_id)
    .bind(day)
    .bind(n)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Turns `n` held places into sold ones.
pub async fn sell(
    tx: &mut Transaction<'static, Any>,
    duration_id: i64,
    day: &str,
    n: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE travel_departures SET held = held - $3, sold = sold + $3
          WHERE duration_id = $1 AND day = $2 AND held >= $3",
    )
    .bind(duration_id)
    .bind(day)
    .bind(n)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(done == 1)
}

/// Releases holds that expired (of everyone, at most `limit`): each booking row changes
/// status with a condition first, so its places come back exactly once. The product of
/// each booking released.
pub async fn release_expired(
    tx: &mut Transaction<'static, Any>,
    now: i64,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, product_id, duration_id, day, places FROM travel_bookings
          WHERE status = 'held' AND expires_at <= $1 ORDER BY expires_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    let mut released = Vec::new();
    for r in rows {
        let id: i64 = r.try_get("id")?;
        let gone = sqlx::query(
            "UPDATE travel_bookings SET status = 'expired', updated_at = $2
              WHERE id = $1 AND status = 'held' AND expires_at <= $2",
        )
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if gone == 1 {
            let day: String = r.try_get("day")?;
            release(tx, r.try_get("duration_id")?, &day, r.try_get("places")?).await?;
            released.push(r.try_get("product_id")?);
        }
    }
    Ok(released)
}

/// What a booking row holds.
#[derive(Clone, Debug)]
pub struct BookingRow {
    pub id: i64,
    pub member_id: i64,
    pub product_id: i64,
    pub duration_id: i64,
    pub day: String,
    pub places: i64,
    pub status: String,
    pub expires_at: i64,
    pub total_cents: i64,
    pub currency: String,
    pub order_id: Option<i64>,
}

pub async fn booking<'e, E>(exec: E, id: i64) -> Result<Option<BookingRow>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let row = sqlx::query("SELECT * FROM travel_bookings WHERE id = $1")
        .bind(id)
        .fetch_optional(exec)
        .await?;
    row.map(|r| {
        Ok(BookingRow {
            id: r.try_get("id")?,
            member_id: r.try_get("member_id")?,
            product_id: r.try_get("product_id")?,
            duration_id: r.try_get("duration_id")?,
            day: r.try_get("day")?,
            places: r.try_get("places")?,
            status: r.try_get("status")?,
            expires_at: r.try_get("expires_at")?,
            total_cents: r.try_get("total_cents")?,
            currency: r.try_get("currency")?,
            order_id: r.try_get("order_id")?,
        })
    })
    .transpose()
}

/// Moves the member's held booking to `status` (`paid` or `cancelled`); `false` when it was
/// not held any more (paid, cancelled or expired meanwhile), so only one caller wins.
pub async fn settle_held(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    member_id: i64,
    status: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE travel_bookings SET status = $4, updated_at = $3
          WHERE id = $1 AND member_id = $2 AND status = 'held'",
    )
    .bind(id)
    .bind(member_id)
    .bind(now)
    .bind(status)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(done == 1)
}

//! Fixed-window counters in the database, so every server instance sees the same counts.
use sqlx::Row;

use crate::platform::db::Db;

/// Counts one hit for `bucket` and tells whether it is within `limit` for the window.
pub async fn hit(
    db: &Db,
    bucket: &str,
    limit: i64,
    window_secs: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let window_start = now - now.rem_euclid(window_secs.max(1));
    let row = sqlx::query(
        "INSERT INTO rate_limits (bucket, window_start, hits) VALUES ($1, $2, 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limits.hits + 1
         RETURNING hits",
    )
    .bind(bucket)
    .bind(window_start)
    .fetch_one(&db.pool)
    .await?;
    let hits: i64 = row.try_get("hits")?;
    if hits == 1 {
        // First hit of a new window: drop stale windows of this bucket.
        sqlx::query("DELETE FROM rate_limits WHERE bucket = $1 AND window_start < $2")
            .bind(bucket)
            .bind(window_start)
            .execute(&db.pool)
            .await?;
    }
    Ok(hits <= limit)
}

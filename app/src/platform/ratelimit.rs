//! Fixed-window counters in the database, so every server instance sees the same counts.
//! Each row knows when its window ends (`expires_at`); [`purge`] deletes ended rows and
//! runs on a schedule (the server's start-up spawns [`purger`]), so buckets that are never
//! hit again (one per spoofed or passing address) do not pile up.
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
    Ok(count(db, bucket, window_secs, now).await? <= limit)
}

/// Counts one hit for `bucket` and answers the hits of the current window, this one
/// included (`limit + 1` is the first refused hit: callers log that one only).
pub async fn count(db: &Db, bucket: &str, window_secs: i64, now: i64) -> Result<i64, sqlx::Error> {
    let window_secs = window_secs.max(1);
    let window_start = now - now.rem_euclid(window_secs);
    let row = sqlx::query(
        "INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limits.hits + 1
         RETURNING hits",
    )
    .bind(bucket)
    .bind(window_start)
    .bind(window_start + window_secs)
    .fetch_one(&db.writes)
    .await?;
    row.try_get("hits")
}

/// Deletes every row whose window has ended; answers how many went.
pub async fn purge(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM rate_limits WHERE expires_at <= $1")
            .bind(now)
            .execute(&db.writes)
            .await?
            .rows_affected(),
    )
}

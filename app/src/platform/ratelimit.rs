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

/// The hits of `bucket` in the current window, without counting one.
pub async fn current(
    db: &Db,
    bucket: &str,
    window_secs: i64,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let window_secs = window_secs.max(1);
    let window_start = now - now.rem_euclid(window_secs);
    let hits: Option<i64> =
        sqlx::query_scalar("SELECT hits FROM rate_limits WHERE bucket = $1 AND window_start = $2")
            .bind(bucket)
            .bind(window_start)
            .fetch_optional(&db.pool)
            .await?;
    Ok(hits.unwrap_or(0))
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

// ---------------------------------------------------------------- lockout counters
// One row per counter with `window_start` 0: `expires_at` is when the counter lapses, or
// when the lock ends; the purge deletes it afterwards.

/// Until when the lockout counter `bucket` locks, if it does (`hits >= threshold`). The
/// members' sign-in (`auth::store`, bucket per account and address) and the back office's
/// operators use these counters.
pub async fn locked_until(
    db: &Db,
    bucket: &str,
    threshold: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT hits, expires_at FROM rate_limits WHERE bucket = $1 AND window_start = 0",
    )
    .bind(bucket)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let (hits, until): (i64, i64) = (row.try_get("hits")?, row.try_get("expires_at")?);
    Ok((hits >= threshold && until > now).then_some(until))
}

/// Counts a failure on `bucket`; answers the end of the lock when this failure reaches the
/// threshold. A counter whose period has passed starts again from one, so a lock always
/// ends. One statement, so concurrent failures are all counted.
pub async fn record_failure(
    db: &Db,
    bucket: &str,
    threshold: i64,
    lockout_secs: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let (hits, until) = count_failure(db, bucket, threshold, lockout_secs, now).await?;
    Ok((hits >= threshold).then_some(until))
}

/// [`record_failure`]'s counter as it is after this failure: the failures of the period
/// and when the counter lapses (or the lock ends). A caller that acts once per lock acts
/// when the count is exactly the threshold: failures in flight at once are each counted.
pub async fn count_failure(
    db: &Db,
    bucket: &str,
    threshold: i64,
    lockout_secs: i64,
    now: i64,
) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ($1, 0, 1, $4)
         ON CONFLICT (bucket, window_start) DO UPDATE SET
            hits = CASE WHEN rate_limits.expires_at <= $3 THEN 1 ELSE rate_limits.hits + 1 END,
            expires_at = CASE
                WHEN rate_limits.expires_at <= $3 THEN $4
                WHEN rate_limits.hits + 1 >= $2 THEN $4
                ELSE rate_limits.expires_at END
         RETURNING hits, expires_at",
    )
    .bind(bucket)
    .bind(threshold)
    .bind(now)
    .bind(now + lockout_secs)
    .fetch_one(&db.writes)
    .await?;
    Ok((row.try_get("hits")?, row.try_get("expires_at")?))
}

/// A success: the counter `bucket` starts again.
pub async fn reset_failures(db: &Db, bucket: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rate_limits WHERE bucket = $1 AND window_start = 0")
        .bind(bucket)
        .execute(&db.writes)
        .await?;
    Ok(())
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

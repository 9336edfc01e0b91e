//! Data retention: rows that have no use once they expired are deleted on a schedule, so
//! tables do not grow with every visit and nothing personal is kept longer than needed:
//! ended sessions, used or expired sign-in and email-change links, voucher print links,
//! ended rate-limit windows, ended back-office sessions, old set-up links and
//! sale-opening counters, the files of help answers left unrated for a day, sign-in events
//! after [`AUTH_EVENTS_KEPT_SECS`], social sign-in
//! requests and pending identities once expired, and the experiment assignments of
//! visitors who never signed in, [`VISITOR_ASSIGNMENTS_KEPT_SECS`] after they were last
//! seen (review N6: an anonymous page view may write a row, never one kept for ever).
use crate::platform::db::Db;

/// How long sign-in events are kept: long enough to look into an attack on an account.
pub const AUTH_EVENTS_KEPT_SECS: i64 = 90 * 24 * 3600;
/// How long an anonymous visitor's experiment assignment is kept after their last page
/// view. Their bucket is a function of their id, so one who comes back later gets the same
/// variation again, counted from that visit.
pub const VISITOR_ASSIGNMENTS_KEPT_SECS: i64 = 30 * 24 * 3600;
/// How long the files of a help answer wait for the member's rating (a "not helpful" one
/// sends them with the ticket): unrated after a day, they go (review N2).
pub const UNRATED_ANSWER_FILES_KEPT_SECS: i64 = 24 * 3600;
/// A back-office session ends after this long without a request...
pub const OPERATOR_IDLE_SECS: i64 = 30 * 60;
/// ...or this long after sign-in, whichever comes first.
pub const OPERATOR_MAX_AGE_SECS: i64 = 12 * 3600;
/// The sale-opening dashboard's per-second counters are kept this long.
pub const OPENING_COUNTERS_KEPT_SECS: i64 = 7 * 24 * 3600;

/// Deletes what expired by `now`; the number of rows deleted.
pub async fn purge(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    let mut deleted = crate::platform::ratelimit::purge(db, now).await?;
    for sql in [
        "DELETE FROM sessions WHERE expires_at <= $1 OR idle_expires_at <= $1",
        "DELETE FROM member_cyphers WHERE expires_at <= $1",
        "DELETE FROM member_email_changes WHERE expires_at <= $1",
        "DELETE FROM account_secure_links WHERE expires_at <= $1",
        "DELETE FROM voucher_prints WHERE expires_at <= $1",
        "DELETE FROM social_login_states WHERE expires_at < $1",
        "DELETE FROM social_pending WHERE expires_at < $1",
    ] {
        deleted += sqlx::query(sql)
            .bind(now)
            .execute(&db.pool)
            .await?
            .rows_affected();
    }
    deleted +=
        sqlx::query("DELETE FROM operator_sessions WHERE last_seen_at <= $1 OR created_at <= $2")
            .bind(now - OPERATOR_IDLE_SECS)
            .bind(now - OPERATOR_MAX_AGE_SECS)
            .execute(&db.writes)
            .await?
            .rows_affected();
    deleted += sqlx::query("DELETE FROM operator_invites WHERE expires_at <= $1")
        .bind(now - 30 * 24 * 3600)
        .execute(&db.writes)
        .await?
        .rows_affected();
    deleted += sqlx::query("DELETE FROM sale_opening_counters WHERE second <= $1")
        .bind(now - OPENING_COUNTERS_KEPT_SECS)
        .execute(&db.writes)
        .await?
        .rows_affected();
    deleted += sqlx::query(
        "DELETE FROM experiment_assignments
         WHERE member_id IS NULL AND visitor LIKE 'a:%' AND last_exposed_at <= $1",
    )
    .bind(now - VISITOR_ASSIGNMENTS_KEPT_SECS)
    .execute(&db.writes)
    .await?
    .rows_affected();
    deleted += sqlx::query(
        "DELETE FROM help_evaluation_files WHERE evaluation_id IN
           (SELECT id FROM help_evaluations WHERE satisfaction IS NULL AND created_at <= $1)",
    )
    .bind(now - UNRATED_ANSWER_FILES_KEPT_SECS)
    .execute(&db.writes)
    .await?
    .rows_affected();
    deleted += sqlx::query("DELETE FROM auth_events WHERE created_at <= $1")
        .bind(now - AUTH_EVENTS_KEPT_SECS)
        .execute(&db.writes)
        .await?
        .rows_affected();
    Ok(deleted)
}

/// Purges every `every`, for as long as the server runs.
pub async fn purger(db: Db, every: std::time::Duration) {
    loop {
        tokio::time::sleep(every).await;
        match purge(&db, crate::platform::state::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(rows = n, "expired rows purged"),
            Err(e) => tracing::warn!(error = %e, "retention purge failed"),
        }
    }
}

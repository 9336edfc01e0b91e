//! Data retention on SQLite and PostgreSQL: what expired is deleted by the scheduled purge
//! (sessions, sign-in and email-change links, print links, old sign-in events), and what
//! is still in use stays.
use crate::helpers::{both, TestApp};

async fn expired_rows_are_purged(t: TestApp) {
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    let member: i64 = sqlx::query_scalar("SELECT id FROM members ORDER BY id LIMIT 1")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let exec = |sql: String| {
        let pool = db.pool.clone();
        async move { sqlx::query(&sql).execute(&pool).await.unwrap() }
    };
    for (tag, ends) in [("old", now - 10), ("live", now + 3600)] {
        exec(format!(
            "INSERT INTO sessions (token_hash, member_id, remember, created_at, last_seen_at, idle_expires_at, expires_at)
             VALUES ('s-{tag}', {member}, 0, {now}, {now}, {ends}, {ends})"
        ))
        .await;
        exec(format!(
            "INSERT INTO member_cyphers (cypher_hash, member_id, kind, created_at, expires_at)
             VALUES ('c-{tag}', {member}, 'recovery', {now}, {ends})"
        ))
        .await;
        exec(format!(
            "INSERT INTO member_email_changes (token_hash, member_id, new_email, created_at, expires_at)
             VALUES ('e-{tag}', {member}, 'x-{tag}@example.com', {now}, {ends})"
        ))
        .await;
        exec(format!(
            "INSERT INTO voucher_prints (token_hash, member_id, created_at, expires_at)
             VALUES ('p-{tag}', {member}, {now}, {ends})"
        ))
        .await;
    }
    // A session still within its absolute lifetime but idle for too long ends too.
    exec(format!(
        "INSERT INTO sessions (token_hash, member_id, remember, created_at, last_seen_at, idle_expires_at, expires_at)
         VALUES ('s-idle', {member}, 0, {now}, {now}, {}, {})",
        now - 1,
        now + 3600
    ))
    .await;
    let kept = app::platform::retention::AUTH_EVENTS_KEPT_SECS;
    for (tag, at) in [("old", now - kept - 1), ("recent", now - 60)] {
        exec(format!(
            "INSERT INTO auth_events (site_id, member_id, kind, client_key, detail, created_at)
             VALUES (1, {member}, 'retention-{tag}', 'test', '', {at})"
        ))
        .await;
    }

    let purged = app::platform::retention::purge(db, now).await.unwrap();
    assert!(purged >= 6, "{purged}");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sessions WHERE token_hash IN ('s-old', 's-idle')")
            .await,
        0
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sessions WHERE token_hash = 's-live'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_cyphers WHERE cypher_hash LIKE 'c-%'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_email_changes WHERE token_hash LIKE 'e-%'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM voucher_prints WHERE token_hash LIKE 'p-%'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM auth_events WHERE kind LIKE 'retention-%'")
            .await,
        1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM auth_events WHERE kind = 'retention-recent'")
            .await,
        1
    );
}

both!(
    expired_rows_are_purged,
    expired_rows_are_purged_on_sqlite,
    expired_rows_are_purged_on_postgres,
);

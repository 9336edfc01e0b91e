//! API calls' session lookups read together (`platform::session_lookups`), on SQLite and
//! PostgreSQL: many lookups at once each get their own member, never another's; an ended,
//! expired or malformed session is nobody in the same batch as live ones; a session last
//! seen a minute ago or more has its idle expiry slid, as the lookup alone does.
use app::platform::session;

use crate::helpers::{both, TestApp};

async fn lookups_answer_each_their_own(t: TestApp) {
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    let members: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM members WHERE status = 1 ORDER BY id LIMIT 8")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert!(members.len() >= 2, "the demo data has members");
    // Three sessions per member.
    let mut live = Vec::new();
    for &m in &members {
        for _ in 0..3 {
            live.push((session::create(db, m, false, now).await.unwrap(), m));
        }
    }
    let ended = session::create(db, members[0], false, now).await.unwrap();
    session::delete(db, &ended).await.unwrap();
    let expired = session::create(db, members[1], false, now).await.unwrap();
    sqlx::query("UPDATE sessions SET idle_expires_at = $1 WHERE token_hash = $2")
        .bind(now - 1)
        .bind(session::hash_token(&expired))
        .execute(&db.pool)
        .await
        .unwrap();
    let stale = live[0].0.clone();
    sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2")
        .bind(now - 61)
        .bind(session::hash_token(&stale))
        .execute(&db.pool)
        .await
        .unwrap();

    // Every lookup at once, four rounds, the dead ones among them.
    let mut tasks = tokio::task::JoinSet::new();
    for round in 0..4 {
        for (token, member) in live.iter().cloned() {
            let lookups = t.app.sessions.clone();
            tasks.spawn(async move {
                (
                    token.clone(),
                    Some(member),
                    lookups.member(&token, now).await,
                )
            });
        }
        for dead in [
            ended.clone(),
            expired.clone(),
            "0".repeat(32),
            format!("not a token {round}"),
        ] {
            let lookups = t.app.sessions.clone();
            tasks.spawn(async move { (dead.clone(), None, lookups.member(&dead, now).await) });
        }
    }
    let mut answered = 0;
    while let Some(done) = tasks.join_next().await {
        let (token, want, got) = done.unwrap();
        let got = got.unwrap();
        assert_eq!(got.as_ref().map(|m| m.member_id), want, "token {token}");
        if let Some(m) = got {
            assert_eq!(m.token_hash, session::hash_token(&token));
            // The same answer as the lookup alone.
            assert_eq!(
                session::member_for_token(db, &token, now).await.unwrap(),
                Some(m)
            );
        }
        answered += 1;
    }
    assert_eq!(answered, 4 * (live.len() + 4));

    // The stale session was slid to now; a fresh one kept its values.
    let (idle, _) = session::lifetimes(false);
    let (seen, idle_ends): (i64, i64) =
        sqlx::query_as("SELECT last_seen_at, idle_expires_at FROM sessions WHERE token_hash = $1")
            .bind(session::hash_token(&stale))
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!((seen, idle_ends), (now, now + idle));
}

both!(
    lookups_answer_each_their_own,
    session_lookups_on_sqlite,
    session_lookups_on_postgres,
);

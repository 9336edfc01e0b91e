//! API calls' session lookups read together (`platform::session_lookups`), on SQLite and
//! PostgreSQL: many lookups at once each get their own member, never another's; an ended,
//! expired or malformed session is nobody in the same batch as live ones; a session last
//! seen a minute ago or more has its idle expiry slid, as the lookup alone does. Page
//! views' lookups read the member's tiles (hearts, live holds) in the same query, each
//! member their own.
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

async fn page_lookups_read_each_their_own_tiles(t: TestApp) {
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    let members: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM members WHERE status = 1 ORDER BY id LIMIT 2")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    let (a, b) = (members[0], members[1]);
    // A product of two options (two lines to add up) and another one.
    let two: i64 = sqlx::query_scalar(
        "SELECT product_id FROM product_options GROUP BY product_id HAVING COUNT(*) >= 2
          ORDER BY product_id LIMIT 1",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    let option_rows = "SELECT o.id, o.product_id, p.sale_id FROM product_options o
           JOIN products p ON p.id = o.product_id";
    let mut options: Vec<(i64, i64, i64)> = sqlx::query_as(&format!(
        "{option_rows} WHERE o.product_id = $1 ORDER BY o.id LIMIT 2"
    ))
    .bind(two)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    options.push(
        sqlx::query_as(&format!(
            "{option_rows} WHERE o.product_id <> $1 ORDER BY o.id LIMIT 1"
        ))
        .bind(two)
        .fetch_one(&db.pool)
        .await
        .unwrap(),
    );
    let other = options[2].1;
    assert_ne!(other, two);
    for product in [two, other] {
        sqlx::query(
            "INSERT INTO favourites (member_id, product_id, sale_id, created_at)
             SELECT $1, id, sale_id, $2 FROM products WHERE id = $3",
        )
        .bind(a)
        .bind(now)
        .bind(product)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    // Two live lines of one product (2 + 1 units), and an ended hold of the other.
    for (&(option, product, sale), (quantity, ends)) in
        options
            .iter()
            .zip([(2, now + 600), (1, now + 600), (5, now - 1)])
    {
        sqlx::query(
            "INSERT INTO cart_items (member_id, option_id, product_id, sale_id, quantity,
                                     created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(a)
        .bind(option)
        .bind(product)
        .bind(sale)
        .bind(quantity)
        .bind(now)
        .bind(ends)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    let token_a = session::create(db, a, false, now).await.unwrap();
    let token_b = session::create(db, b, false, now).await.unwrap();

    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..200 {
        let (token, member) = if n % 2 == 0 {
            (&token_a, a)
        } else {
            (&token_b, b)
        };
        let (token, lookups) = (token.clone(), t.app.page_sessions.clone());
        tasks.spawn(async move { (member, lookups.member_with(&token, now).await) });
    }
    while let Some(done) = tasks.join_next().await {
        let (member, got) = done.unwrap();
        let (m, values) = got.unwrap().expect("a live session");
        assert_eq!(m.member_id, member);
        let tiles = &values.tiles;
        let mut favourites: Vec<i64> = tiles.favourites.iter().copied().collect();
        favourites.sort();
        if member == a {
            assert_eq!(favourites, [two.min(other), two.max(other)]);
            assert_eq!(tiles.held, [(two, 3)].into_iter().collect());
            assert_eq!(tiles.held_units(), 3);
        } else {
            assert_eq!(favourites, Vec::<i64>::new());
            assert!(tiles.held.is_empty());
            assert_eq!(tiles.held_units(), 0);
        }
    }
}

both!(
    page_lookups_read_each_their_own_tiles,
    page_lookups_read_tiles_on_sqlite,
    page_lookups_read_tiles_on_postgres,
);

both!(
    lookups_answer_each_their_own,
    session_lookups_on_sqlite,
    session_lookups_on_postgres,
);

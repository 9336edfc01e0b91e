//! Security review M1: the client address behind trusted proxies, and the purge of ended
//! rate-limit windows.
use serde_json::{json, Value};

use crate::helpers::{both, TestApp};
use server::middleware::client_ip::TrustedProxies;

/// A JSON POST with the XSRF token and, when given, an `X-Forwarded-For` header.
pub(super) async fn post_from(
    t: &TestApp,
    path: &str,
    body: Value,
    xsrf: &str,
    forwarded_for: Option<&str>,
) -> reqwest::Response {
    let mut req = t
        .client
        .post(t.url(path))
        .header("cookie", crate::helpers::xsrf_cookie(xsrf))
        .header("X-XSRF-TOKEN", xsrf);
    if let Some(xff) = forwarded_for {
        req = req.header("x-forwarded-for", xff);
    }
    req.json(&body).send().await.unwrap()
}

fn wrong_login() -> Value {
    json!({"email": "ghost@example.com", "password": "wrong-1", "siteId": 1})
}

/// Behind our proxy (the test client's 127.0.0.1), a client that writes a new first
/// `X-Forwarded-For` entry each time still lands in the bucket of the address our proxy
/// appended, so the flood limit holds; another real client is counted apart.
async fn spoofed_first_entries_do_not_escape_the_limit(t: TestApp) {
    let xsrf = t.xsrf().await;
    let limit = t.app.settings.auth.login_rate_limit;
    for n in 0..limit {
        let xff = format!("1.2.3.{n}, 198.51.100.1");
        let res = post_from(
            &t,
            "/api/authentication/v1/login",
            wrong_login(),
            &xsrf,
            Some(&xff),
        )
        .await;
        assert_eq!(res.status(), 200, "attempt {n}");
    }
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        wrong_login(),
        &xsrf,
        Some("9.9.9.9, 198.51.100.1"),
    )
    .await;
    assert_eq!(
        res.status(),
        429,
        "a new spoofed first entry is the same client"
    );
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        wrong_login(),
        &xsrf,
        Some("9.9.9.9, 198.51.100.2"),
    )
    .await;
    assert_eq!(res.status(), 200, "another real client has its own bucket");
    let logged: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM auth_events WHERE kind = 'login' AND client_key = '198.51.100.1'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(logged, limit, "events name the real client");
}

both!(
    spoofed_first_entries_do_not_escape_the_limit,
    spoofed_forwarded_for_shares_the_bucket_on_sqlite,
    spoofed_forwarded_for_shares_the_bucket_on_postgres,
    |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        c.settings.auth.login_rate_limit = 3;
    },
);

/// Without trusted proxies (the default) the header is ignored: the peer is the client.
async fn forwarded_for_is_ignored_by_default(t: TestApp) {
    assert!(t.app.config.trusted_proxies.is_empty());
    let xsrf = t.xsrf().await;
    let limit = t.app.settings.auth.login_rate_limit;
    for n in 0..limit {
        let xff = format!("203.0.113.{n}");
        let res = post_from(
            &t,
            "/api/authentication/v1/login",
            wrong_login(),
            &xsrf,
            Some(&xff),
        )
        .await;
        assert_eq!(res.status(), 200, "attempt {n}");
    }
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        wrong_login(),
        &xsrf,
        Some("203.0.113.200"),
    )
    .await;
    assert_eq!(res.status(), 429);
}

both!(
    forwarded_for_is_ignored_by_default,
    forwarded_for_is_ignored_by_default_on_sqlite,
    forwarded_for_is_ignored_by_default_on_postgres,
    |c| {
        c.settings.auth.login_rate_limit = 3;
    },
);

/// `purge` deletes the rows of ended windows (and rows from before their end was stored)
/// and keeps the current ones.
async fn ended_windows_are_purged(t: TestApp) {
    use app::platform::ratelimit;
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    ratelimit::count(db, "test:old", 600, now - 1200)
        .await
        .unwrap();
    ratelimit::count(db, "test:old-too", 60, now - 61)
        .await
        .unwrap();
    ratelimit::count(db, "test:current", 600, now)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO rate_limits (bucket, window_start, hits) VALUES ('test:legacy', 0, 1)",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let before = t
        .count("SELECT COUNT(*) FROM rate_limits WHERE bucket LIKE 'test:%'")
        .await;
    assert_eq!(before, 4);
    let purged = ratelimit::purge(db, now).await.unwrap();
    assert!(purged >= 3, "{purged}");
    let left: Vec<String> =
        sqlx::query_scalar("SELECT bucket FROM rate_limits WHERE bucket LIKE 'test:%'")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(left, vec!["test:current".to_string()]);
    // The current window still counts on.
    assert_eq!(
        ratelimit::count(db, "test:current", 600, now)
            .await
            .unwrap(),
        2
    );
}

both!(
    ended_windows_are_purged,
    ended_rate_limit_windows_are_purged_on_sqlite,
    ended_rate_limit_windows_are_purged_on_postgres,
);

/// The server purges on its own schedule: an ended row goes without anyone hitting it.
async fn the_purge_runs_on_a_schedule(t: TestApp) {
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    app::platform::ratelimit::count(db, "test:ended", 1, now - 10)
        .await
        .unwrap();
    let mut gone = false;
    for _ in 0..40 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        if t.count("SELECT COUNT(*) FROM rate_limits WHERE bucket = 'test:ended'")
            .await
            == 0
        {
            gone = true;
            break;
        }
    }
    assert!(gone, "the sweeper removed the ended window");
}

both!(
    the_purge_runs_on_a_schedule,
    rate_limit_purge_runs_on_a_schedule_on_sqlite,
    rate_limit_purge_runs_on_a_schedule_on_postgres,
    |c| c.rate_limit_purge_secs = 1,
);

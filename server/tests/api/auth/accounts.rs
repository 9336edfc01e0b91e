//! Registration, activation, login codes, logout; lockout and unlock.
use serde_json::{json, Value};

use super::{outbox_link, post_json, query_param};
use crate::helpers::{both, cookie_value, TestApp};

const PASSWORD: &str = "Velvet-Orchard-42";

async fn register_activate_login(t: TestApp) {
    let xsrf = t.xsrf().await;
    // Unknown email → registration step (200, result 1); invalid → 422.
    let res = t
        .get("/api/authentication/v1/members/new.member@example.com/sites/1/exists")
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 1);
    assert_eq!(
        t.get("/api/authentication/v1/members/nope/sites/1/exists")
            .await
            .status(),
        422
    );

    // Registration: bad fields are refused with field errors, nothing stored.
    let bad = json!({"siteId": 1, "email": "new.member@example.com", "password": "password1", "civility": 2,
        "firstName": "Jean.Luc", "lastName": "N'Diaye-Durand", "birthDate": "31/02/1990", "cgv": true, "privacyPolicy": false});
    let res = post_json(&t, "/api/authentication/v1/subscribe", bad, "", &xsrf).await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    let fields: Vec<&str> = body["fieldErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["password", "firstName", "birthDate", "privacyPolicy"]
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'new.member@example.com'")
            .await,
        0
    );

    let good = json!({"siteId": 1, "email": "New.Member@Example.com", "password": PASSWORD, "civility": 2,
        "firstName": "Zoé", "lastName": "Durand", "birthDate": "15/08/1985", "cgv": true, "privacyPolicy": true});
    let res = post_json(
        &t,
        "/api/authentication/v1/subscribe",
        good.clone(),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 201);
    // The same email again: refused.
    let res = post_json(&t, "/api/authentication/v1/subscribe", good, "", &xsrf).await;
    assert_eq!(res.status(), 400);

    // Not activated yet: code 5.
    let login = json!({"email": "new.member@example.com", "password": PASSWORD, "rememberMe": false, "returnUrl": "/gr/cart", "siteId": 1});
    let res = post_json(&t, "/api/authentication/v1/login", login.clone(), "", &xsrf).await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 5);

    // Activation from the emailed link, once.
    let link = outbox_link(&t, "signin=activate");
    let cypher = query_param(&link, "cypher");
    let res = post_json(
        &t,
        "/api/authentication/v1/activate",
        json!({"siteId": 1, "cypher": cypher}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/activate",
        json!({"siteId": 1, "cypher": cypher}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400, "a cypher works once");

    // Success: code 1, the ReturnUrl, a session cookie and a new XSRF token.
    let res = post_json(&t, "/api/authentication/v1/login", login, "", &xsrf).await;
    let session = cookie_value(&res, app::platform::session::COOKIE).expect("session cookie");
    let new_xsrf = cookie_value(&res, "XSRF-TOKEN").expect("new xsrf");
    assert_ne!(new_xsrf, xsrf);
    let set: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(set.iter().any(|c| c.starts_with("rosace_session=")
        && c.contains("HttpOnly")
        && c.contains("SameSite=Lax")));
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["result"], 1);
    assert_eq!(body["redirectUrl"], "/gr/cart");

    // The registration accepted the general conditions in force: the member is not asked
    // again (no terms popin, checkout goes through).
    assert_eq!(
        t.count("SELECT terms_version FROM members WHERE email = 'new.member@example.com'")
            .await,
        app::onboarding::rules::TERMS_VERSION
    );

    // The session opens members-only pages; web validate names the member.
    let cookie = format!("{}={session}", app::platform::session::COOKIE);
    assert_eq!(t.get_with_cookie("/cart", &cookie).await.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/webvalidate",
        json!({}),
        &cookie,
        &new_xsrf,
    )
    .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["result"], 1);
    assert_eq!(body["member"]["firstName"], "Zoé");
    // The anonymous XSRF token no longer passes for this session.
    let res = post_json(
        &t,
        "/api/authentication/v1/webvalidate",
        json!({}),
        &cookie,
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 403);

    // Logout deletes the row: the page redirects again.
    let res = post_json(
        &t,
        "/api/authentication/v1/logout",
        json!({}),
        &cookie,
        &new_xsrf,
    )
    .await;
    assert_eq!(res.status(), 204);
    assert_eq!(t.get_with_cookie("/cart", &cookie).await.status(), 302);
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);
}

both!(
    register_activate_login,
    register_activate_login_logout_on_sqlite,
    register_activate_login_logout_on_postgres,
);

async fn lockout_then_unlock(t: TestApp) {
    let xsrf = t.xsrf().await;
    let login = |pw: &str| json!({"email": "demo@rosace.test", "password": pw, "siteId": 1});
    for attempt in 1..=2 {
        let res = post_json(
            &t,
            "/api/authentication/v1/login",
            login("wrong-password"),
            "",
            &xsrf,
        )
        .await;
        assert_eq!(
            res.json::<Value>().await.unwrap()["result"],
            3,
            "attempt {attempt}"
        );
    }
    // The third failure reaches the threshold (3 in this test): code 4 with the unlock time.
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        login("wrong-password"),
        "",
        &xsrf,
    )
    .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["result"], 4);
    assert!(body["lockedUntil"].as_i64().unwrap() > app::platform::state::now());
    // Even the right password is refused while locked.
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        login(server::demo::DEMO_PASSWORD),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 4);
    // Once the period has passed, the right password works and resets the counter.
    sqlx::query("UPDATE rate_limits SET expires_at = $1 WHERE bucket LIKE 'lock:%'")
        .bind(app::platform::state::now() - 1)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        login(server::demo::DEMO_PASSWORD),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 1);
    // This client's counter is gone; the account-wide one (every client's failures within
    // the hour, review N8) is not reset by a success: it only pauses at its ceiling.
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM rate_limits WHERE bucket LIKE 'lock:%' AND bucket NOT LIKE '%:*'"
        )
        .await,
        0
    );
    // Unknown identifier: code 2. Events are logged.
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        json!({"email": "ghost@example.com", "password": "x", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 2);
    assert!(
        t.count("SELECT COUNT(*) FROM auth_events WHERE kind = 'account_locked'")
            .await
            >= 1
    );
}

both!(
    lockout_then_unlock,
    lockout_and_unlock_on_sqlite,
    lockout_and_unlock_on_postgres,
    |c| c.settings.auth.lockout_threshold = 3,
);

/// The per-client flood limit: past it, every login from that address is refused with 429
/// (the right password too, another account too) and logged, until the window ends.
async fn login_flood(t: TestApp) {
    let xsrf = t.xsrf().await;
    let login =
        |email: &str, password: &str| json!({"email": email, "password": password, "siteId": 1});
    let limit = t.app.settings.auth.login_rate_limit;
    for n in 0..limit {
        // Different accounts, so the per-account lockout is not what answers.
        let email = if n % 2 == 0 {
            "demo@rosace.test"
        } else {
            "ghost@example.com"
        };
        let res = post_json(
            &t,
            "/api/authentication/v1/login",
            login(email, "wrong-1"),
            "",
            &xsrf,
        )
        .await;
        assert_eq!(res.status(), 200, "attempt {n} is answered");
    }
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        login("demo@rosace.test", server::demo::DEMO_PASSWORD),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 429);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error_code"], "toomanyrequests", "{body}");
    assert_eq!(body["error_description"], "auth.error.too_many", "{body}");
    // Refused again: the flood is logged once per window, not once per request.
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        login("ghost@example.com", "wrong-1"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 429);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM auth_events WHERE kind = 'login_flood'")
            .await,
        1
    );
    // No session was opened by the refused attempt.
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);
}

both!(
    login_flood,
    login_flood_is_refused_on_sqlite,
    login_flood_is_refused_on_postgres,
    |c| c.settings.auth.login_rate_limit = 6,
);

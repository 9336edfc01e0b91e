//! Registration, activation, login codes, logout; lockout and unlock.
use serde_json::{json, Value};

use super::{outbox_link, post_json, query_param};
use crate::helpers::{both, cookie_value, TestApp};

const PASSWORD: &str = "Velvet-Orchard-42";

/// The fields a refusal names, in its order.
fn field_names(body: &Value) -> Vec<&str> {
    body["fieldErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect()
}

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
    let fields = field_names(&body);
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

/// Registration's country list with its flags, the country and the occupation stored, a
/// call's `otherCity`; an unknown country or job refused by its field with nothing stored.
async fn registration_country_and_occupation(t: TestApp) {
    let res = t
        .client
        .get(t.url("/api/members/v1/countries"))
        .header("x-vp-siteid", "71")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 8);
    assert_eq!(
        list[0],
        json!({"countryCode": "BE", "flagText": "🇧🇪", "flagUrl": "/img/flag/BE.svg", "label": "Belgique / België"})
    );
    for entry in list {
        let res = t.get(entry["flagUrl"].as_str().unwrap()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "image/svg+xml");
    }
    assert_eq!(t.get("/img/flag/XX.svg").await.status(), 404);
    let doc: Value = t.get("/api/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/members/v1/countries"]["get"].is_object());
    assert_eq!(t.get("/img/flag/..%2Fx.svg").await.status(), 404);

    let xsrf = t.xsrf().await;
    let person = |email: &str, extra: Value| {
        let mut body = json!({"siteId": 71, "email": email, "password": PASSWORD, "civility": 1,
            "firstName": "Pieter", "lastName": "De Smet", "cgv": true, "privacyPolicy": true});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let bad = person(
        "pieter@example.com",
        json!({"countryCode": "ZZ", "occupation": 999}),
    );
    let res = post_json(&t, "/api/authentication/v1/subscribe", bad, "", &xsrf).await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    let fields = field_names(&body);
    assert_eq!(fields, ["countryCode", "occupation"]);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'pieter@example.com'")
            .await,
        0
    );
    let good = person(
        "pieter@example.com",
        json!({"countryCode": "fr", "occupation": 2, "zipCode": "1000", "otherCity": "Bruxelles"}),
    );
    let res = post_json(&t, "/api/authentication/v1/subscribe", good, "", &xsrf).await;
    assert_eq!(res.status(), 201);
    let stored: (String, Option<i64>, String) = sqlx::query_as(
        "SELECT country_code, job_id, city FROM members WHERE email = 'pieter@example.com'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(stored, ("FR".into(), Some(2), "Bruxelles".into()));
    // Without a country: the site's.
    let res = post_json(
        &t,
        "/api/authentication/v1/subscribe",
        person("an@example.com", json!({})),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 201);
    let country: String =
        sqlx::query_scalar("SELECT country_code FROM members WHERE email = 'an@example.com'")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(country, "BE");

    // The form asks by site: the country on a Belgian site, the occupation on a French one.
    let be = t
        .get("/gr/registration?step=register&site=71")
        .await
        .text()
        .await
        .unwrap();
    assert!(be.contains("name=\"countryCode\""));
    assert!(be.contains("<option value=\"BE\" selected"));
    assert!(!be.contains("name=\"occupation\""));
    let fr = t
        .get("/gr/registration?step=register&site=1")
        .await
        .text()
        .await
        .unwrap();
    assert!(!fr.contains("name=\"countryCode\""));
    assert!(fr.contains("name=\"occupation\""));
    assert!(fr.contains("Étudiant(e)"));
}

both!(
    registration_country_and_occupation,
    registration_country_and_occupation_on_sqlite,
    registration_country_and_occupation_on_postgres,
);

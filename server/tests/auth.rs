//! Members against real SQLite and PostgreSQL: email check, registration and activation,
//! login codes, lockout and unlock, cypher single use and expiry, session rotation,
//! timeouts and logout, CSRF on the forms.
mod common;

use common::{cookie_value, start, start_with, Backend, TestApp};
use serde_json::{json, Value};

const PASSWORD: &str = "Velvet-Orchard-42";

async fn post_json(
    t: &TestApp,
    path: &str,
    body: Value,
    cookies: &str,
    xsrf: &str,
) -> reqwest::Response {
    t.client
        .post(t.url(path))
        .header("cookie", format!("{cookies}; XSRF-TOKEN={xsrf}"))
        .header("X-XSRF-TOKEN", xsrf)
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn outbox_link(t: &TestApp, needle: &str) -> String {
    let dir = &t.app.state.settings.outbox_dir;
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .collect();
    files.sort_by_key(|e| e.file_name());
    let text = files
        .iter()
        .rev()
        .map(|f| std::fs::read_to_string(f.path()).unwrap())
        .find(|t| t.contains(needle))
        .expect("mail in outbox");
    let start = text.find("http").unwrap();
    text[start..].split_whitespace().next().unwrap().to_string()
}

fn query_param(url: &str, name: &str) -> String {
    url.split(['?', '&'])
        .find_map(|p| p.strip_prefix(&format!("{name}=")))
        .unwrap_or("")
        .to_string()
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
        "firstName": "Jean-Luc", "lastName": "Durand", "birthDate": "31/02/1990", "cgv": true, "privacyPolicy": false});
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

#[tokio::test]
async fn register_activate_login_logout_on_sqlite() {
    register_activate_login(start(Backend::Sqlite).await).await;
}

#[tokio::test]
async fn register_activate_login_logout_on_postgres() {
    register_activate_login(start(Backend::Postgres).await).await;
}

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
    sqlx::query(
        "UPDATE members SET locked_until = $1 WHERE email = 'demo@rosace.test' AND site_id = 1",
    )
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
    assert_eq!(
        t.count(
            "SELECT failed_logins FROM members WHERE email = 'demo@rosace.test' AND site_id = 1"
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

#[tokio::test]
async fn lockout_and_unlock_on_sqlite() {
    lockout_then_unlock(start_with(Backend::Sqlite, |c| c.lockout_threshold = 3).await).await;
}

#[tokio::test]
async fn lockout_and_unlock_on_postgres() {
    lockout_then_unlock(start_with(Backend::Postgres, |c| c.lockout_threshold = 3).await).await;
}

async fn recovery_autologin_rotation_and_timeouts(t: TestApp) {
    let xsrf = t.xsrf().await;
    let db = &t.app.state.db;
    // Recovery answers the same for unknown emails and sends nothing for them.
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "ghost@example.com", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "demo@rosace.test", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let link = outbox_link(&t, "updatepassword=1");
    let (cypher, member_id) = (
        query_param(&link, "cypher"),
        query_param(&link, "memberid").parse::<i64>().unwrap(),
    );
    let update =
        |pw: &str| json!({"siteId": 1, "cypher": cypher, "memberId": member_id, "newPassword": pw});
    // A common password is refused without spending the cypher.
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("password123"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("Brand-New-Secret-7"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("Another-Secret-8"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400, "single use");
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        json!({"email": "demo@rosace.test", "password": "Brand-New-Secret-7", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 1);

    // An expired cypher is refused.
    let now = app::platform::state::now();
    let expired = app::auth::service::issue_autologin(&t.app.state, member_id, now - 3 * 86_400)
        .await
        .unwrap();
    let res = t
        .get(&format!(
            "/gr/authentication/autologin?cypher={expired}&returnurl=/gr/cart"
        ))
        .await;
    assert_eq!(res.status(), 302);
    assert!(
        res.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with("/gr/authentication?"),
        "failure shows the page"
    );
    assert!(cookie_value(&res, app::platform::session::COOKIE).is_none());

    // Autologin: 302 to the ReturnUrl with a session; the old session's token is replaced.
    let old = app::platform::session::create(db, member_id, false, now)
        .await
        .unwrap();
    let fresh = app::auth::service::issue_autologin(&t.app.state, member_id, now)
        .await
        .unwrap();
    let res = t
        .get_with_cookie(
            &format!("/gr/authentication/autologin?cypher={fresh}&returnurl=/gr/my-orders"),
            &format!("rosace_session={old}"),
        )
        .await;
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], "/gr/my-orders");
    let new = cookie_value(&res, app::platform::session::COOKIE).unwrap();
    assert_ne!(new, old, "a new token at sign-in");
    assert!(
        app::platform::session::member_for_token(db, &old, now)
            .await
            .unwrap()
            .is_none(),
        "the old session is gone"
    );
    assert!(app::platform::session::member_for_token(db, &new, now)
        .await
        .unwrap()
        .is_some());
    // An open redirect is refused.
    let again = app::auth::service::issue_autologin(&t.app.state, member_id, now)
        .await
        .unwrap();
    let res = t
        .get(&format!(
            "/gr/authentication/autologin?cypher={again}&returnurl=https://evil.example/"
        ))
        .await;
    assert_eq!(res.headers()["location"], "/");

    // Idle timeout (30 min) and absolute timeout (12 h) without "remember me".
    let (idle, absolute) = app::platform::session::lifetimes(false);
    assert!(
        app::platform::session::member_for_token(db, &new, now + idle + 1)
            .await
            .unwrap()
            .is_none(),
        "idle timeout"
    );
    let remembered = app::platform::session::create(db, member_id, true, now)
        .await
        .unwrap();
    assert!(
        app::platform::session::member_for_token(db, &remembered, now + idle + 1)
            .await
            .unwrap()
            .is_some(),
        "remember me outlives the idle timeout"
    );
    let active = app::platform::session::create(db, member_id, false, now)
        .await
        .unwrap();
    let mut t_now = now;
    while t_now < now + absolute - 60 {
        t_now += idle / 2;
        if t_now >= now + absolute {
            break;
        }
        assert!(app::platform::session::member_for_token(db, &active, t_now)
            .await
            .unwrap()
            .is_some());
    }
    assert!(
        app::platform::session::member_for_token(db, &active, now + absolute + 1)
            .await
            .unwrap()
            .is_none(),
        "absolute timeout"
    );
}

#[tokio::test]
async fn recovery_autologin_and_sessions_on_sqlite() {
    recovery_autologin_rotation_and_timeouts(start(Backend::Sqlite).await).await;
}

#[tokio::test]
async fn recovery_autologin_and_sessions_on_postgres() {
    recovery_autologin_rotation_and_timeouts(start(Backend::Postgres).await).await;
}

#[tokio::test]
async fn html_forms_work_without_scripts_and_refuse_cross_site_posts() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/gr/authentication?ReturnUrl=/gr/cart").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains(&format!("name=\"_xsrf\" value=\"{xsrf}\"")),
        "the form carries the token"
    );
    let form = |fields: &[(&str, &str)]| {
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };

    // Without the token (a cross-site post): 403, nothing happens.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .form(&form(&[
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", server::demo::DEMO_PASSWORD),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);

    // Email step: a known email goes to the password step.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", format!("XSRF-TOKEN={xsrf}"))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "email"),
            ("email", "demo@rosace.test"),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/gr/authentication?step=password&email=demo%40rosace.test"));

    // Wrong password: back to the step with code 3's message key.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", format!("XSRF-TOKEN={xsrf}"))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", "nope"),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("error=auth.login.error.3"), "{location}");
    let html = t.get(&location).await.text().await.unwrap();
    assert!(
        html.contains("Mot de passe incorrect"),
        "localized code 3 message"
    );

    // Right password: 303 to the ReturnUrl with the session.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", format!("XSRF-TOKEN={xsrf}"))
        .form(&form(&[
            ("_xsrf", &xsrf),
            ("step", "password"),
            ("email", "demo@rosace.test"),
            ("password", server::demo::DEMO_PASSWORD),
            ("returnurl", "/gr/cart"),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/gr/cart");
    let session = cookie_value(&res, app::platform::session::COOKIE).unwrap();
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        200
    );

    // Logout by a same-site navigation ends the session; a cross-site one does not.
    let res = t
        .client
        .get(t.url("/authentication/logout/"))
        .header("cookie", format!("rosace_session={session}"))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302);
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        200
    );
    let res = t
        .client
        .get(t.url("/authentication/logout/"))
        .header("cookie", format!("rosace_session={session}"))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(
        t.get_with_cookie("/gr/cart", &format!("rosace_session={session}"))
            .await
            .status(),
        302
    );
}

/// Onboarding: consent stored for a returning visitor and scripts gated by category;
/// popins in order, once per member and version; the data-partner banner; the app banner.
#[tokio::test]
async fn consent_popins_and_banners() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"consent-banner\""));
    assert!(
        !html.contains("perf-metrics.js"),
        "no performance script before consent"
    );
    assert!(
        !html.contains("data-testid=\"popin\""),
        "popins are for members only"
    );

    let post_form = |cookies: String, body: String| {
        let t = &t;
        async move {
            t.client
                .post(t.url("/onboarding/form"))
                .header("cookie", cookies)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    // Custom choice: performance only.
    let res = post_form(
        format!("XSRF-TOKEN={xsrf}"),
        format!("_xsrf={xsrf}&kind=consent&back=%2F&choice=custom&categories=C0002"),
    )
    .await;
    assert_eq!(res.status(), 303);
    let consent = cookie_value(&res, "OptanonConsent").unwrap();
    assert_eq!(consent, "groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0");
    let html = t
        .get_with_cookie("/", &format!("OptanonConsent={consent}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !html.contains("consent-banner"),
        "a returning visitor is not asked again"
    );
    assert!(
        html.contains("perf-metrics.js"),
        "accepted category's script runs"
    );
    // Without the token: refused.
    let res = post_form(String::new(), "kind=consent&choice=all".into()).await;
    assert_eq!(res.status(), 403);

    // A member: welcome first, then personalisation, birthdate, terms, optin; then the banner.
    let session = t.member_session(1).await;
    let member_page = t.get_with_cookie("/", &session).await;
    let member_xsrf = cookie_value(&member_page, "XSRF-TOKEN").unwrap();
    let html = member_page.text().await.unwrap();
    assert!(html.contains("data-popin-type=\"welcome\""));
    let cookies = format!("{session}; XSRF-TOKEN={member_xsrf}");
    for (code, version, name, extra) in [
        (0, 1, "personalisation", ""),
        (1, 1, "birthdate", ""),
        (2, 1, "birthdate", "&birthDate=31%2F02%2F1990"),
        (2, 1, "terms", "&birthDate=14%2F07%2F1989"),
        (5, 2, "optin", ""),
    ] {
        let res = post_form(cookies.clone(), format!("_xsrf={member_xsrf}&kind=popin&back=%2F&popinType={code}&version={version}&action=accept{extra}")).await;
        assert_eq!(res.status(), 303);
        let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
        assert!(
            html.contains(&format!("data-popin-type=\"{name}\"")),
            "after {code}: expected {name}"
        );
        assert!(!html.contains("adot-banner"), "no banner under a popin");
    }
    let res = post_form(
        cookies.clone(),
        format!("_xsrf={member_xsrf}&kind=popin&back=%2F&popinType=6&version=1&action=close"),
    )
    .await;
    assert_eq!(res.status(), 303);
    let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
    assert!(!html.contains("data-testid=\"popin\""), "each popin once");
    assert!(html.contains("adot-banner"));
    assert_eq!(t.count("SELECT COUNT(*) FROM member_popins").await, 5);
    assert_eq!(t.count("SELECT COUNT(*) FROM members WHERE site_id = 1 AND birth_date = '1989-07-14' AND perso_gdpr = 1 AND terms_version = 2").await, 1);

    // Accepting the data-partner opt-in (REST, with IsAdotOptinAccepted) hides the banner.
    let res = post_json(
        &t,
        "/api/partner/v1/adot-optin",
        json!({"IsAdotOptinAccepted": true}),
        &session,
        &member_xsrf,
    )
    .await;
    assert_eq!(res.status(), 204);
    let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
    assert!(!html.contains("adot-banner"));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE adot_optin = 1")
            .await,
        1
    );

    // App banner: home page, phones, members; closing hides it for a month.
    let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari/537.36";
    let get_ua = |cookie: String| {
        let t = &t;
        async move {
            t.client
                .get(t.url("/"))
                .header("cookie", cookie)
                .header("user-agent", phone)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    assert!(get_ua(session.clone()).await.contains("app-banner"));
    assert!(
        !t.get_with_cookie("/", &session)
            .await
            .text()
            .await
            .unwrap()
            .contains("app-banner"),
        "not on desktop"
    );
    let res = post_form(cookies, format!("_xsrf={member_xsrf}&kind=app&back=%2F")).await;
    let set: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(set
        .iter()
        .any(|c| c.starts_with("appDownloadBannerClosed=1") && c.contains("Max-Age=2592000")));
    assert!(!get_ua(format!("{session}; appDownloadBannerClosed=1"))
        .await
        .contains("app-banner"));
}

/// A minimal SMTP server that hands over each message it receives.
async fn fake_smtp() -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(buf) = data.as_mut() {
                        if line == "." {
                            tx.send(data.take().unwrap()).unwrap();
                            write.write_all(b"250 queued\r\n").await.unwrap();
                        } else {
                            buf.push_str(&line);
                            buf.push('\n');
                        }
                        continue;
                    }
                    let reply: &[u8] =
                        match line.get(..4).unwrap_or("").to_ascii_uppercase().as_str() {
                            "EHLO" | "HELO" => b"250 fake\r\n",
                            "DATA" => {
                                data = Some(String::new());
                                b"354 go ahead\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                return;
                            }
                            _ => b"250 OK\r\n",
                        };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (url, rx)
}

#[tokio::test]
async fn emails_go_through_smtp_when_configured() {
    let (url, mut inbox) = fake_smtp().await;
    let t = start_with(Backend::Sqlite, |c| c.smtp_url = Some(url)).await;
    let xsrf = t.xsrf().await;
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "demo@rosace.test", "siteId": 2}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let message = tokio::time::timeout(std::time::Duration::from_secs(10), inbox.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(message.contains("To: demo@rosace.test"), "{message}");
    assert!(
        message.contains("updatepassword"),
        "the recovery link: {message}"
    );
    assert!(
        !std::path::Path::new(&t.app.state.settings.outbox_dir).exists(),
        "nothing in the outbox"
    );
}

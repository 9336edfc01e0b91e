//! Low findings of the security review (L1, L4, L5, L8, L10, L11), each checked through the
//! real server: what an attacker tried is refused, and what the shop itself does still works.
use serde_json::{json, Value};

use crate::helpers::{both, start, Backend, TestApp};

/// POST JSON with the cookies and the XSRF header.
async fn post_json(
    t: &TestApp,
    path: &str,
    body: Value,
    cookies: &str,
    xsrf: &str,
) -> reqwest::Response {
    t.client
        .post(t.url(path))
        .header("cookie", cookies)
        .header("X-XSRF-TOKEN", xsrf)
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Visits a page with `cookies`: the cookies a browser then holds (those sent, with what
/// the page set over them) and its XSRF token.
async fn visit(t: &TestApp, cookies: &str) -> (String, String) {
    let res = t.get_with_cookie("/gr/aboutus", cookies).await;
    let mut jar: Vec<(String, String)> = cookies
        .split("; ")
        .filter_map(|c| c.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for set in res.headers().get_all("set-cookie") {
        let pair = set.to_str().unwrap().split(';').next().unwrap();
        if let Some((k, v)) = pair.split_once('=') {
            jar.retain(|(name, _)| name != k);
            jar.push((k.to_string(), v.to_string()));
        }
    }
    let xsrf = jar
        .iter()
        .find(|(k, _)| k.ends_with("XSRF-TOKEN"))
        .map(|(_, v)| v.clone())
        .expect("pages set the XSRF cookie");
    let header = jar
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("; ");
    (header, xsrf)
}

/// A member's session cookie, the cookies a browser of theirs holds, and their XSRF token.
async fn member(t: &TestApp) -> (String, String, String) {
    let session = t.member_session(1).await;
    let (cookies, xsrf) = visit(t, &session).await;
    (session, cookies, xsrf)
}

fn token_of(session_cookie: &str) -> &str {
    session_cookie.split_once('=').unwrap().1
}

async fn session_alive(t: &TestApp, session_cookie: &str) -> bool {
    app::platform::session::member_for_token(
        &t.app.state.db,
        token_of(session_cookie),
        app::platform::state::now(),
    )
    .await
    .unwrap()
    .is_some()
}

// ------------------------------------------------------------------ L4

/// Review L4: only the current version of a popin type can be answered; a future terms
/// version (which would hide the next terms and open checkout) is a 400 and stores nothing.
async fn popin_answers_only_for_the_current_version(t: TestApp) {
    let (_, cookies, xsrf) = member(&t).await;
    let terms_before = t
        .count("SELECT terms_version FROM members WHERE id = (SELECT MIN(id) FROM members WHERE site_id = 1)")
        .await;
    for path in [
        "/api/popins/v1/5/999999",
        "/api/popins/v1/5/1",
        "/api/popins/v1/4/1",
    ] {
        let res = post_json(&t, path, json!({"accepted": true}), &cookies, &xsrf).await;
        assert_eq!(res.status(), 400, "{path}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error_code"], "invalid_popin_version", "{path}");
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM member_popins").await, 0);
    assert_eq!(
        t.count("SELECT terms_version FROM members WHERE id = (SELECT MIN(id) FROM members WHERE site_id = 1)")
            .await,
        terms_before
    );
    // The no-script form is held to the same rule.
    let res = t
        .client
        .post(t.url("/onboarding/form/popin"))
        .header("cookie", &cookies)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "_xsrf={xsrf}&kind=popin&back=%2F&popinType=5&version=999999&action=accept"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(t.count("SELECT COUNT(*) FROM member_popins").await, 0);
    // The current version is answered.
    let res = post_json(
        &t,
        "/api/popins/v1/5/2",
        json!({"accepted": true}),
        &cookies,
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        t.count("SELECT terms_version FROM members WHERE id = (SELECT MIN(id) FROM members WHERE site_id = 1)")
            .await,
        2
    );
}

both!(
    popin_answers_only_for_the_current_version,
    popin_versions_on_sqlite,
    popin_versions_on_postgres
);

// ------------------------------------------------------------------ L5

/// Review L5: the sign-in page shows `error` and `info` only for its own message keys; a
/// sentence in a phishing link shows nothing.
#[tokio::test]
async fn sign_in_page_shows_only_its_own_messages() {
    let t = start(Backend::Sqlite).await;
    let spoof = "Your%20account%20is%20suspended%2C%20call%20%2B33%201%2023%2045%2067%2089";
    for q in [
        format!("error={spoof}"),
        format!("info={spoof}"),
        "error=header.search.placeholder".into(),
        "info=auth.no.such.key".into(),
    ] {
        let html = t
            .get(&format!("/gr/authentication?{q}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(!html.contains("data-testid=\"auth-error\""), "{q}");
        assert!(!html.contains("data-testid=\"auth-info\""), "{q}");
        assert!(!html.contains("Your account is suspended"), "{q}");
    }
    let html = t
        .get("/gr/authentication?error=auth.error.too_many&info=auth.recover.sent")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"auth-error\""));
    assert!(html.contains("Trop de tentatives"));
    assert!(html.contains("data-testid=\"auth-info\""));
}

// ------------------------------------------------------------------ L8

fn outbox(t: &TestApp) -> Vec<String> {
    std::fs::read_dir(&t.app.settings.mail.outbox_dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default()
}

fn cypher_in(mail: &str) -> String {
    mail.split("cypher=")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect()
}

/// Review L8: a password reset uses up the member's other recovery and autologin links in
/// the same transaction, and mails the "your password was changed" notice.
async fn password_reset_ends_other_links_and_notifies(t: TestApp) {
    let (cookies, xsrf) = visit(&t, "").await;
    let email = "demo@rosace.test";
    let member_id: i64 =
        sqlx::query_scalar("SELECT id FROM members WHERE email = $1 AND site_id = 1")
            .bind(email)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    // Two recovery links (the attacker kept one) and an autologin link.
    for _ in 0..2 {
        let res = post_json(
            &t,
            "/api/authentication/v1/password/recover",
            json!({"email": email, "siteId": 1}),
            &cookies,
            &xsrf,
        )
        .await;
        assert_eq!(res.status(), 200);
    }
    let cyphers: Vec<String> = outbox(&t)
        .iter()
        .filter(|m| m.contains("updatepassword=1"))
        .map(|m| cypher_in(m))
        .collect();
    assert_eq!(cyphers.len(), 2);
    let now = app::platform::state::now();
    let autologin =
        app::auth::service::issue_autologin(&t.app.state, &t.app.settings.auth, member_id, now)
            .await
            .unwrap();
    let update = |cypher: &str, pw: &str| json!({"siteId": 1, "cypher": cypher, "memberId": member_id, "newPassword": pw});
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update(&cyphers[0], "Brand-New-Secret-7"),
        &cookies,
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_cyphers WHERE used_at IS NULL AND kind IN ('recovery', 'autologin')")
            .await,
        0,
        "every other link is used up"
    );
    // The kept recovery link no longer sets a password; the autologin link shows nothing.
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update(&cyphers[1], "Attacker-Secret-9"),
        &cookies,
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = t
        .get(&format!("/gr/authentication/autologin?cypher={autologin}"))
        .await;
    assert!(!res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("step=autologin"));
    // The notice, in the site's language.
    assert!(
        outbox(&t)
            .iter()
            .any(|m| m.contains(&format!("To: {email}"))
                && m.contains("Subject: Votre mot de passe a été modifié")),
        "the password-changed notice is sent"
    );
}

both!(
    password_reset_ends_other_links_and_notifies,
    password_reset_ends_links_on_sqlite,
    password_reset_ends_links_on_postgres
);

// ------------------------------------------------------------------ L10

fn values(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("brand-{i}")).collect()
}

/// Review L10: filter lists hold at most 20 distinct values of at most 64 characters. JSON
/// calls answer more with 400 (`too_many_values`); pages keep the first 20.
async fn filter_lists_are_capped(t: TestApp) {
    let content = "/api/catalog/v2/sale/1001/catalogContent/0";
    for param in ["brand", "color", "size"] {
        let res = t
            .get(&format!("{content}?{param}={}", values(20).join(",")))
            .await;
        assert_eq!(res.status(), 200, "{param}: 20 values");
        // Repeats count once.
        let res = t
            .get(&format!("{content}?{param}={0},{0}", values(20).join(",")))
            .await;
        assert_eq!(res.status(), 200, "{param}: repeats");
        let res = t
            .get(&format!("{content}?{param}={}", values(21).join(",")))
            .await;
        assert_eq!(res.status(), 400, "{param}: 21 values");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error_code"], "too_many_values");
        let res = t
            .get(&format!("{content}?{param}={}", "x".repeat(65)))
            .await;
        assert_eq!(res.status(), 400, "{param}: 65 characters");
    }
    let res = t
        .get(&format!(
            "/api/catalog/v1/brands/1/items?brand={}",
            values(1000).join(",")
        ))
        .await;
    assert_eq!(res.status(), 400);

    // The server functions of the catalog and search pages run in process only: not routed.
    let catalog = "/api/fn/catalog/page?query[site_id]=1&query[sale_id]=1001&query[universe_id]=0&query[page]=1";
    let search = "/api/fn/search/page?query[site_id]=1&query[q]=robe&query[page]=1";
    for base in [catalog, search] {
        assert_eq!(t.get(base).await.status(), 404, "{base}");
    }

    // Pages ignore the excess (a crafted link still gets the page).
    let many = values(1000).join(",");
    assert_eq!(
        t.get(&format!("/c/vente/1001/0?brand={many}&color={many}"))
            .await
            .status(),
        200
    );
    assert_eq!(
        t.get(&format!("/find?q=robe&brand={many}&size={many}"))
            .await
            .status(),
        200
    );
}

both!(
    filter_lists_are_capped,
    filter_lists_capped_on_sqlite,
    filter_lists_capped_on_postgres
);

// ------------------------------------------------------------------ L11

/// Review L11: a member keeps at most 20 sessions (the oldest end first), and can sign out
/// everywhere else, through the REST call (CSRF, member session) or the account's button.
async fn sessions_are_capped_and_can_end_elsewhere(t: TestApp) {
    let db = &t.app.state.db;
    let member_id: i64 =
        sqlx::query_scalar("SELECT id FROM members WHERE site_id = 1 ORDER BY id LIMIT 1")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let now = app::platform::state::now();
    let mut tokens = Vec::new();
    for i in 0..25 {
        tokens.push(
            app::platform::session::create(db, member_id, false, now - 100 + i)
                .await
                .unwrap(),
        );
    }
    let count_sql = format!("SELECT COUNT(*) FROM sessions WHERE member_id = {member_id}");
    assert_eq!(t.count(&count_sql).await, 20);
    for (i, token) in tokens.iter().enumerate() {
        let alive = app::platform::session::member_for_token(db, token, now)
            .await
            .unwrap()
            .is_some();
        assert_eq!(alive, i >= 5, "session {i}");
    }

    // Sign out everywhere else (REST): only for a member, only with the token.
    let path = "/api/authentication/v1/sessions/end-others";
    let (anonymous, anon_xsrf) = visit(&t, "").await;
    let res = post_json(&t, path, json!({}), &anonymous, &anon_xsrf).await;
    assert_eq!(res.status(), 401);
    let current = format!("rosace_session={}", tokens[24]);
    let (cookies, xsrf) = visit(&t, &current).await;
    let res = t
        .client
        .post(t.url(path))
        .header("cookie", &cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "no token: refused");
    assert_eq!(t.count(&count_sql).await, 20);
    // Review N1: with the member's password only.
    let res = post_json(&t, path, json!({}), &cookies, &xsrf).await;
    assert_eq!(res.status(), 400);
    assert_eq!(t.count(&count_sql).await, 20);
    let proof = json!({ "currentPassword": server::demo::DEMO_PASSWORD });
    let res = post_json(&t, path, proof, &cookies, &xsrf).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["ended"], 19);
    assert_eq!(body["msgKey"], "myprofile.sessions.ended");
    assert_eq!(t.count(&count_sql).await, 1);
    assert!(session_alive(&t, &current).await, "this session stays");
    assert!(!session_alive(&t, &format!("rosace_session={}", tokens[23])).await);

    // The account page's button, without scripts.
    let other = app::platform::session::create(db, member_id, false, now)
        .await
        .unwrap();
    let html = t
        .get_with_cookie("/myaccount/memberdata", &current)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"end-sessions-form\""));
    assert!(html.contains("Me déconnecter partout ailleurs"));
    let res = t
        .client
        .post(t.url("/myaccount/form/end_sessions"))
        .header("cookie", &cookies)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "_xsrf={xsrf}&currentPassword={}",
            server::demo::DEMO_PASSWORD
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("notice=myprofile.sessions.ended"));
    assert!(!session_alive(&t, &format!("rosace_session={other}")).await);
    assert!(session_alive(&t, &current).await);
    assert!(t
        .get_with_cookie(
            "/myaccount/memberdata?notice=myprofile.sessions.ended",
            &current
        )
        .await
        .text()
        .await
        .unwrap()
        .contains("Vos autres connexions ont été fermées."));
}

both!(
    sessions_are_capped_and_can_end_elsewhere,
    sessions_capped_on_sqlite,
    sessions_capped_on_postgres
);

// ------------------------------------------------------------------ L1 (logout)

/// Review L1: the logout link ends the session only from the shop's own pages. A browser
/// without Fetch Metadata must carry the session's CSRF token, as the shop's own links do.
#[tokio::test]
async fn logout_without_fetch_metadata_needs_the_token() {
    let t = start(Backend::Sqlite).await;
    let (session, cookies, xsrf) = member(&t).await;
    let logout = |query: String, fetch_site: Option<&'static str>| {
        let t = &t;
        let cookies = cookies.clone();
        async move {
            let mut req = t
                .client
                .get(t.url(&format!("/authentication/logout/{query}")))
                .header("cookie", cookies);
            if let Some(site) = fetch_site {
                req = req.header("sec-fetch-site", site);
            }
            req.send().await.unwrap()
        }
    };
    // A link on another site, seen by a browser that sends no Fetch Metadata.
    let res = logout(String::new(), None).await;
    assert_eq!(res.status(), 302);
    assert!(session_alive(&t, &session).await);
    let res = logout("?_xsrf=forged".into(), None).await;
    assert_eq!(res.status(), 302);
    assert!(session_alive(&t, &session).await);
    let res = logout(String::new(), Some("cross-site")).await;
    assert_eq!(res.status(), 302);
    assert!(session_alive(&t, &session).await);
    // The shop's own link carries the token: it works in such a browser.
    let html = t
        .get_with_cookie("/gr/aboutus", &cookies)
        .await
        .text()
        .await
        .unwrap();
    let href = app::auth::rules::logout_href(&xsrf);
    assert!(
        html.contains(&format!("href=\"{href}\"")),
        "the header's link"
    );
    let res = logout(format!("?_xsrf={xsrf}"), None).await;
    assert_eq!(res.status(), 303);
    assert!(!session_alive(&t, &session).await);
}

// ------------------------------------------------------------------ L1 (autologin)

/// Review L1: an autologin link signs nobody in by itself. It leads to "Continue as
/// <first name>?"; only that form, posted with the visitor's CSRF token, opens the session.
#[tokio::test]
async fn autologin_link_asks_before_signing_in() {
    let t = start(Backend::Sqlite).await;
    let db = &t.app.state.db;
    let (member_id, first_name): (i64, String) = {
        use sqlx::Row;
        let row = sqlx::query(
            "SELECT id, first_name FROM members WHERE email = 'demo@rosace.test' AND site_id = 1",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        (row.get("id"), row.get("first_name"))
    };
    let now = app::platform::state::now();
    let cypher =
        app::auth::service::issue_autologin(&t.app.state, &t.app.settings.auth, member_id, now)
            .await
            .unwrap();
    // The link (as another site would send the victim there): no session, nothing used.
    let res = t
        .get(&format!(
            "/gr/authentication/autologin?cypher={cypher}&ReturnUrl=/gr/my-orders"
        ))
        .await;
    assert_eq!(res.status(), 302);
    assert!(res
        .headers()
        .get_all("set-cookie")
        .iter()
        .all(|c| !c.to_str().unwrap().contains("rosace_session")));
    let confirm = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        confirm.starts_with(&format!(
            "/gr/authentication?step=autologin&cypher={cypher}&returnurl=/gr/my-orders"
        )),
        "{confirm}"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_cyphers WHERE kind = 'autologin' AND used_at IS NULL")
            .await,
        1
    );
    // The confirmation page: localized, names the account, a form with the token.
    let (cookies, xsrf) = visit(&t, "").await;
    let res = t.get_with_cookie(&confirm, &cookies).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("data-testid=\"autologin-form\""));
    assert!(html.contains(&format!("Continuer en tant que {first_name}")));
    assert!(html.contains(&format!("value=\"{xsrf}\"")));
    let post = |body: String| {
        let t = &t;
        let cookies = cookies.clone();
        async move {
            t.client
                .post(t.url("/gr/authentication/form"))
                .header("cookie", cookies)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    // A form on another site has no token: refused.
    let res = post(format!(
        "step=autologin&cypher={cypher}&returnurl=%2Fgr%2Fmy-orders"
    ))
    .await;
    assert_eq!(res.status(), 403);
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);
    // Confirmed: signed in, to the return address.
    let res = post(format!(
        "_xsrf={xsrf}&step=autologin&cypher={cypher}&returnurl=%2Fgr%2Fmy-orders"
    ))
    .await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/gr/my-orders");
    let session = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .find_map(|c| {
            c.to_str()
                .unwrap()
                .strip_prefix("rosace_session=")
                .map(|r| r.split(';').next().unwrap().to_string())
        })
        .expect("a session cookie");
    assert!(session_alive(&t, &format!("rosace_session={session}")).await);
    // Used once: the link now shows the sign-in page.
    let res = t
        .get(&format!("/gr/authentication/autologin?cypher={cypher}"))
        .await;
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/gr/authentication?returnurl="));
    // A made-up cypher on the confirmation page shows no name and no form.
    let html = t
        .get_with_cookie("/gr/authentication?step=autologin&cypher=00ff", &cookies)
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("autologin-form"));
}

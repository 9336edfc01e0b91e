//! Security review M3: no password hash for requests that are refused anyway; registration,
//! recovery, activation and password update are throttled per client and per target email.
use serde_json::{json, Value};

use super::client_address::post_from;
use crate::helpers::{both, TestApp};
use app::platform::password::computed as hashes;
use server::middleware::client_ip::TrustedProxies;

fn trusted_loopback(c: &mut server::config::Config) {
    c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
}

fn registration(email: &str) -> Value {
    json!({"siteId": 1, "email": email, "password": "Velvet-Orchard-42", "civility": 2,
        "firstName": "Zoé", "lastName": "Durand", "birthDate": "15/08/1985", "cgv": true,
        "privacyPolicy": true})
}

async fn status_and_code(res: reqwest::Response) -> (u16, String) {
    let status = res.status().as_u16();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    (
        status,
        body["error_code"].as_str().unwrap_or("").to_string(),
    )
}

/// A login password longer than 256 bytes is refused as invalid input, with no hash
/// computed; 256 bytes is still checked.
async fn long_login_passwords_are_refused_unhashed(t: TestApp) {
    let xsrf = t.xsrf().await;
    let login = |pw: String| json!({"email": "demo@rosace.test", "password": pw, "siteId": 1});
    let before = hashes();
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        login("x".repeat(257)),
        &xsrf,
        None,
    )
    .await;
    assert_eq!(status_and_code(res).await, (400, "invalid".into()));
    assert_eq!(hashes(), before, "no hash for a refused password");
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        login("x".repeat(256)),
        &xsrf,
        None,
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 3);
    assert_eq!(hashes(), before + 1);
}

both!(
    long_login_passwords_are_refused_unhashed,
    long_login_passwords_are_refused_unhashed_on_sqlite,
    long_login_passwords_are_refused_unhashed_on_postgres,
);

/// Per client: the third registration from one address is refused. Per email: the third
/// registration naming one address is refused whoever sends it; a taken email costs no hash.
async fn registration_is_throttled(t: TestApp) {
    let xsrf = t.xsrf().await;
    let subscribe = |email: &str, client: &str| {
        let (t, xsrf, body, client) = (&t, &xsrf, registration(email), client.to_string());
        async move {
            let res = post_from(
                t,
                "/api/authentication/v1/subscribe",
                body,
                xsrf,
                Some(&client),
            );
            status_and_code(res.await).await
        }
    };
    assert_eq!(subscribe("first@example.com", "203.0.113.1").await.0, 201);
    assert_eq!(subscribe("second@example.com", "203.0.113.1").await.0, 201);
    assert_eq!(
        subscribe("third@example.com", "203.0.113.1").await,
        (429, "toomanyrequests".into()),
        "per client"
    );
    let before = hashes();
    assert_eq!(
        subscribe("first@example.com", "203.0.113.2").await,
        (400, "invalid".into()),
        "taken"
    );
    assert_eq!(hashes(), before, "a taken email costs no hash");
    assert_eq!(
        subscribe("first@example.com", "203.0.113.3").await,
        (429, "toomanyrequests".into()),
        "per email, from yet another address"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'third@example.com'")
            .await,
        0
    );
}

both!(
    registration_is_throttled,
    registration_is_throttled_on_sqlite,
    registration_is_throttled_on_postgres,
    |c| {
        trusted_loopback(c);
        c.settings.auth.register_rate_limit = 2;
        c.settings.auth.email_rate_limit = 2;
    },
);

/// Recovery mails to one address are limited whoever asks; other addresses are not.
async fn recovery_is_throttled_per_email(t: TestApp) {
    let xsrf = t.xsrf().await;
    let recover = |email: &str, client: &str| {
        let body = json!({"email": email, "siteId": 1});
        let (t, xsrf, client) = (&t, &xsrf, client.to_string());
        async move {
            let res = post_from(
                t,
                "/api/authentication/v1/password/recover",
                body,
                xsrf,
                Some(&client),
            );
            status_and_code(res.await).await
        }
    };
    assert_eq!(recover("demo@rosace.test", "203.0.113.1").await.0, 200);
    assert_eq!(recover("demo@rosace.test", "203.0.113.2").await.0, 200);
    assert_eq!(
        recover("demo@rosace.test", "203.0.113.3").await,
        (429, "toomanyrequests".into())
    );
    assert_eq!(recover("demo2@rosace.test", "203.0.113.3").await.0, 200);
    let mails = std::fs::read_dir(&t.app.settings.mail.outbox_dir)
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
        .filter(|m| m.contains("To: demo@rosace.test"))
        .count();
    assert_eq!(mails, 2);
}

both!(
    recovery_is_throttled_per_email,
    recovery_is_throttled_per_email_on_sqlite,
    recovery_is_throttled_per_email_on_postgres,
    |c| {
        trusted_loopback(c);
        c.settings.auth.email_rate_limit = 2;
    },
);

/// A made-up recovery cypher is refused before the new password is hashed; password
/// updates and activations are limited per client.
async fn cypher_guessing_costs_no_hash_and_is_throttled(t: TestApp) {
    let xsrf = t.xsrf().await;
    let update = json!({"siteId": 1, "cypher": "made-up", "memberId": 1,
        "newPassword": "Brand-New-Secret-7"});
    let before = hashes();
    for _ in 0..2 {
        let res = post_from(
            &t,
            "/api/authentication/v1/password/update",
            update.clone(),
            &xsrf,
            None,
        );
        assert_eq!(
            status_and_code(res.await).await,
            (400, "cypherinvalid".into())
        );
    }
    assert_eq!(hashes(), before, "no hash for a cypher that does not exist");
    let res = post_from(
        &t,
        "/api/authentication/v1/password/update",
        update,
        &xsrf,
        None,
    );
    assert_eq!(
        status_and_code(res.await).await,
        (429, "toomanyrequests".into())
    );

    let activate = json!({"siteId": 1, "cypher": "made-up"});
    for _ in 0..2 {
        let res = post_from(
            &t,
            "/api/authentication/v1/activate",
            activate.clone(),
            &xsrf,
            None,
        );
        assert_eq!(
            status_and_code(res.await).await,
            (400, "cypherinvalid".into())
        );
    }
    let res = post_from(&t, "/api/authentication/v1/activate", activate, &xsrf, None);
    assert_eq!(
        status_and_code(res.await).await,
        (429, "toomanyrequests".into())
    );
}

both!(
    cypher_guessing_costs_no_hash_and_is_throttled,
    cypher_guessing_costs_no_hash_and_is_throttled_on_sqlite,
    cypher_guessing_costs_no_hash_and_is_throttled_on_postgres,
    |c| c.settings.auth.login_rate_limit = 2,
);

//! Security review M2: the member-exists check is throttled per client, and the lockout
//! counts per account and client, so nobody can keep someone else's account locked.
use serde_json::{json, Value};

use super::client_address::post_from;
use crate::helpers::{both, TestApp};
use server::middleware::client_ip::TrustedProxies;

const ATTACKER: &str = "203.0.113.66";
const MEMBER: &str = "198.51.100.20";

async fn exists_from(t: &TestApp, email: &str, client: &str) -> reqwest::Response {
    t.client
        .get(t.url(&format!(
            "/api/authentication/v1/members/{email}/sites/1/exists"
        )))
        .header("x-forwarded-for", client)
        .send()
        .await
        .unwrap()
}

async fn login_from(t: &TestApp, xsrf: &str, password: &str, client: &str) -> Value {
    let body = json!({"email": "demo@rosace.test", "password": password, "siteId": 1});
    let res = post_from(t, "/api/authentication/v1/login", body, xsrf, Some(client)).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// Past the limit a client gets 429 from the REST check and the form's email step alike;
/// another client is not affected.
async fn exists_check_is_throttled_per_client(t: TestApp) {
    let limit = t.app.settings.auth.exists_rate_limit;
    for n in 0..limit {
        let email = format!("someone{n}@example.com");
        assert_eq!(
            exists_from(&t, &email, ATTACKER).await.status(),
            200,
            "check {n}"
        );
    }
    let res = exists_from(&t, "demo@rosace.test", ATTACKER).await;
    assert_eq!(res.status(), 429);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error_code"], "toomanyrequests", "{body}");
    // The same budget for the no-script form's email step.
    let xsrf = t.xsrf().await;
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("x-forwarded-for", ATTACKER)
        .form(&[
            ("_xsrf", xsrf.as_str()),
            ("step", "email"),
            ("email", "demo@rosace.test"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.contains("step=email") && location.contains("error=auth.error.too_many"),
        "{location}"
    );
    // Someone else still gets answers.
    assert_eq!(
        exists_from(&t, "demo@rosace.test", MEMBER).await.status(),
        400
    );
}

both!(
    exists_check_is_throttled_per_client,
    exists_check_is_throttled_per_client_on_sqlite,
    exists_check_is_throttled_per_client_on_postgres,
    |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        c.settings.auth.exists_rate_limit = 3;
    },
);

/// Wrong passwords from one address lock that address out of the account, not the member:
/// from their own address the right password still signs in.
async fn an_attacker_cannot_lock_the_member_out(t: TestApp) {
    let xsrf = t.xsrf().await;
    for attempt in 1..=2 {
        let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
        assert_eq!(r["result"], 3, "attempt {attempt}");
    }
    let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    assert_eq!(r["result"], 4, "the threshold locks this client out");
    let r = login_from(&t, &xsrf, server::demo::DEMO_PASSWORD, ATTACKER).await;
    assert_eq!(
        r["result"], 4,
        "even the right password, from the locked-out client"
    );
    let r = login_from(&t, &xsrf, server::demo::DEMO_PASSWORD, MEMBER).await;
    assert_eq!(r["result"], 1, "the member signs in from their own address");
}

both!(
    an_attacker_cannot_lock_the_member_out,
    an_attacker_cannot_lock_the_member_out_on_sqlite,
    an_attacker_cannot_lock_the_member_out_on_postgres,
    |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        c.settings.auth.lockout_threshold = 3;
    },
);

/// Once a lock has ended, its counter starts again: one more wrong password does not lock
/// the account again at once (it did when the count outlived the lock).
async fn an_ended_lock_starts_counting_again(t: TestApp) {
    let xsrf = t.xsrf().await;
    for _ in 0..3 {
        login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    }
    let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    assert_eq!(r["result"], 4);
    sqlx::query("UPDATE rate_limits SET expires_at = $1 WHERE bucket LIKE 'lock:%'")
        .bind(app::platform::state::now() - 1)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    assert_eq!(r["result"], 3, "one failure after the lock is one failure");
    let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    assert_eq!(r["result"], 3);
    let r = login_from(&t, &xsrf, "wrong-password", ATTACKER).await;
    assert_eq!(r["result"], 4, "the threshold again");
}

both!(
    an_ended_lock_starts_counting_again,
    an_ended_lock_starts_counting_again_on_sqlite,
    an_ended_lock_starts_counting_again_on_postgres,
    |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        c.settings.auth.lockout_threshold = 3;
    },
);

/// Review N8: wrong passwords from many addresses, each below its own lock, add up on the
/// account: at the ceiling, password sign-in pauses for every address (the member's too),
/// the member is emailed once, and a new password (what the email advises) ends the pause.
async fn failures_from_many_addresses_reach_the_account_ceiling(t: TestApp) {
    let xsrf = t.xsrf().await;
    let ceiling = t.app.settings.auth.account_failure_ceiling;
    let per_client = t.app.settings.auth.lockout_threshold;
    assert!(ceiling > per_client);
    let mails = || crate::account::mails_to(&t, "demo@rosace.test").len();
    let before = mails();
    // Each address stays one below its own lock.
    let mut tried = 0;
    let mut address = 0;
    let last = loop {
        address += 1;
        let client = format!("203.0.113.{address}");
        let mut r = Value::Null;
        for _ in 0..per_client - 1 {
            r = login_from(&t, &xsrf, "wrong-password", &client).await;
            tried += 1;
            if tried == ceiling {
                break;
            }
            assert_eq!(r["result"], 3, "failure {tried} from {client}");
        }
        if tried == ceiling {
            break r;
        }
    };
    assert_eq!(
        last["result"], 4,
        "the failure that reaches the ceiling pauses"
    );
    let r = login_from(&t, &xsrf, server::demo::DEMO_PASSWORD, MEMBER).await;
    assert_eq!(
        r["result"], 4,
        "paused for every address, the right password too"
    );
    assert_eq!(mails(), before + 1, "the member is told once");
    let sql = "SELECT COUNT(*) FROM auth_events WHERE kind = 'account_ceiling'";
    assert_eq!(t.count(sql).await, 1);
    // More tries while paused are neither checked nor mailed about.
    login_from(&t, &xsrf, "wrong-password", "198.51.100.99").await;
    assert_eq!(mails(), before + 1);
    // A new password by the recovery link (what the email advises) ends the pause.
    let member: i64 = sqlx::query_scalar(
        "SELECT id FROM members WHERE email = 'demo@rosace.test' AND site_id = 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let recover = json!({"email": "demo@rosace.test", "siteId": 1});
    let res = post_from(
        &t,
        "/api/authentication/v1/password/recover",
        recover,
        &xsrf,
        Some(MEMBER),
    )
    .await;
    assert_eq!(res.status(), 200);
    let cypher = super::query_param(&super::outbox_link(&t, "cypher="), "cypher").to_string();
    let update = json!({"siteId": 1, "cypher": cypher, "memberId": member, "newPassword": "Brand-New-Secret-7"});
    let res = post_from(
        &t,
        "/api/authentication/v1/password/update",
        update,
        &xsrf,
        Some(MEMBER),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body = json!({"email": "demo@rosace.test", "password": "Brand-New-Secret-7", "siteId": 1});
    let res = post_from(
        &t,
        "/api/authentication/v1/login",
        body,
        &xsrf,
        Some(MEMBER),
    )
    .await;
    let r: Value = res.json().await.unwrap();
    assert_eq!(r["result"], 1, "{r}");
}

both!(
    failures_from_many_addresses_reach_the_account_ceiling,
    account_ceiling_on_sqlite,
    account_ceiling_on_postgres,
    |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        c.settings.auth.lockout_threshold = 3;
        c.settings.auth.account_failure_ceiling = 7;
    },
);

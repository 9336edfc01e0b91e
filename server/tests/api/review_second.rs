//! Low findings of the second security review (N5-N9, M5-R), each checked through the real
//! server: what an attacker tried is refused or kept out of reach, and what the shop itself
//! does still works.
use reqwest::Method;
use serde_json::json;

use crate::helpers::cart::shopper;
use crate::helpers::logs::Logs;
use crate::helpers::{both, TestApp};

// ------------------------------------------------------------------ N7

/// Review N7: the access log keeps no bearer token and no email address from a path. The
/// voucher print link and the sign-in page's "is this email known" call are answered as
/// before; their log lines say `***` where the secret was.
async fn access_log_keeps_no_token_or_email(t: TestApp) {
    let (logs, _guard) = Logs::capture();
    let a = shopper(&t, 2).await;
    let (status, printed) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers/print",
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200, "{printed}");
    let url = printed["printUrl"].as_str().unwrap().to_string();
    let token = url.rsplit('/').next().unwrap().to_string();
    assert!(token.len() >= 16, "{url}");
    assert_eq!(t.get(&url).await.status(), 200);
    let email = "someone.typed-this@example.org";
    let exists = t
        .get(&format!(
            "/api/authentication/v1/members/{email}/sites/1/exists"
        ))
        .await;
    assert_eq!(exists.status(), 200);
    let text = logs.text();
    assert!(text.contains("path=/vouchers/print/***"), "{text}");
    assert!(
        text.contains("path=/api/authentication/v1/members/***/sites/1/exists"),
        "{text}"
    );
    assert!(!text.contains(&token), "the print token is in the log");
    assert!(
        !text.contains("someone.typed-this"),
        "the email is in the log"
    );
}

both!(
    access_log_keeps_no_token_or_email,
    access_log_masks_secrets_on_sqlite,
    access_log_masks_secrets_on_postgres
);

// ------------------------------------------------------------------ N5

/// Review N5: a social sign-in that ends in code 13 (or 12) leaves a ticket that only the
/// browser which started the sign-in can use. Someone who started it with their own
/// provider account and sends the link to another person gets nothing from it: the other
/// browser sees an empty step and cannot register (nor associate) with the ticket, through
/// the form or the REST call; the starting browser still can.
async fn a_social_ticket_stays_with_its_browser(t: TestApp) {
    use crate::helpers::cookie_value;
    use crate::social::{
        at_provider, get, location, member_cookie, param, post_form, start, visitor,
    };
    let attacker = visitor(&t).await;
    let authorize = start(&t, &attacker, "google").await;
    let back = at_provider(&t, &authorize, "attacker.n5@example.test").await;
    let next = location(&get(&t, &attacker, &back).await);
    assert!(
        next.starts_with("/gr/registration?step=socialregister&ticket="),
        "{next}"
    );
    let ticket = param(&next, "ticket");

    let victim = visitor(&t).await;
    let page = get(&t, &victim, &next).await.text().await.unwrap();
    assert!(
        !page.contains("attacker.n5@example.test"),
        "another browser sees the identity"
    );
    let fields = [
        ("ticket", ticket.as_str()),
        ("firstName", "Vic"),
        ("lastName", "Tim"),
        ("cgv", "1"),
        ("privacyPolicy", "1"),
    ];
    let res = post_form(&t, &victim, "/gr/authentication/social/register", &fields).await;
    assert_eq!(param(&location(&res), "error"), "auth.social.code.11");
    assert!(member_cookie(&res).is_none());
    let rest = t
        .client
        .post(t.url("/api/authentication/v1/thirdparty/subscribe"))
        .header("cookie", &victim.cookie)
        .header("X-XSRF-TOKEN", &victim.xsrf)
        .json(&json!({ "token": ticket, "firstName": "Vic", "lastName": "Tim", "cgv": true, "privacyPolicy": true }))
        .send()
        .await
        .unwrap();
    assert!(cookie_value(&rest, app::platform::session::COOKIE).is_none());
    let body: serde_json::Value = rest.json().await.unwrap();
    assert_eq!(body["result"], 11, "{body}");
    let rest = t
        .client
        .post(t.url("/api/authentication/v1/thirdparty/associate"))
        .header("cookie", &victim.cookie)
        .header("X-XSRF-TOKEN", &victim.xsrf)
        .json(&json!({ "token": ticket, "password": "whatever-1A" }))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = rest.json().await.unwrap();
    assert_eq!(body["result"], 11, "{body}");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE email = 'attacker.n5@example.test'")
            .await,
        0
    );

    // The browser that started it registers as before.
    let page = get(&t, &attacker, &next).await.text().await.unwrap();
    assert!(page.contains("attacker.n5@example.test"));
    let res = post_form(&t, &attacker, "/gr/authentication/social/register", &fields).await;
    assert!(member_cookie(&res).is_some(), "{}", location(&res));
}

crate::social::both_social!(
    a_social_ticket_stays_with_its_browser,
    social_ticket_bound_on_sqlite,
    social_ticket_bound_on_postgres
);

// ------------------------------------------------------------------ N6

/// Review N6: one client cannot fill the social sign-in requests' table: after
/// `STARTS_PER_WINDOW` starts in a window the next is refused (429, nothing stored), and
/// the scheduled purge takes expired requests and identities away.
async fn social_starts_are_limited_and_purged(t: TestApp) {
    use app::auth::social::rules::{STARTS_PER_WINDOW, STATE_TTL_SECS};
    let v = crate::social::visitor(&t).await;
    let start = || async {
        t.client
            .post(t.url("/api/authentication/v1/thirdparty/google/login"))
            .header("cookie", &v.cookie)
            .header("X-XSRF-TOKEN", &v.xsrf)
            .json(&json!({ "returnUrl": "/gr/cart" }))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    };
    // The limiter's windows are aligned to the clock: two windows at most are crossed.
    let mut refused = None;
    for n in 0..(2 * STARTS_PER_WINDOW + 1) {
        match start().await {
            200 => {}
            429 => {
                refused = Some(n);
                break;
            }
            other => panic!("start {n}: {other}"),
        }
    }
    let refused = refused.expect("a client's starts are limited");
    assert!(refused >= STARTS_PER_WINDOW, "{refused}");
    let stored = t.count("SELECT COUNT(*) FROM social_login_states").await;
    assert_eq!(stored, refused, "a refused start stores nothing");
    // Spent requests go with the purge once expired, not before.
    let now = app::platform::state::now();
    app::platform::retention::purge(&t.app.state.db, now)
        .await
        .unwrap();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM social_login_states").await,
        stored
    );
    app::platform::retention::purge(&t.app.state.db, now + STATE_TTL_SECS + 1)
        .await
        .unwrap();
    assert_eq!(t.count("SELECT COUNT(*) FROM social_login_states").await, 0);
}

crate::social::both_social!(
    social_starts_are_limited_and_purged,
    social_starts_limited_on_sqlite,
    social_starts_limited_on_postgres
);

/// Review N6: an anonymous page view with the experiments' consent may write the visitor's
/// assignment, but a visitor who never signed in and has not been seen for
/// `VISITOR_ASSIGNMENTS_KEPT_SECS` is purged; members' assignments stay.
async fn visitor_assignments_expire(t: TestApp) {
    use app::experiments::rules::ANON_ID_COOKIE;
    use app::platform::retention::VISITOR_ASSIGNMENTS_KEPT_SECS;
    const CONSENT: &str = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:1,C0005:0";
    for n in 0..5 {
        let id = format!("{n:032x}");
        let res = t
            .get_with_cookie("/?site=1", &format!("{CONSENT}; {ANON_ID_COOKIE}={id}"))
            .await;
        assert_eq!(res.status(), 200);
    }
    let member = t.member_session(1).await;
    assert_eq!(
        t.get_with_cookie("/?site=1", &format!("{CONSENT}; {member}"))
            .await
            .status(),
        200
    );
    // The exposures are written by a batching writer: wait for them.
    let anonymous = "SELECT COUNT(*) FROM experiment_assignments WHERE visitor LIKE 'a:%'";
    let members = "SELECT COUNT(*) FROM experiment_assignments WHERE visitor LIKE 'm:%'";
    for _ in 0..100 {
        if t.count(anonymous).await >= 5 && t.count(members).await >= 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (anon_rows, member_rows) = (t.count(anonymous).await, t.count(members).await);
    assert!(
        anon_rows >= 5 && member_rows >= 1,
        "{anon_rows} / {member_rows}"
    );
    let now = app::platform::state::now();
    app::platform::retention::purge(&t.app.state.db, now)
        .await
        .unwrap();
    assert_eq!(t.count(anonymous).await, anon_rows, "recent visitors stay");
    app::platform::retention::purge(&t.app.state.db, now + VISITOR_ASSIGNMENTS_KEPT_SECS + 1)
        .await
        .unwrap();
    assert_eq!(t.count(anonymous).await, 0, "long-gone visitors go");
    assert_eq!(
        t.count(members).await,
        member_rows,
        "members' assignments stay"
    );
}

both!(
    visitor_assignments_expire,
    visitor_assignments_expire_on_sqlite,
    visitor_assignments_expire_on_postgres
);

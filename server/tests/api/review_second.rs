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
/// the form or the REST call; the starting browser still can. The page cache is on, as in
/// a shop: the step's page is never a copy for the next browser.
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
    // The starting browser sees its step first (a copy of it would be what others get).
    let page = get(&t, &attacker, &next).await.text().await.unwrap();
    assert!(page.contains("attacker.n5@example.test"));

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

#[tokio::test]
async fn social_ticket_bound_on_sqlite() {
    let cache = |c: &mut server::config::Config| c.page_cache_ms = 60_000;
    let t = crate::social::social_app_with(crate::helpers::Backend::Sqlite, cache).await;
    a_social_ticket_stays_with_its_browser(t).await;
}

#[tokio::test]
async fn social_ticket_bound_on_postgres() {
    let cache = |c: &mut server::config::Config| c.page_cache_ms = 60_000;
    let t = crate::social::social_app_with(crate::helpers::Backend::Postgres, cache).await;
    a_social_ticket_stays_with_its_browser(t).await;
}

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

// ------------------------------------------------------------------ N2

const KB: i64 = 1024;

/// Posts a help message (to `path`: the contact or the answer call) with one PNG of
/// `padding` bytes past its header, as the help form's script sends it.
async fn post_help(
    t: &TestApp,
    who: &crate::helpers::cart::Shopper,
    path: &str,
    (subject_id, title, body): (&str, &str, &str),
    padding: usize,
) -> reqwest::Response {
    use reqwest::multipart::{Form, Part};
    let png = [crate::help::PNG, &vec![0u8; padding][..]].concat();
    let form = Form::new()
        .text("contactFrom", "Front")
        .text("subjectId", subject_id.to_string())
        .text("subjectTitle", title.to_string())
        .text("body", body.to_string())
        .part(
            "fileAttachments",
            Part::bytes(png)
                .file_name("photo.png")
                .mime_str("image/png")
                .unwrap(),
        );
    who.client
        .post(t.url(path))
        .header("cookie", &who.cookie)
        .header("X-XSRF-TOKEN", &who.xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// A help message with a 40 KB PNG.
async fn help_with_file(t: &TestApp, who: &crate::helpers::cart::Shopper) -> reqwest::Response {
    let message = (
        "other",
        "Une photo du colis",
        "Voici une photo du colis abîmé à la livraison.",
    );
    post_help(t, who, crate::help::CONTACT, message, 40 * 1024).await
}

/// A report of illegal content with a 40 KB PNG, from the test client's address.
async fn report_with_file(t: &TestApp) -> reqwest::Response {
    use reqwest::multipart::{Form, Part};
    let xsrf = t.xsrf().await;
    let png = [crate::help::PNG, &[0u8; 40 * 1024][..]].concat();
    let report = crate::dsa_form::report("legal@acme.example");
    let form = Form::new().text("payload", report.to_string()).part(
        "files",
        Part::bytes(png)
            .file_name("logo.png")
            .mime_str("image/png")
            .unwrap(),
    );
    t.client
        .post(t.url("/api/postsale/v1/help/dsacontactform"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("X-XSRF-TOKEN", &xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// The member buys one unit: add, then freeze and pay with the sandbox card.
async fn checkout_works(t: &TestApp, who: &crate::helpers::cart::Shopper) {
    let option = crate::helpers::cart::option_with_stock(t, 2, 10).await;
    let add = json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, body) = who
        .call(t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    crate::helpers::cart::freeze_and_pay(t, who).await;
}

/// Review N2: a member's files of the day fill their quota, and the next upload is refused
/// with its own localized message (413), storing nothing; the same message without a file
/// goes through, and the member can still buy. A client address has its own daily quota,
/// which a visitor's reports of illegal content count against; a refused upload costs
/// nothing.
async fn upload_quotas_refuse_files_not_orders(t: TestApp) {
    let a = shopper(&t, 2).await;
    let tickets = "SELECT COUNT(*) FROM help_tickets";
    let res = help_with_file(&t, &a).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let before = t.count(tickets).await;
    let res = help_with_file(&t, &a).await;
    assert_eq!(res.status(), 413);
    let err: serde_json::Value = res.json().await.unwrap();
    assert_eq!(err["error_code"], "upload_quota", "{err}");
    assert_eq!(err["error_description"], "help.errors.upload_quota");
    assert_eq!(t.count(tickets).await, before, "nothing stored");
    let (status, body) = a
        .call(
            &t,
            Method::POST,
            crate::help::CONTACT,
            Some(json!({ "contactFrom": "Front", "subjectId": "other", "subjectTitle": "Sans photo", "body": "Je renvoie mon message sans la photo." })),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    checkout_works(&t, &a).await;

    // The client's day: 40 KB (the member's first file) + 40 KB fit in 100 KB, 40 more not.
    let res = report_with_file(&t).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let res = report_with_file(&t).await;
    assert_eq!(res.status(), 413);
    let err: serde_json::Value = res.json().await.unwrap();
    assert_eq!(err["messageKey"], "dsaform.error.upload_quota", "{err}");
    assert_eq!(t.count("SELECT COUNT(*) FROM dsa_reports").await, 1);
}

both!(
    upload_quotas_refuse_files_not_orders,
    upload_quotas_on_sqlite,
    upload_quotas_on_postgres,
    |c: &mut server::config::Config| {
        c.settings.upload_quota.member_day_bytes = 64 * KB;
        c.settings.upload_quota.client_day_bytes = 100 * KB;
    }
);

/// Review N2: when the shop's storage is nearly full (on SQLite the disk under the
/// database, on PostgreSQL the configured cap), uploads are refused (507, their own
/// message) and orders keep working.
async fn a_full_storage_refuses_uploads_not_orders(t: TestApp) {
    let a = shopper(&t, 2).await;
    let res = help_with_file(&t, &a).await;
    assert_eq!(res.status(), 507);
    let err: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        err["error_description"], "help.errors.storage_full",
        "{err}"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM help_attachments").await, 0);
    checkout_works(&t, &a).await;
}

/// SQLite: more free space asked for than the disk under the database has.
#[tokio::test]
async fn full_disk_on_sqlite() {
    let t = crate::helpers::start_with(crate::helpers::Backend::Sqlite, |c| {
        c.settings.upload_quota.min_free_disk_bytes = i64::MAX / 4;
    })
    .await;
    a_full_storage_refuses_uploads_not_orders(t).await;
}

/// PostgreSQL, whose disk the shop cannot see: a cap below one file.
#[tokio::test]
async fn full_storage_cap_on_postgres() {
    let t = crate::helpers::start_with(crate::helpers::Backend::Postgres, |c| {
        c.settings.upload_quota.storage_cap_bytes = 10 * KB;
    })
    .await;
    a_full_storage_refuses_uploads_not_orders(t).await;
}

/// The cap on SQLite too, with the disk check's minimum off.
#[tokio::test]
async fn full_storage_cap_on_sqlite() {
    let t = crate::helpers::start_with(crate::helpers::Backend::Sqlite, |c| {
        c.settings.upload_quota.min_free_disk_bytes = 0;
        c.settings.upload_quota.storage_cap_bytes = 10 * KB;
    })
    .await;
    a_full_storage_refuses_uploads_not_orders(t).await;
}

/// Review N2: the files of a help answer wait a day for the member's rating, then go with
/// the purge.
async fn unrated_answer_files_are_purged(t: TestApp) {
    use app::platform::retention::{purge, UNRATED_ANSWER_FILES_KEPT_SECS};
    let a = shopper(&t, 2).await;
    let question = (
        "payment.voucher",
        "Retours – Remboursement",
        "Quand serai-je remboursé de mon retour ?",
    );
    let res = post_help(&t, &a, crate::help::ANSWER, question, 64).await;
    assert_eq!(res.status(), 200);
    let files = "SELECT COUNT(*) FROM help_evaluation_files";
    assert_eq!(t.count(files).await, 1);
    let now = app::platform::state::now();
    purge(&t.app.state.db, now).await.unwrap();
    assert_eq!(t.count(files).await, 1, "the rating may still come");
    purge(&t.app.state.db, now + UNRATED_ANSWER_FILES_KEPT_SECS + 1)
        .await
        .unwrap();
    assert_eq!(t.count(files).await, 0);
}

both!(
    unrated_answer_files_are_purged,
    unrated_answer_files_purged_on_sqlite,
    unrated_answer_files_purged_on_postgres
);

//! The message centre's read mark: opening a notification or a thread with a
//! GET reads nothing; "mark as read" is a POST form with the XSRF token (refused without
//! it), another member's id reads nothing (404 over REST, "not found" on the form), and
//! the member's own POST reads it and the header bell's count drops.
use reqwest::Method;
use serde_json::json;

use super::{message, support, CENTRE, CONTACT, UNREAD};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

async fn page(t: &TestApp, s: &Shopper, path: &str) -> (u16, String) {
    let res = s
        .client
        .get(t.url(path))
        .header("cookie", &s.cookie)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

async fn post_read(t: &TestApp, s: &Shopper, form: &[(&str, &str)]) -> (u16, String) {
    let res = s
        .client
        .post(t.url("/my-notifications/read"))
        .header("cookie", &s.cookie)
        .form(form)
        .send()
        .await
        .unwrap();
    let to = res
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string())
        .unwrap_or_default();
    (res.status().as_u16(), to)
}

async fn unread(t: &TestApp, s: &Shopper) -> i64 {
    s.call(t, Method::GET, UNREAD, None).await.1["unreadCount"]
        .as_i64()
        .unwrap()
}

async fn read_mark(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let (_, sent) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message("account.login", "Le lien ne vient pas.", None)),
        )
        .await;
    let ticket = sent["ticketId"].as_i64().unwrap();
    let (code, _, err) = support(&t, &["reply", &ticket.to_string(), "Renvoyé à l'instant."]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(unread(&t, &a).await, 1);
    let (_, centre) = a.call(&t, Method::GET, CENTRE, None).await;
    let nid = centre["notifications"][0]["id"].as_i64().unwrap();

    // Opening with GET (the notification, the thread) reads nothing; both offer the form.
    let (status, html) = page(&t, &a, &format!("/my-notifications?notification={nid}")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-testid=\"notification-opened\""),
        "{html}"
    );
    assert!(html.contains("action=\"/my-notifications/read\""), "{html}");
    assert!(html.contains(&format!("name=\"notificationId\" value=\"{nid}\"")));
    let (status, html) = page(&t, &a, &format!("/gr/my-notifications/?ticket={ticket}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("Renvoyé à l'instant."));
    assert!(html.contains(&format!("name=\"ticketId\" value=\"{ticket}\"")));
    assert_eq!(unread(&t, &a).await, 1, "a GET marks nothing read");
    let (_, html) = page(&t, &a, "/").await;
    assert!(
        html.contains("data-testid=\"bell-count\""),
        "the bell still counts it"
    );

    // Without the token: refused, still unread. JSON without its header too.
    let (status, _) = post_read(&t, &a, &[("notificationId", &nid.to_string())]).await;
    assert_eq!(status, 403);
    let (status, _) = post_read(
        &t,
        &a,
        &[("_xsrf", "forged"), ("notificationId", &nid.to_string())],
    )
    .await;
    assert_eq!(status, 403);
    let res = a
        .client
        .post(t.url(&format!("{CENTRE}/{nid}/read")))
        .header("cookie", &a.cookie)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
    assert_eq!(unread(&t, &a).await, 1);

    // Another member's notification and thread: 404 / "not found", nothing read.
    assert_eq!(
        b.call(&t, Method::POST, &format!("{CENTRE}/{nid}/read"), None)
            .await
            .0,
        404
    );
    let (status, to) = post_read(
        &t,
        &b,
        &[("_xsrf", &b.xsrf), ("notificationId", &nid.to_string())],
    )
    .await;
    assert_eq!(status, 303);
    assert!(to.contains("error=errors.not_found"), "{to}");
    let (_, to) = post_read(
        &t,
        &b,
        &[("_xsrf", &b.xsrf), ("ticketId", &ticket.to_string())],
    )
    .await;
    assert!(to.contains("error=errors.not_found"), "{to}");
    assert_eq!(unread(&t, &a).await, 1);

    // The member's own POST: read, back on the same view, the bell is empty.
    let (status, to) = post_read(
        &t,
        &a,
        &[("_xsrf", &a.xsrf), ("notificationId", &nid.to_string())],
    )
    .await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with(&format!(
            "/my-notifications?notification={nid}&notice=help.notice.read"
        )),
        "{to}"
    );
    assert_eq!(unread(&t, &a).await, 0);
    let (_, html) = page(&t, &a, "/").await;
    assert!(!html.contains("data-testid=\"bell-count\""), "read now");
    let (_, html) = page(&t, &a, &format!("/my-notifications?notification={nid}")).await;
    assert!(
        !html.contains("data-testid=\"mark-read\""),
        "nothing left to mark"
    );

    // A second answer, read from its thread's form.
    let (code, _, err) = support(&t, &["reply", &ticket.to_string(), "Et encore une fois."]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(unread(&t, &a).await, 1);
    let (_, to) = post_read(
        &t,
        &a,
        &[("_xsrf", &a.xsrf), ("ticketId", &ticket.to_string())],
    )
    .await;
    assert!(
        to.starts_with(&format!(
            "/my-notifications?ticket={ticket}&notice=help.notice.read"
        )),
        "{to}"
    );
    assert_eq!(unread(&t, &a).await, 0);
}
both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    read_mark,
    read_mark_on_sqlite,
    read_mark_on_postgres
);

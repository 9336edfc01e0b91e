//! The help pages as a browser without scripts gets them: the form, the answer with its
//! rating buttons, a bad rating becoming a ticket in the message centre, the thread opened
//! then marked read (POST), the header bell's unread count, chat, contact selector, /ps/errors.
use reqwest::multipart::Form;
use reqwest::Method;

use super::{order_of, support};
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

async fn post_form(t: &TestApp, s: &Shopper, path: &str, form: &[(&str, &str)]) -> String {
    let res = s
        .client
        .post(t.url(path))
        .header("cookie", &s.cookie)
        .form(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303, "{path}");
    res.headers()["location"].to_str().unwrap().to_string()
}

async fn help_pages_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let order = order_of(&t, a.member_id).await;

    // The form: reasons, sub-reasons grouped by reason, the member's order numbered from 1.
    let (status, html) = page(&t, &a, &format!("/postsales/{order}/helpform")).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"help-form\""), "{html}");
    assert!(html.contains("Retours et remboursements"));
    assert!(html.contains("<optgroup label=\"Ma commande\""));
    assert!(
        html.contains(&format!("value=\"{order}\" selected")),
        "the order of the path is chosen"
    );
    assert!(html.contains("1. #"), "options are numbered from 1");
    assert!(html.contains("target=\"_blank\" rel=\"noopener\""));
    assert!(html.contains("s'ouvre dans une nouvelle fenêtre"));

    // A question the articles answer: the answer shows, to be rated.
    let form = Form::new()
        .text("_xsrf", a.xsrf.clone())
        .text("reason", "returns")
        .text("subReason", "refund")
        .text("orderId", order.to_string())
        .text("body", "Quand serai-je remboursé de mon retour ?");
    let res = a
        .client
        .post(t.url("/helpform/send"))
        .header("cookie", &a.cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(to.starts_with("/helpform?evaluation="), "{to}");
    let (_, html) = page(&t, &a, &to).await;
    assert!(html.contains("data-testid=\"help-answer\""), "{html}");
    assert!(html.contains("Quand serai-je remboursé ?"));
    let evaluation = to
        .trim_start_matches("/helpform?evaluation=")
        .split('&')
        .next()
        .unwrap()
        .to_string();

    // Rated badly: a ticket, shown in the message centre.
    let to = post_form(
        &t,
        &a,
        "/helpform/feedback",
        &[
            ("_xsrf", &a.xsrf),
            ("evaluationId", &evaluation),
            ("satisfaction", "bad"),
        ],
    )
    .await;
    assert!(to.starts_with("/my-notifications?ticket="), "{to}");
    let ticket: i64 = to
        .trim_start_matches("/my-notifications?ticket=")
        .split('&')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let (_, html) = page(&t, &a, "/gr/my-notifications/").await;
    assert!(html.contains(&format!("?ticket={ticket}")), "{html}");
    assert!(html.contains("En cours"));

    // Support answers: the bell counts it, opening the thread reads it.
    let (code, _, err) = support(
        &t,
        &[
            "reply",
            &ticket.to_string(),
            "Votre remboursement part demain.",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (_, html) = page(&t, &a, "/").await;
    assert!(
        html.contains("aria-label=\"Messages non lus : 1\""),
        "the bell says it"
    );
    assert!(html.contains("data-testid=\"bell-count\""));
    let (_, html) = page(&t, &a, &format!("/my-notifications?ticket={ticket}")).await;
    assert!(html.contains("Votre remboursement part demain."));
    assert!(html.contains("data-author=\"support\""));
    let (_, html) = page(&t, &a, "/").await;
    assert!(
        html.contains("data-testid=\"bell-count\""),
        "opening reads nothing"
    );
    let to = post_form(
        &t,
        &a,
        "/my-notifications/read",
        &[("_xsrf", &a.xsrf), ("ticketId", &ticket.to_string())],
    )
    .await;
    assert!(to.contains("notice=help.notice.read"), "{to}");
    let (_, html) = page(&t, &a, "/").await;
    assert!(!html.contains("data-testid=\"bell-count\""), "read now");

    // The member answers in the thread without scripts.
    let to = post_form(
        &t,
        &a,
        "/my-notifications/reply",
        &[
            ("_xsrf", &a.xsrf),
            ("ticketId", &ticket.to_string()),
            ("body", "Merci beaucoup"),
        ],
    )
    .await;
    assert!(to.contains("notice=help.notice.reply_sent"), "{to}");

    // A message the articles do not answer goes straight to support.
    let form = Form::new()
        .text("_xsrf", a.xsrf.clone())
        .text("reason", "other")
        .text("body", "xqzv blorp wuggle frrrt zzkk");
    let res = a
        .client
        .post(t.url("/helpform/send"))
        .header("cookie", &a.cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(to.contains("notice=help.notice.sent"), "{to}");

    // Chat, contact selector, error page.
    let to = post_form(
        &t,
        &a,
        "/chat/send",
        &[
            ("_xsrf", &a.xsrf),
            ("reason", "order"),
            ("orderId", &order.to_string()),
            ("isPastOrder", "true"),
            ("body", "Bonjour"),
        ],
    )
    .await;
    assert!(
        to.starts_with(&format!(
            "/chat?reason=order&order={order}&isPastOrder=true"
        )),
        "{to}"
    );
    let (status, html) = page(&t, &a, &to).await;
    assert_eq!(status, 200);
    assert!(html.contains("ancienne commande"), "{html}");
    assert!(html.contains("Bonjour"));
    let (status, html) = page(&t, &a, "/postsales/contactselector").await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"choose-chat\""));
    assert!(html.contains("data-platform=\"WhatsApp\""));
    let (status, html) = page(&t, &a, "/ps/errors").await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"ps-error\""));
    assert_eq!(
        a.call(&t, Method::GET, super::UNREAD, None).await.1["unreadCount"],
        0
    );
}
both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    help_pages_without_scripts,
    the_help_pages_work_without_scripts_on_sqlite,
    the_help_pages_work_without_scripts_on_postgres
);

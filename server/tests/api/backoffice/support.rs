//! The support desk: a member's ticket in the queue by age and filters, its files as
//! downloads, an answer the member sees in the message centre (and by email), a saved
//! reply put in the answer field, assignment, close and reopen; a second operator acting
//! on a ticket that changed meanwhile is told and nothing is sent; an empty answer is
//! refused; roles.
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::Value;

use super::*;
use crate::account::mails_to;
use crate::help::{message, CENTRE, CONTACT, UNREAD};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

async fn ticket_with_file(t: &TestApp, s: &Shopper) -> i64 {
    let png = Part::bytes(crate::help::PNG.to_vec())
        .file_name("photo <svg>.png")
        .mime_str("image/png")
        .unwrap();
    let order = crate::help::order_of(t, s.member_id).await;
    let form = Form::new()
        .text("contactFrom", "Front")
        .text("subjectId", "order.damaged")
        .text("subjectTitle", "Ma commande – Article abîmé")
        .text("body", "Le vase est arrivé cassé, voici la photo.")
        .text("orderId", order.to_string())
        .part("files", png);
    let res = s
        .client
        .post(t.url(CONTACT))
        .header("cookie", &s.cookie)
        .header("X-XSRF-TOKEN", &s.xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["ticketId"]
        .as_i64()
        .unwrap()
}

/// The version field of a ticket page's forms.
fn version_of(html: &str) -> String {
    let start = html.find(r#"name="version" value=""#).expect("a version")
        + r#"name="version" value=""#.len();
    html[start..].split('"').next().unwrap().to_string()
}

async fn an_operator_answers_a_ticket(t: TestApp) {
    let member = shopper(&t, 2).await;
    let ticket = ticket_with_file(&t, &member).await;
    let (_, other) = member
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message("account.login", "Je ne reçois pas le lien.", None)),
        )
        .await;
    let other = other["ticketId"].as_i64().unwrap();

    // The queue: open tickets, oldest first; the filters narrow it.
    let care = sign_in(&t, CARE).await;
    let (status, queue) = care.get(&t, "/backoffice/support").await;
    assert_eq!(status, 200);
    let (a, b) = (
        queue
            .find(&format!(r#"<tr data-ticket="{ticket}">"#))
            .unwrap(),
        queue
            .find(&format!(r#"<tr data-ticket="{other}">"#))
            .unwrap(),
    );
    assert!(a < b, "the longest waiting first");
    let (_, orders) = care
        .get(&t, "/backoffice/support?reason=order&site=1")
        .await;
    assert!(
        orders.contains(&format!(r#"data-ticket="{ticket}""#))
            && !orders.contains(&format!(r#"data-ticket="{other}""#))
    );
    let (_, mine) = care.get(&t, "/backoffice/support?assignee=me").await;
    assert!(!mine.contains(&format!(r#"data-ticket="{ticket}""#)));

    // The ticket: thread and file (a download, never shown inline).
    let path = format!("/backoffice/support/{ticket}");
    let (_, page) = care.get(&t, &path).await;
    assert!(page.contains("Le vase est arrivé cassé"));
    let file_id = t
        .count(&format!("SELECT a.id FROM help_attachments a JOIN help_messages m ON m.id = a.message_id WHERE m.ticket_id = {ticket}"))
        .await;
    let file = t
        .get_with_cookie(&format!("{path}/files/{file_id}"), &care.cookie)
        .await;
    assert_eq!(file.status(), 200);
    assert_eq!(file.headers()["content-type"], "application/octet-stream");
    assert!(file.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment;"));
    let foreign = t
        .get_with_cookie(
            &format!("/backoffice/support/{other}/files/{file_id}"),
            &care.cookie,
        )
        .await;
    assert_eq!(foreign.status(), 404);

    // A saved reply in French, put in the answer field by a plain link.
    let (status, _, _) = care
        .post(
            &t,
            "/backoffice/support/replies",
            &[
                ("lang", "fr"),
                ("title", "Casse"),
                ("body", "Nous vous renvoyons l'article dès aujourd'hui."),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let (status, _, html) = care
        .post(
            &t,
            "/backoffice/support/replies",
            &[("lang", "xx"), ("title", "Casse"), ("body", "x")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Choose a language."));
    let reply = t
        .count("SELECT id FROM saved_replies WHERE title = 'Casse'")
        .await;
    let (_, page) = care.get(&t, &format!("{path}?reply={reply}")).await;
    assert!(
        page.contains("Nous vous renvoyons l&#x27;article")
            || page.contains("Nous vous renvoyons l'article")
    );
    let version = version_of(&page);

    // An empty answer is refused; nothing sent.
    let (status, _, _) = care
        .post(
            &t,
            &format!("{path}/act"),
            &[("action", "reply"), ("version", &version), ("text", "  ")],
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        member.call(&t, Method::GET, UNREAD, None).await.1["unreadCount"],
        0
    );

    // The member writes again meanwhile: the operator is told, nothing is sent, the text stays.
    let (status, _) = member
        .call(
            &t,
            Method::POST,
            &format!("/api/postsale/v1/help/tickets/{ticket}/messages"),
            Some(serde_json::json!({ "body": "Et la boîte aussi." })),
        )
        .await;
    assert_eq!(status, 201);
    let (status, _, html) = care
        .post(
            &t,
            &format!("{path}/act"),
            &[
                ("action", "reply"),
                ("version", &version),
                ("text", "Bonjour, nous renvoyons le vase."),
            ],
        )
        .await;
    assert_eq!(status, 409);
    assert!(
        html.contains("This ticket changed since you opened it")
            && html.contains("Bonjour, nous renvoyons le vase.")
    );
    assert!(html.contains("Et la boîte aussi."));
    assert_eq!(
        member.call(&t, Method::GET, UNREAD, None).await.1["unreadCount"],
        0
    );

    // Answered on the fresh version: the member's message centre, bell and email.
    let version = version_of(&html);
    let (status, location, _) = care
        .post(
            &t,
            &format!("{path}/act"),
            &[
                ("action", "reply"),
                ("version", &version),
                ("text", "Bonjour, nous renvoyons le vase."),
            ],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, format!("{path}?done=reply").as_str())
    );
    assert_eq!(
        member.call(&t, Method::GET, UNREAD, None).await.1["unreadCount"],
        1
    );
    let (_, centre) = member.call(&t, Method::GET, CENTRE, None).await;
    assert_eq!(centre["notifications"][0]["ticketId"], ticket);
    let (_, thread) = member
        .call(
            &t,
            Method::GET,
            &format!("/api/postsale/v1/help/tickets/{ticket}"),
            None,
        )
        .await;
    assert_eq!(thread["status"], "answered");
    assert_eq!(
        thread["messages"].as_array().unwrap().last().unwrap()["body"],
        "Bonjour, nous renvoyons le vase."
    );
    let email: String = sqlx::query_scalar("SELECT email FROM members WHERE id = $1")
        .bind(member.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(mails_to(&t, &email)
        .iter()
        .any(|m| m.contains("Bonjour, nous renvoyons le vase.")));

    // Assigned to oneself, closed, reopened: each on the version seen, each audited.
    let me = t
        .count(&format!("SELECT id FROM operators WHERE email = '{CARE}'"))
        .await
        .to_string();
    for (action, extra) in [("assign", me.as_str()), ("close", ""), ("reopen", "")] {
        let (_, page) = care.get(&t, &path).await;
        let version = version_of(&page);
        let (status, _, _) = care
            .post(
                &t,
                &format!("{path}/act"),
                &[
                    ("action", action),
                    ("version", &version),
                    ("assignee", extra),
                ],
            )
            .await;
        assert_eq!(status, 303, "{action}");
    }
    let (_, mine) = care.get(&t, "/backoffice/support?assignee=me").await;
    assert!(mine.contains(&format!(r#"data-ticket="{ticket}""#)));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM help_tickets WHERE id = {ticket} AND status = 'open'"
        ))
        .await,
        1
    );
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'ticket' AND object_id = '{ticket}'")).await,
        4
    );
    // A stale close is refused too.
    let (status, _, _) = care
        .post(
            &t,
            &format!("{path}/act"),
            &[("action", "close"), ("version", "0")],
        )
        .await;
    assert_eq!(status, 409);

    // Roles: moderators and merchandisers do not work tickets.
    for who in [MODERATOR, MERCH] {
        let desk = sign_in(&t, who).await;
        assert_eq!(desk.get(&t, "/backoffice/support").await.0, 403, "{who}");
        assert_eq!(desk.get(&t, &path).await.0, 403, "{who}");
        let (status, _, _) = desk
            .post(
                &t,
                &format!("{path}/act"),
                &[("action", "close"), ("version", "0")],
            )
            .await;
        assert_eq!(status, 403, "{who}");
    }
}
both!(
    an_operator_answers_a_ticket,
    support_desk_on_sqlite,
    support_desk_on_postgres
);

/// The ticket and notice queues show fifty at a time, oldest first, with links to the
/// next and previous pages; an unreadable page number is the first page.
async fn queues_page_through(t: TestApp) {
    let member = shopper(&t, 2).await.member_id;
    let pool = &t.app.state.db.pool;
    for i in 1..=55 {
        sqlx::query(&format!(
            "INSERT INTO help_tickets (member_id, site_id, subject_id, subject_title, channel, status, created_at, updated_at)
             VALUES ({member}, 1, 'payment', 'Paging {i}', 'web', 'open', {i}, {i})"
        ))
        .execute(pool)
        .await
        .unwrap();
        sqlx::query(&format!(
            "INSERT INTO dsa_reports (site_id, made_as, concerns, description, last_name, denomination,
               copyright_reg_number, copyright_report_number, reg_office, email, agreement_seller_partner, client_key, created_at)
             VALUES (1, 1, 'HATRED', 'Paging {i}', 'Durand', '', '', '', '', 'p{i}@example.com', 0, 'k', {i})"
        ))
        .execute(pool)
        .await
        .unwrap();
    }
    let ids = |table: &str| {
        format!("SELECT id FROM {table} WHERE created_at BETWEEN 1 AND 55 ORDER BY created_at")
    };
    let tickets: Vec<i64> = sqlx::query_scalar(&ids("help_tickets"))
        .fetch_all(pool)
        .await
        .unwrap();
    let notices: Vec<i64> = sqlx::query_scalar(&ids("dsa_reports"))
        .fetch_all(pool)
        .await
        .unwrap();

    let care = sign_in(&t, CARE).await;
    let moderator = sign_in(&t, MODERATOR).await;
    for (who, queue, attr, rows) in [
        (
            &care,
            "/backoffice/support?status=open",
            "data-ticket",
            &tickets,
        ),
        (
            &moderator,
            "/backoffice/moderation?state=",
            "data-notice",
            &notices,
        ),
    ] {
        let row = |id: i64| format!(r#"<tr {attr}="{id}">"#);
        for first_page in [
            queue.to_string(),
            format!("{queue}&page=abc"),
            format!("{queue}&page=-3"),
        ] {
            let (status, html) = who.get(&t, &first_page).await;
            assert_eq!(status, 200, "{first_page}");
            assert!(
                html.contains(&row(rows[0])) && html.contains(&row(rows[49])),
                "{first_page}"
            );
            assert!(!html.contains(&row(rows[50])), "{first_page}");
            assert!(
                html.contains(r#"rel="next""#) && !html.contains(r#"rel="prev""#),
                "{first_page}"
            );
        }
        let (_, second) = who.get(&t, &format!("{queue}&page=2")).await;
        assert!(
            second.contains(&row(rows[50])) && second.contains(&row(rows[54])),
            "{queue}"
        );
        assert!(!second.contains(&row(rows[49])), "{queue}");
        assert!(second.contains(r#"rel="prev""#), "{queue}");
    }
}
both!(
    queues_page_through,
    queue_paging_on_sqlite,
    queue_paging_on_postgres
);

//! The help centre over HTTP on SQLite and PostgreSQL: contact messages as JSON
//! and multipart (files told by their first bytes, size limits with their own keys),
//! automatic answers and their rating (a bad one becomes a ticket), the message centre's
//! notifications and unread count, support replies through the real `server support`
//! command (notification, email in the outbox), and another member's ids answering 404.
mod before_body;
mod choices;
mod files;
mod pages;
mod read;

use std::process::Command;

use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

pub const CONTACT: &str = "/api/postsale/v1/help/contact";
pub const ANSWER: &str = "/api/postsale/v1/help/answer";
pub const CENTRE: &str = "/api/postsale/v1/notifications";
pub const UNREAD: &str = "/api/postsale/v1/notifications/unread-count";

pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR";

/// A paid order of the member, as checkout leaves it.
pub async fn order_of(t: &TestApp, member_id: i64) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount,
                             shipping, loyalty, total, currency, payment_reference, created_at, updated_at)
         VALUES ($1, 1, $2, 'validated', 'fs', 4990, 0, 0, 0, 4990, 'EUR', 'pay', 1700000000, 1700000000)
         RETURNING id",
    )
    .bind(member_id)
    .bind(format!("help-{:08x}", rand::random::<u32>()))
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

pub fn message(subject: &str, body: &str, order: Option<i64>) -> Value {
    json!({
        "contactFrom": "Front",
        "subjectId": subject,
        "subjectTitle": "Ma commande – Délai de livraison",
        "body": body,
        "operationCode": null,
        "orderId": order,
    })
}

async fn multipart(t: &TestApp, s: &Shopper, form: Form) -> (u16, Value) {
    let res = s
        .client
        .post(t.url(CONTACT))
        .header("cookie", &s.cookie)
        .header("X-XSRF-TOKEN", &s.xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn fields(order: i64) -> Form {
    Form::new()
        .text("contactFrom", "Front")
        .text("subjectId", "order.damaged")
        .text("subjectTitle", "Ma commande – Article abîmé")
        .text("body", "Le vase est arrivé cassé, voici la photo.")
        .text("orderId", order.to_string())
}

fn file(bytes: Vec<u8>, name: &str, mime: &str) -> Part {
    Part::bytes(bytes)
        .file_name(name.to_string())
        .mime_str(mime)
        .unwrap()
}

async fn contact_json_and_multipart(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let order = order_of(&t, a.member_id).await;
    let theirs = order_of(&t, b.member_id).await;

    // JSON: the spec's payload becomes a ticket with the member's message.
    let (status, sent) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message(
                "order.delivery",
                "Ma commande n'est toujours pas arrivée.",
                Some(order),
            )),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["messageHasBeenSent"], true);
    let ticket = sent["ticketId"].as_i64().unwrap();
    let (status, thread) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/postsale/v1/help/tickets/{ticket}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(thread["status"], "open");
    assert_eq!(thread["orderId"], order);
    assert_eq!(thread["messages"][0]["author"], "member");

    // A member with no order may still write about ordering: the form offers no order to
    // choose, so none is asked for. (With orders, one is: below.)
    let newcomer = shopper(&t, 2).await;
    let (status, sent) = newcomer
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message(
                "order.delivery",
                "Je n'ai pas encore commandé : livrez-vous à Lyon ?",
                None,
            )),
        )
        .await;
    assert_eq!(status, 201, "{sent}");

    // Faults are named per field; nothing is stored.
    let before = t.count("SELECT COUNT(*) FROM help_tickets").await;
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message("order", "court", None)),
        )
        .await;
    assert_eq!(status, 400);
    let names: Vec<&str> = err["fieldErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["subReasonId", "orderId", "body"]);
    assert_eq!(err["fieldErrors"][1]["messageKey"], "help.errors.order");
    // Another member's order is not found.
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message(
                "order.delivery",
                "Ma commande n'est toujours pas arrivée.",
                Some(theirs),
            )),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(t.count("SELECT COUNT(*) FROM help_tickets").await, before);

    // Multipart with a photo: the file is listed in the thread.
    let (status, sent) = multipart(
        &t,
        &a,
        fields(order).part(
            "fileAttachments",
            file(PNG.to_vec(), "vase.png", "image/png"),
        ),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let ticket = sent["ticketId"].as_i64().unwrap();
    let (_, thread) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/postsale/v1/help/tickets/{ticket}"),
            None,
        )
        .await;
    assert_eq!(thread["messages"][0]["attachments"][0]["name"], "vase.png");
    assert_eq!(
        thread["messages"][0]["attachments"][0]["contentType"],
        "image/png"
    );

    // A program named .png is refused by its first bytes.
    let (status, err) = multipart(
        &t,
        &a,
        fields(order).part(
            "fileAttachments",
            file(b"MZ\x90\x00\x03".to_vec(), "photo.png", "image/png"),
        ),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["error_code"], "file_type");
    assert_eq!(err["error_description"], "help.errors.file_type");
    // One file past 4 MB: 413 with its own key.
    let mut big = PNG.to_vec();
    big.resize(4 * 1024 * 1024 + 10, 0);
    let (status, err) = multipart(
        &t,
        &a,
        fields(order).part("fileAttachments", file(big, "big.png", "image/png")),
    )
    .await;
    assert_eq!(status, 413);
    assert_eq!(err["error_description"], "help.errors.file_size");
    // Four files: too many.
    let mut form = fields(order);
    for i in 0..4 {
        form = form.part(
            "fileAttachments",
            file(PNG.to_vec(), &format!("{i}.png"), "image/png"),
        );
    }
    let (status, err) = multipart(&t, &a, form).await;
    assert_eq!(status, 400);
    assert_eq!(err["error_description"], "help.errors.file_count");
    assert_eq!(t.count("SELECT COUNT(*) FROM help_attachments").await, 1);
}
both!(
    contact_json_and_multipart,
    contact_on_sqlite,
    contact_on_postgres
);

async fn answers_and_feedback(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let order = order_of(&t, a.member_id).await;
    // A question the articles answer (site 1, French), about an order.
    let (status, found) = a
        .call(
            &t,
            Method::POST,
            ANSWER,
            Some(message(
                "returns.refund",
                "Quand serai-je remboursé de mon retour ?",
                Some(order),
            )),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["answer"]["articleId"], "refunds");
    assert!(found["answer"]["body"]
        .as_str()
        .unwrap()
        .contains("14 jours"));
    let evaluation = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_evaluations WHERE article_id = 'refunds' AND satisfaction IS NULL").await,
        1
    );
    // Gibberish finds nothing: an empty answer.
    let (status, none) = a
        .call(
            &t,
            Method::POST,
            ANSWER,
            Some(message("other", "xqzv blorp wuggle frrrt zzkk", None)),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(none, json!({ "answer": null }));

    // Another member cannot rate it.
    let path = format!("{ANSWER}/{evaluation}");
    let (status, _) = b
        .call(
            &t,
            Method::POST,
            &path,
            Some(json!({ "satisfaction": "bad", "evaluationId": evaluation })),
        )
        .await;
    assert_eq!(status, 404);
    // A bad rating sends the stored message as a ticket, once.
    let (status, rated) = a
        .call(
            &t,
            Method::POST,
            &path,
            Some(json!({ "satisfaction": "bad", "evaluationId": evaluation })),
        )
        .await;
    assert_eq!(status, 200, "{rated}");
    assert_eq!(rated["messageHasBeenSent"], true);
    let ticket = rated["ticketId"].as_i64().unwrap();
    let (_, again) = a
        .call(
            &t,
            Method::POST,
            &path,
            Some(json!({ "satisfaction": "bad", "evaluationId": evaluation })),
        )
        .await;
    assert_eq!(again["ticketId"], ticket);
    let (_, centre) = a.call(&t, Method::GET, CENTRE, None).await;
    assert_eq!(centre["tickets"].as_array().unwrap().len(), 1);
    assert_eq!(centre["tickets"][0]["id"], ticket);
    assert_eq!(centre["tickets"][0]["status"], "open");
    assert_eq!(
        centre["tickets"][0]["orderId"], order,
        "the ticket keeps the order"
    );
    let (_, thread) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/postsale/v1/help/tickets/{ticket}"),
            None,
        )
        .await;
    assert_eq!(
        thread["messages"][0]["body"],
        "Quand serai-je remboursé de mon retour ?"
    );

    // A good rating closes the matter: no ticket.
    let (_, found) = a
        .call(
            &t,
            Method::POST,
            ANSWER,
            Some(message(
                "payment.invoice",
                "Comment télécharger ma facture ?",
                None,
            )),
        )
        .await;
    assert_eq!(found["answer"]["articleId"], "invoices");
    let ev = found["answer"]["evaluationId"].as_str().unwrap();
    let (status, rated) = a
        .call(
            &t,
            Method::POST,
            &format!("{ANSWER}/{ev}"),
            Some(json!({ "satisfaction": "good", "evaluationId": ev })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(rated["ticketId"], Value::Null);
    assert_eq!(t.count("SELECT COUNT(*) FROM help_tickets").await, 1);
    // An unknown evaluation is not found.
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            &format!("{ANSWER}/nope"),
            Some(json!({ "satisfaction": "bad" })),
        )
        .await;
    assert_eq!(status, 404);
}
both!(answers_and_feedback, answers_on_sqlite, answers_on_postgres);

/// `server support <args>` as support runs it, on the test shop's database.
pub fn support(t: &TestApp, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_server"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", &t.app.config.database_url)
        .env("ROSACE_DATA_DIR", &t.app.config.data_dir)
        .env("ROSACE_PUBLIC_ORIGIN", "http://shop.test")
        .env("RUST_LOG", "warn")
        .arg("support")
        .args(args)
        .output()
        .expect("run the server binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn outbox(t: &TestApp) -> Vec<String> {
    let dir = std::path::Path::new(&t.app.config.data_dir).join("outbox");
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                .collect()
        })
        .unwrap_or_default()
}

async fn support_replies(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let (_, sent) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message(
                "account.login",
                "Je ne reçois pas le lien de connexion.",
                None,
            )),
        )
        .await;
    let ticket = sent["ticketId"].as_i64().unwrap();
    let (_, count) = a.call(&t, Method::GET, UNREAD, None).await;
    assert_eq!(count["unreadCount"], 0);

    let (code, out, err) = support(&t, &["list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("#{ticket}\topen")), "{out}");
    let (code, out, err) = support(
        &t,
        &[
            "reply",
            &ticket.to_string(),
            "Bonjour, le lien vient de vous être renvoyé.",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("ticket {ticket}: answered")), "{out}");
    let (code, _, err) = support(&t, &["reply", "999999", "Bonjour"]);
    assert_eq!(code, 1);
    assert!(err.contains("no ticket 999999"), "{err}");

    // The member sees it: unread count, notification, thread, email.
    let (_, count) = a.call(&t, Method::GET, UNREAD, None).await;
    assert_eq!(count["unreadCount"], 1);
    let (_, centre) = a.call(&t, Method::GET, CENTRE, None).await;
    let n = &centre["notifications"][0];
    assert_eq!(n["kind"], "ticket");
    assert_eq!(n["ticketId"], ticket);
    assert_eq!(n["read"], false);
    assert_eq!(centre["tickets"][0]["status"], "answered");
    let mails = outbox(&t);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].contains("le lien vient de vous"), "{}", mails[0]);
    assert!(
        mails[0].contains(&format!("my-notifications?ticket={ticket}")),
        "{}",
        mails[0]
    );

    // Another member reaches none of it.
    let thread_path = format!("/api/postsale/v1/help/tickets/{ticket}");
    let nid = n["id"].as_i64().unwrap();
    assert_eq!(b.call(&t, Method::GET, &thread_path, None).await.0, 404);
    assert_eq!(
        b.call(&t, Method::POST, &format!("{CENTRE}/{nid}/read"), None)
            .await
            .0,
        404
    );
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            &format!("{thread_path}/messages"),
            Some(json!({ "body": "hi" }))
        )
        .await
        .0,
        404
    );
    assert_eq!(
        b.call(&t, Method::GET, UNREAD, None).await.1["unreadCount"],
        0
    );

    // Reading it: 0 unread. The member answers; the thread reopens.
    let (status, left) = a
        .call(&t, Method::POST, &format!("{CENTRE}/{nid}/read"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(left["unreadCount"], 0);
    let (status, thread) = a
        .call(
            &t,
            Method::POST,
            &format!("{thread_path}/messages"),
            Some(json!({ "body": "Merci, reçu !" })),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(thread["status"], "open");
    assert_eq!(thread["messages"].as_array().unwrap().len(), 3);
    assert_eq!(thread["messages"][1]["author"], "support");
}
both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    support_replies,
    support_on_sqlite,
    support_on_postgres
);

async fn chat_threads(t: TestApp) {
    let a = shopper(&t, 2).await;
    let order = order_of(&t, a.member_id).await;
    let chat = "/api/postsale/v1/help/chat";
    let (status, first) = a
        .call(
            &t,
            Method::POST,
            chat,
            Some(json!({ "reason": "order", "orderId": order, "body": "Bonjour ?" })),
        )
        .await;
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["channel"], "chat");
    let (_, second) = a
        .call(
            &t,
            Method::POST,
            chat,
            Some(json!({ "reason": "order", "orderId": order, "body": "Encore moi" })),
        )
        .await;
    assert_eq!(second["id"], first["id"], "the same thread continues");
    assert_eq!(second["messages"].as_array().unwrap().len(), 2);
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            chat,
            Some(json!({ "reason": "nope", "body": "Bonjour" })),
        )
        .await;
    assert_eq!(status, 400);
}
both!(chat_threads, chat_on_sqlite, chat_on_postgres);

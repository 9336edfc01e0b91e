//! The help form's sale (`operationCode`) and `contactFrom`, and a site that takes no
//! tickets (site 73, Luxembourg), on SQLite and PostgreSQL:
//! - the form offers the sales of the member's orders; a message about one keeps its
//!   operation code with the ticket (straight, and through a "not helpful" rating); a sale
//!   the member never bought from, or a code that names no sale, is refused (400 on the
//!   field `operationCode`, `help.errors.sale`) and nothing is stored: the form never
//!   offers it, and a ticket must not point support at a sale the member has nothing to
//!   do with (sales are public, so a 400 rather than a 404);
//! - `contactFrom` other than `Front` is refused (400, `help.errors.contact_from`), nothing
//!   stored;
//! - on site 73 the contact call answers its refusal, the form without scripts leads to the
//!   extra text, and a bad rating makes no ticket but shows the extra text.
use reqwest::multipart::Form;
use reqwest::Method;
use serde_json::{json, Value};

use super::{message, order_of, ANSWER, CONTACT};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

/// Gives the order a line of `sale_id` (as checkout writes it).
async fn line_of_sale(t: &TestApp, order_id: i64, sale_id: i64) {
    sqlx::query(
        "INSERT INTO order_items (order_id, option_id, product_id, sale_id, name, option_label, quantity, unit_price)
         VALUES ($1, $2, 1, $3, 'Vase', 'Bleu', 1, 4990)",
    )
    .bind(order_id)
    .bind(sale_id * 10 + order_id % 10)
    .bind(sale_id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
}

/// Two sales of the demo catalogue: (the member's, another's, the member's sale's name).
async fn two_sales(t: &TestApp) -> (i64, i64, String) {
    let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM sales ORDER BY id LIMIT 2")
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
    (rows[0].0, rows[1].0, rows[0].1.clone())
}

async fn page(t: &TestApp, s: &Shopper, path: &str) -> String {
    let res = s
        .client
        .get(t.url(path))
        .header("cookie", &s.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{path}");
    res.text().await.unwrap()
}

async fn ticket_code(t: &TestApp, ticket: i64) -> Option<String> {
    sqlx::query_scalar("SELECT operation_code FROM help_tickets WHERE id = $1")
        .bind(ticket)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// The opening tag that holds `needle` (e.g. a `data-testid`).
fn tag_of<'a>(html: &'a str, needle: &str) -> &'a str {
    let at = html
        .find(needle)
        .unwrap_or_else(|| panic!("no {needle} in the page"));
    let start = html[..at].rfind('<').unwrap();
    let end = at + html[at..].find('>').unwrap();
    &html[start..=end]
}

fn with_sale(mut m: Value, code: &str) -> Value {
    m["operationCode"] = json!(code);
    m
}

fn field_errors(err: &Value) -> Vec<(String, String)> {
    err["fieldErrors"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f["messageKey"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn sale_and_contact_from(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let (mine, theirs, name) = two_sales(&t).await;
    let order = order_of(&t, a.member_id).await;
    line_of_sale(&t, order, mine).await;
    let other = order_of(&t, b.member_id).await;
    line_of_sale(&t, other, theirs).await;

    // The form offers the member's sale (not the other member's), by its id.
    let html = page(&t, &a, "/helpform").await;
    assert!(tag_of(&html, "id=\"help-sale\"").contains("name=\"operationCode\""));
    assert!(
        html.contains(&format!("<option value=\"{mine}\">")),
        "{}",
        tag_of(&html, "id=\"help-sale\"")
    );
    assert!(!html.contains(&format!("<option value=\"{theirs}\">")));
    let label: String = name
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == ' ')
        .collect();
    assert!(html.contains(label.trim()), "the sale's name: {label}");

    // The chat link says whether the page's order is a past one (from its status), on the
    // order's help form and on the order's own page.
    let past = |html: &str, yes: bool| {
        let tail = format!("order={order}&amp;isPastOrder={yes}");
        html.contains(&tail) || html.contains(&tail.replace("&amp;", "&"))
    };
    let html = page(&t, &a, &format!("/postsales/{order}/helpform")).await;
    assert!(
        past(&html, false),
        "validated: not past: {}",
        tag_of(&html, "help-chat-link")
    );
    sqlx::query("UPDATE orders SET status = 'received' WHERE id = $1")
        .bind(order)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let html = page(&t, &a, &format!("/postsales/{order}/helpform")).await;
    assert!(
        past(&html, true),
        "received: past: {}",
        tag_of(&html, "help-chat-link")
    );
    let html = page(&t, &a, &format!("/details/{order}")).await;
    assert!(tag_of(&html, "data-testid=\"order-chat\"").contains("target=\"_blank\""));
    assert!(html.contains("target=\"_blank\""));
    assert!(past(&html, true), "{}", tag_of(&html, "order-chat"));

    // A message about the sale: the ticket keeps its operation code.
    let body = "Le vase de cette vente est arrivé fêlé.";
    let (status, sent) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(with_sale(
                message("order.damaged", body, Some(order)),
                &mine.to_string(),
            )),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    let ticket = sent["ticketId"].as_i64().unwrap();
    assert_eq!(ticket_code(&t, ticket).await, Some(mine.to_string()));

    // Through an answer rated "not helpful": the ticket keeps it too.
    let (status, found) = a
        .call(
            &t,
            Method::POST,
            ANSWER,
            Some(with_sale(
                message("payment.invoice", "Comment télécharger ma facture ?", None),
                &mine.to_string(),
            )),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    let ev = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, rated) = a
        .call(
            &t,
            Method::POST,
            &format!("{ANSWER}/{ev}"),
            Some(json!({ "satisfaction": "bad", "evaluationId": ev })),
        )
        .await;
    assert_eq!(status, 200, "{rated}");
    let rated_ticket = rated["ticketId"].as_i64().unwrap();
    assert_eq!(ticket_code(&t, rated_ticket).await, Some(mine.to_string()));

    // A sale the member never bought from, or no sale at all: refused on the field, on
    // both calls, and nothing stored.
    let tickets = t.count("SELECT COUNT(*) FROM help_tickets").await;
    let evaluations = t.count("SELECT COUNT(*) FROM help_evaluations").await;
    for code in [theirs.to_string(), "999999999".into(), "SUMMER".into()] {
        for path in [CONTACT, ANSWER] {
            let (status, err) = a
                .call(
                    &t,
                    Method::POST,
                    path,
                    Some(with_sale(
                        message("order.damaged", body, Some(order)),
                        &code,
                    )),
                )
                .await;
            assert_eq!(status, 400, "{path} {code}: {err}");
            assert_eq!(err["error_code"], "invalid_message");
            assert_eq!(
                field_errors(&err),
                [("operationCode".to_string(), "help.errors.sale".to_string())],
                "{path} {code}"
            );
        }
    }
    // An empty code is no sale: accepted, stored as none.
    let (status, sent) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(with_sale(message("order.damaged", body, Some(order)), "")),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(
        ticket_code(&t, sent["ticketId"].as_i64().unwrap()).await,
        None
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_tickets").await,
        tickets + 1
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_evaluations").await,
        evaluations
    );

    // contactFrom: `Front` only; anything else (or nothing) is a localized 400.
    for from in [json!("Back"), json!("front"), json!(""), Value::Null] {
        let mut m = message("order.damaged", body, Some(order));
        if from.is_null() {
            m.as_object_mut().unwrap().remove("contactFrom");
        } else {
            m["contactFrom"] = from.clone();
        }
        let (status, err) = a.call(&t, Method::POST, CONTACT, Some(m)).await;
        assert_eq!(status, 400, "{from}: {err}");
        assert_eq!(err["error_description"], "help.errors.form");
        assert_eq!(
            field_errors(&err),
            [(
                "contactFrom".to_string(),
                "help.errors.contact_from".to_string()
            )],
            "{from}"
        );
    }
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_tickets").await,
        tickets + 1
    );
    // A title or code with a line break or a terminal escape would forge a mail header or
    // a line of the support terminal: refused by the title's field, nothing stored.
    for (field, value) in [
        ("subjectTitle", "Ma commande\r\nBcc: tous@example.com"),
        ("subjectTitle", "Ma commande \u{1b}[2J\u{1b}[31mURGENT"),
        ("subjectTitle", "Ma commande\u{85}"),
        ("operationCode", "ETE\n2019"),
    ] {
        let mut m = message("order.damaged", body, Some(order));
        m[field] = json!(value);
        let (status, err) = a.call(&t, Method::POST, CONTACT, Some(m)).await;
        assert_eq!(status, 400, "{value:?}: {err}");
        assert_eq!(
            field_errors(&err),
            [("subjectTitle".to_string(), "help.errors.form".to_string())],
            "{value:?}"
        );
    }
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_tickets").await,
        tickets + 1
    );
    // The message key exists in every language.
    for lang in ["fr", "de", "es", "it", "nl"] {
        for key in ["help.errors.contact_from", "help.errors.sale"] {
            assert_ne!(app::site::i18n::t(lang, key), key, "{lang} {key}");
        }
    }

    // Without scripts: another member's sale comes back to the form with the sale's error.
    let form = Form::new()
        .text("_xsrf", a.xsrf.clone())
        .text("contactFrom", "Front")
        .text("reason", "order")
        .text("subReason", "damaged")
        .text("operationCode", theirs.to_string())
        .text("orderId", order.to_string())
        .text("body", body);
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
    assert!(to.contains("fields=operationCode"), "{to}");
    assert!(to.contains(&format!("sale={theirs}")), "{to}");
    // The message comes back in the form from its draft cookie, never in the address.
    assert!(to.contains("retry=1") && !to.contains("vase"), "{to}");
    let draft = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("rosace_help_form="))
        .expect("the refused message's draft")
        .to_string();
    assert!(
        draft.contains("HttpOnly") && draft.contains("Path=/helpform;"),
        "{draft}"
    );
    let with_draft = Shopper {
        member_id: a.member_id,
        cookie: format!("{}; {}", a.cookie, draft.split(';').next().unwrap()),
        xsrf: a.xsrf.clone(),
        client: a.client.clone(),
    };
    let html = page(&t, &with_draft, &to).await;
    assert!(
        html.contains(&format!(">{body}</textarea>")),
        "the message typed is back"
    );
    let error = tag_of(&html, "id=\"help-operationCode-error\"");
    assert!(
        !error.contains(" hidden"),
        "the sale's error shows: {error}"
    );
    assert!(tag_of(&html, "id=\"help-sale\"").contains("aria-invalid=\"true\""));
    // Said once, above the fields: the page's own error banner stays hidden.
    assert!(!tag_of(&html, "data-form-error").contains(" hidden"));
    assert!(
        tag_of(&html, "data-testid=\"help-error\"").contains(" hidden"),
        "the form's error said twice"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_tickets").await,
        tickets + 1
    );
}
both!(
    sale_and_contact_from,
    sale_and_contact_from_on_sqlite,
    sale_and_contact_from_on_postgres
);

/// Site 73 (Luxembourg) takes no tickets from the form.
async fn no_tickets_on_site_73(t: TestApp) {
    // Accounts belong to one site: a member of site 73, browsing it (site cookie).
    let mut a = shopper(&t, 2).await;
    sqlx::query("UPDATE members SET site_id = 73 WHERE id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    a.cookie.push_str("; site=73");
    // The contact call answers its refusal; nothing stored.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            CONTACT,
            Some(message(
                "payment.invoice",
                "Je voudrais parler à quelqu'un de ma facture.",
                None,
            )),
        )
        .await;
    assert_eq!(status, 403, "{err}");
    assert_eq!(err["error_code"], "tickets_closed");
    assert_eq!(err["error_description"], "help.errors.tickets_closed");
    assert_eq!(t.count("SELECT COUNT(*) FROM help_tickets").await, 0);

    // Without scripts: a message no article answers leads to the extra text.
    let form = Form::new()
        .text("_xsrf", a.xsrf.clone())
        .text("contactFrom", "Front")
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
    assert_eq!(res.status().as_u16(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(to.starts_with("/helpform?extra=1"), "{to}");
    let html = page(&t, &a, &to).await;
    let extra = tag_of(&html, "data-testid=\"help-extra\"");
    assert!(
        !extra.contains(" hidden"),
        "the extra text is shown: {extra}"
    );
    assert!(html.contains("data-tickets=\"false\""));
    assert!(html.contains("tel:+35220000000"), "the site's phone");
    let html = page(&t, &a, "/helpform").await;
    assert!(
        tag_of(&html, "data-testid=\"help-extra\"").contains(" hidden"),
        "hidden until then"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM help_tickets").await, 0);

    // An answer rated "not helpful": recorded, no ticket, the extra text instead.
    let ask = || message("payment.invoice", "Comment télécharger ma facture ?", None);
    let (status, found) = a.call(&t, Method::POST, ANSWER, Some(ask())).await;
    assert_eq!(status, 200, "{found}");
    let ev = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    for _ in 0..2 {
        let (status, rated) = a
            .call(
                &t,
                Method::POST,
                &format!("{ANSWER}/{ev}"),
                Some(json!({ "satisfaction": "bad", "evaluationId": ev })),
            )
            .await;
        assert_eq!(status, 200, "{rated}");
        assert_eq!(rated["ticketId"], Value::Null);
        assert_eq!(rated["messageHasBeenSent"], false);
        assert_eq!(rated["displayExtraText"], true, "again: the same outcome");
    }
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_evaluations WHERE satisfaction = 'bad' AND ticket_id IS NULL")
            .await,
        1
    );
    // The same without scripts: back to the form's extra text.
    let (_, found) = a.call(&t, Method::POST, ANSWER, Some(ask())).await;
    let ev = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    let res = a
        .client
        .post(t.url("/helpform/feedback"))
        .header("cookie", &a.cookie)
        .form(&[
            ("_xsrf", a.xsrf.as_str()),
            ("evaluationId", ev.as_str()),
            ("satisfaction", "bad"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(to.starts_with("/helpform?extra=1"), "{to}");
    assert_eq!(t.count("SELECT COUNT(*) FROM help_tickets").await, 0);

    // Site 1 still makes a ticket of a bad rating (the rule is the site's).
    let a = shopper(&t, 2).await;
    let (_, found) = a.call(&t, Method::POST, ANSWER, Some(ask())).await;
    let ev = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, rated) = a
        .call(
            &t,
            Method::POST,
            &format!("{ANSWER}/{ev}"),
            Some(json!({ "satisfaction": "bad", "evaluationId": ev })),
        )
        .await;
    assert!(rated["ticketId"].as_i64().is_some(), "{rated}");
    assert_eq!(rated["displayExtraText"], false);
}
both!(
    no_tickets_on_site_73,
    no_tickets_on_site_73_on_sqlite,
    no_tickets_on_site_73_on_postgres
);

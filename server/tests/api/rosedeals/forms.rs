//! The rose-deals forms without scripts (Post/Redirect/Get, multipart as a browser sends
//! them): refund with a bad then a good IBAN (the page then shows the message), a second
//! refund, another member's basket, a stale token, the retry, and the contact message
//! without values, with a PDF and with a file of the wrong type.
use super::{buy, deal_option, GOOD_IBAN};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

/// Posts a form as a browser without scripts would: multipart, the token in `_xsrf`, no
/// header. The status and the `Location` it leads to.
async fn post_form(
    t: &TestApp,
    s: &Shopper,
    path: &str,
    texts: &[(&str, &str)],
    files: &[(&str, &str, &str, Vec<u8>)],
) -> (u16, String) {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in texts {
        form = form.text(name.to_string(), value.to_string());
    }
    for (name, file, mime, bytes) in files {
        let part = reqwest::multipart::Part::bytes(bytes.clone())
            .file_name(file.to_string())
            .mime_str(mime)
            .unwrap();
        form = form.part(name.to_string(), part);
    }
    let res = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(t.url(path))
        .header("cookie", &s.cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let to = res
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, to)
}

async fn page(t: &TestApp, s: &Shopper, path: &str) -> String {
    s.client
        .get(t.url(path))
        .header("cookie", &s.cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

fn fr(key: &str) -> String {
    app::site::i18n::t("fr", key)
}

fn refund_fields<'a>(xsrf: &'a str, iban: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("_xsrf", xsrf),
        ("firstName", "Marie"),
        ("lastName", "Curie"),
        ("details", "1 rue de la Paix"),
        ("zipCode", "75002"),
        ("city", "Paris"),
        ("country", "FR"),
        ("iban", iban),
        ("content", "Je n'en ai plus besoin"),
        ("currentPassword", crate::helpers::cart::SHOPPER_PASSWORD),
    ]
}

async fn refund_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let opt = deal_option(&t, 2, 10).await;
    let order = buy(&t, &a, opt, 2).await;
    let path = format!("/rosedeals/forms/refund/{order}");

    // A stale token: 403, nothing happens.
    let (status, _) = post_form(&t, &a, &path, &refund_fields("nope", GOOD_IBAN), &[]).await;
    assert_eq!(status, 403);

    // A bad IBAN: back to the form (`retry=1`: filled from the draft cookie, see
    // end2end/tests/rosedeals.spec.ts), the message in the form and on its field.
    let bad = "FR15 2004 1010 0505 0001 3M02 606";
    let (status, to) = post_form(&t, &a, &path, &refund_fields(&a.xsrf, bad), &[]).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with(&format!(
            "/rosedeals/refund?retry=1&basketId={order}&form=refund&error=rosedeals.errors.invalid_iban&field=iban"
        )),
        "{to}"
    );
    let html = page(&t, &a, &to).await;
    let message = fr("rosedeals.errors.invalid_iban");
    assert!(
        html.matches(&message.replace('\'', "&#x27;")).count() >= 2
            || html.matches(&message).count() >= 2,
        "the message in the form and on the IBAN field"
    );
    assert!(html.contains("aria-invalid=\"true\""));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM orders WHERE id = {order} AND status = 'refund_in_progress'"
        ))
        .await,
        0
    );

    // Another member's basket: not theirs to refund.
    let (status, to) = post_form(&t, &b, &path, &refund_fields(&b.xsrf, GOOD_IBAN), &[]).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with("/rosedeals/ongoing?error=errors.not_found"),
        "{to}"
    );

    // The right IBAN: the result page with the amount.
    let (status, to) = post_form(&t, &a, &path, &refund_fields(&a.xsrf, GOOD_IBAN), &[]).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with(&format!("/rosedeals/refund-result?basketId={order}")),
        "{to}"
    );
    let html = page(&t, &a, &to).await;
    assert!(html.contains("data-testid=\"refund-amount\""));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM orders WHERE id = {order} AND status = 'refund_in_progress'"
        ))
        .await,
        1
    );

    // Posted again: refunded once, the refusal says so.
    let (_, to) = post_form(&t, &a, &path, &refund_fields(&a.xsrf, GOOD_IBAN), &[]).await;
    assert!(
        to.contains("error=rosedeals.errors.already_refunded"),
        "{to}"
    );
    let html = page(&t, &a, &to).await;
    assert!(
        html.contains(&fr("rosedeals.errors.already_refunded").replace('\'', "&#x27;"))
            || html.contains(&fr("rosedeals.errors.already_refunded"))
    );

    // A made-up key in the address shows nothing.
    let html = page(
        &t,
        &a,
        &format!("/rosedeals/refund?basketId={order}&form=refund&error=<b>x</b>"),
    )
    .await;
    assert!(!html.contains("<b>x</b>"));
}

both!(
    refund_without_scripts,
    refund_form_on_sqlite,
    refund_form_on_postgres
);

async fn retry_and_contact_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 3, 10).await;
    let order = buy(&t, &a, opt, 1).await;
    let code: String = sqlx::query_scalar("SELECT code FROM rosedeal_vouchers WHERE order_id = $1")
        .bind(order)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();

    // Retry without a voucher chosen: nothing to re-issue.
    let path = format!("/rosedeals/forms/retry/{order}");
    let (status, to) = post_form(&t, &a, &path, &[("_xsrf", &a.xsrf)], &[]).await;
    assert_eq!(status, 303);
    assert!(to.contains("form=retry&error="), "{to}");
    // The voucher chosen (a checkbox: the part repeated): a new code, the old one void.
    let texts = [
        ("_xsrf", a.xsrf.as_str()),
        ("vouchers", code.as_str()),
        ("firstName", "Marie"),
        ("lastName", "Curie"),
        ("city", "Paris"),
        ("country", "FR"),
    ];
    let (status, to) = post_form(&t, &a, &path, &texts, &[]).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with("/rosedeals/ongoing?notice=rosedeals.retry.done"),
        "{to}"
    );
    let html = page(&t, &a, &to).await;
    assert!(
        html.contains(&fr("rosedeals.retry.done").replace('\'', "&#x27;"))
            || html.contains(&fr("rosedeals.retry.done"))
    );
    let active: Vec<String> = sqlx::query_scalar(
        "SELECT code FROM rosedeal_vouchers WHERE order_id = $1 AND status = 'active'",
    )
    .bind(order)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(active.len(), 1);
    assert_ne!(active[0], code);
    let code = active[0].clone();

    // Contact without a profile: "Missing values", back to the form.
    let contact = "/rosedeals/forms/contact";
    let base = [
        ("_xsrf", a.xsrf.as_str()),
        ("subject", "Code refusé"),
        ("message", "Le magasin refuse mon code"),
        ("vouchers", code.as_str()),
    ];
    let (status, to) = post_form(&t, &a, contact, &base, &[]).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with("/rosedeals/contact-form?error=rosedeals.errors.missing_values"),
        "{to}"
    );
    // With a profile, a PDF and an empty file input: sent, the file attached.
    let mut full: Vec<(&str, &str)> = base.to_vec();
    full.extend([
        ("firstName", "Marie"),
        ("lastName", "Curie"),
        ("city", "Paris"),
        ("country", "FR"),
    ]);
    let pdf = b"%PDF-1.4\n%test\n".to_vec();
    let files = [
        ("attachments", "ticket.pdf", "application/pdf", pdf),
        ("attachments", "", "application/octet-stream", vec![]),
    ];
    let before = t.count("SELECT COUNT(*) FROM rosedeal_messages").await;
    let (status, to) = post_form(&t, &a, contact, &full, &files).await;
    assert_eq!(status, 303);
    assert!(
        to.starts_with("/rosedeals/mail?notice=rosedeals.contact.attached"),
        "{to}"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM rosedeal_messages").await,
        before + 1
    );
    // A file that is not what it says: the message is sent, the file refused, both said.
    let files = [(
        "attachments",
        "x.pdf",
        "application/pdf",
        b"MZ not a pdf".to_vec(),
    )];
    let (_, to) = post_form(&t, &a, contact, &full, &files).await;
    assert!(
        to.starts_with(
            "/rosedeals/contact-form?notice=rosedeals.contact.sent&error=dsaform.error.file_type"
        ),
        "{to}"
    );
    let html = page(&t, &a, &to).await;
    for key in ["rosedeals.contact.sent", "dsaform.error.file_type"] {
        let text = fr(key);
        assert!(
            html.contains(&text) || html.contains(&text.replace('\'', "&#x27;")),
            "{key} shown"
        );
    }
    // A stale token: 403.
    let (status, _) = post_form(&t, &a, contact, &[("_xsrf", "nope")], &[]).await;
    assert_eq!(status, 403);
}

both!(
    retry_and_contact_without_scripts,
    retry_contact_form_on_sqlite,
    retry_contact_form_on_postgres
);

//! The contact message ("Missing values" without a profile or vouchers) and its
//! attachments (rmi), checked by type (magic bytes) and size as the DSA report's.
use reqwest::Method;
use serde_json::json;

use super::{buy, deal_option, multipart, API};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn contact(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 5, 10).await;
    let order_id = buy(&t, &a, opt, 1).await;
    let (_, order) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    let code = order["vouchers"][0]["code"].as_str().unwrap().to_string();
    let profile =
        json!({ "city": "Paris", "country": "FR", "firstName": "Marie", "lastName": "Curie" });
    let msg = |vouchers: serde_json::Value, address: serde_json::Value| json!({ "message": "Le code est refusé", "subject": "Code", "vouchers": vouchers, "address": address });
    let path = format!("{API}/messages");
    for body in [
        msg(json!([code]), serde_json::Value::Null),
        msg(json!([]), profile.clone()),
        msg(json!([code]), json!({})),
    ] {
        let (status, err) = a.call(&t, Method::POST, &path, Some(body)).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some("missing_values")),
            "{err}"
        );
        assert_eq!(err["message"], "Missing values");
    }
    let (status, _) = a.call(&t, Method::POST, &path, Some(json!("nope"))).await;
    assert_eq!(status, 400);
    // Someone else's voucher code.
    let b = shopper(&t, 2).await;
    let (status, _) = b
        .call(
            &t,
            Method::POST,
            &path,
            Some(msg(json!([code]), profile.clone())),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(t.count("SELECT COUNT(*) FROM rosedeal_messages").await, 0);

    let (status, sent) = a
        .call(&t, Method::POST, &path, Some(msg(json!([code]), profile)))
        .await;
    assert_eq!(status, 201, "{sent}");
    let request_id = sent["requestId"].as_str().unwrap().to_string();
    let rmi = format!("{API}/rmi/{request_id}");

    let pdf = b"%PDF-1.7\n1 0 obj\n".to_vec();
    let png = b"\x89PNG\r\n\x1a\n0000".to_vec();
    // Wrong type by its bytes (a text file named .pdf), and too large.
    let (status, err) = multipart(
        &t,
        &a,
        &rmi,
        &[],
        &[(
            "attachments",
            "x.pdf",
            "application/pdf",
            b"MZ\x90\x00".to_vec(),
        )],
    )
    .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("invalid_attachment")),
        "{err}"
    );
    assert_eq!(err["error_description"], "dsaform.error.file_type");
    let (status, err) = multipart(
        &t,
        &a,
        &rmi,
        &[],
        &[("attachments", "x.txt", "text/plain", b"hello".to_vec())],
    )
    .await;
    assert_eq!(
        (status, err["error_description"].as_str()),
        (400, Some("dsaform.error.file_type"))
    );
    let mut big = pdf.clone();
    big.resize(app::model::dsa::DSA_MAX_FILE_BYTES + 10, b'a');
    let (status, err) = multipart(
        &t,
        &a,
        &rmi,
        &[],
        &[("attachments", "big.pdf", "application/pdf", big)],
    )
    .await;
    assert_eq!(
        (status, err["error_description"].as_str()),
        (400, Some("dsaform.error.file_size"))
    );
    let four: Vec<_> = (0..4)
        .map(|i| {
            (
                "attachments",
                if i % 2 == 0 { "a.pdf" } else { "b.png" },
                if i % 2 == 0 {
                    "application/pdf"
                } else {
                    "image/png"
                },
                if i % 2 == 0 { pdf.clone() } else { png.clone() },
            )
        })
        .collect();
    let (status, err) = multipart(&t, &a, &rmi, &[], &four).await;
    assert_eq!(
        (status, err["error_description"].as_str()),
        (400, Some("dsaform.error.file_count"))
    );
    let (status, _) = multipart(&t, &a, &rmi, &[], &[]).await;
    assert_eq!(status, 400);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM rosedeal_attachments").await,
        0
    );
    // Another member's request, an unknown one.
    let two = [
        ("attachments", "a.pdf", "application/pdf", pdf.clone()),
        ("attachments", "b.png", "image/png", png.clone()),
    ];
    assert_eq!(multipart(&t, &b, &rmi, &[], &two).await.0, 404);
    assert_eq!(
        multipart(&t, &a, &format!("{API}/rmi/{}", "0".repeat(32)), &[], &two)
            .await
            .0,
        404
    );

    let (status, ok) =
        multipart(&t, &a, &rmi, &[("message", "voici le ticket".into())], &two).await;
    assert_eq!(status, 201, "{ok}");
    assert_eq!(ok["count"], 2);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM rosedeal_attachments").await,
        2
    );
}

both!(contact, contact_on_sqlite, contact_on_postgres);

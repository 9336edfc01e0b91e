//! Help files: a question the articles answered keeps its files, which go with the ticket
//! of a "not helpful" rating; an attachment downloads for its owner only, as an attachment
//! with its stored type and nosniff; the answer call's rate limit (429, localized).
use reqwest::multipart::{Form, Part};
use reqwest::Method;

use super::{ANSWER, PNG};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn files_follow_the_question(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let png = [PNG, &[0u8; 64][..]].concat();
    let form = Form::new()
        .text("contactFrom", "Front")
        .text("subjectId", "payment.voucher")
        .text("subjectTitle", "Retours – Remboursement")
        .text("body", "Quand serai-je remboursé de mon retour ?")
        .part(
            "fileAttachments",
            Part::bytes(png.clone())
                .file_name("photo.png")
                .mime_str("image/png")
                .unwrap(),
        );
    let res = a
        .client
        .post(t.url(ANSWER))
        .header("cookie", &a.cookie)
        .header("X-XSRF-TOKEN", &a.xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let found: serde_json::Value = res.json().await.unwrap();
    let ev = found["answer"]["evaluationId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_evaluation_files").await,
        1
    );
    let (status, rated) = a
        .call(
            &t,
            Method::POST,
            &format!("{ANSWER}/{ev}"),
            Some(serde_json::json!({ "satisfaction": "bad" })),
        )
        .await;
    assert_eq!(status, 200, "{rated}");
    let ticket = rated["ticketId"].as_i64().unwrap();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM help_evaluation_files").await,
        0
    );
    let id: i64 = sqlx::query_scalar(
        "SELECT a.id FROM help_attachments a JOIN help_messages m ON m.id = a.message_id WHERE m.ticket_id = $1",
    )
    .bind(ticket)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let path = format!("/api/postsale/v1/help/attachments/{id}");
    let res = a
        .client
        .get(t.url(&path))
        .header("cookie", &a.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h["content-type"], "image/png");
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert!(h["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"photo.png\""));
    assert_eq!(res.bytes().await.unwrap().to_vec(), png);
    // Someone else: 404; nobody signed in: refused.
    let res = b
        .client
        .get(t.url(&path))
        .header("cookie", &b.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let res = reqwest::Client::new()
        .get(t.url(&path))
        .send()
        .await
        .unwrap();
    assert!(
        res.status() == 401 || res.status() == 404,
        "{}",
        res.status()
    );
}

both!(
    files_follow_the_question,
    files_follow_the_question_on_sqlite,
    files_follow_the_question_on_postgres
);

async fn answer_rate_limit(t: TestApp) {
    let a = shopper(&t, 2).await;
    let msg = super::message("other", "xqzv blorp wuggle frrrt zzkk", None);
    let (limit, _) = app::help::rules::ANSWER_RATE_LIMIT;
    for _ in 0..limit {
        assert_eq!(
            a.call(&t, Method::POST, ANSWER, Some(msg.clone())).await.0,
            200
        );
    }
    let (status, err) = a.call(&t, Method::POST, ANSWER, Some(msg)).await;
    assert_eq!(status, 429, "{err}");
    assert_eq!(err["error_code"], "too_many_requests");
    assert_eq!(err["error_description"], "help.errors.too_many", "{err}");
}

both!(
    answer_rate_limit,
    answer_rate_limit_on_sqlite,
    answer_rate_limit_on_postgres
);

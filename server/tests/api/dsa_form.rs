//! The report-illegal-content endpoint on SQLite and PostgreSQL: CSRF, validation,
//! storage with files, and the per-client rate limit.
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use crate::helpers::{both, start, Backend, TestApp};

pub fn report(email: &str) -> Value {
    json!({
        "siteId": 1,
        "saleId": 1001,
        "productId": 100101,
        "selectedMadeAs": 3,
        "selectedConcerns": ["COPYRIGHT_TRADEMARK", "HATRED"],
        "description": "The product page copies our registered trademark logo.",
        "lastName": "",
        "denomination": "ACME SA",
        "copyrightRegNumber": "EUTM-018000001",
        "copyrightReportNumber": "",
        "selectedRegOffice": "Belgique",
        "email": email,
        "agreementSellerPartner": true,
        "isNotificationSubmitChecked": true
    })
}

async fn post(t: &TestApp, form: Form, xsrf: Option<&str>) -> reqwest::Response {
    let mut req = t
        .client
        .post(t.url("/api/postsale/v1/help/dsacontactform"))
        .multipart(form);
    if let Some(token) = xsrf {
        req = req
            .header("cookie", crate::helpers::xsrf_cookie(token))
            .header("X-XSRF-TOKEN", token);
    }
    req.send().await.unwrap()
}

fn form(body: &Value) -> Form {
    Form::new().text("payload", body.to_string())
}

async fn dsa_flow(t: TestApp) {
    let xsrf = t.xsrf().await;
    let xsrf = xsrf.as_str();
    let reports = || t.count("SELECT COUNT(*) FROM dsa_reports");

    // No XSRF token: refused, nothing stored.
    let res = post(&t, form(&report("legal@acme.example")), None).await;
    assert_eq!(res.status(), 403);
    // Token in the header that does not match the cookie: refused too.
    let res = t
        .client
        .post(t.url("/api/postsale/v1/help/dsacontactform"))
        .header("cookie", crate::helpers::xsrf_cookie(xsrf))
        .header("X-XSRF-TOKEN", "forged")
        .multipart(form(&report("legal@acme.example")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(reports().await, 0);

    // A bad email: 400 with the field error, nothing stored.
    let res = post(&t, form(&report("legal@acme")), Some(xsrf)).await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["fieldErrors"][0]["field"], "email");
    assert_eq!(body["fieldErrors"][0]["messageKey"], "dsaform.error.email");
    assert_eq!(reports().await, 0);

    // A valid report with a PDF attachment: 201, stored with its file.
    let pdf = Part::bytes(b"%PDF-1.4\n% proof\n".to_vec())
        .file_name("proof.pdf")
        .mime_str("application/pdf")
        .unwrap();
    let res = post(
        &t,
        form(&report("legal@acme.example")).part("files", pdf),
        Some(xsrf),
    )
    .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["isSubmitted"], true);
    let id = body["id"].as_i64().unwrap();
    assert_eq!(reports().await, 1);
    let (concerns, email): (String, String) =
        sqlx::query_as("SELECT concerns, email FROM dsa_reports WHERE id = $1")
            .bind(id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(concerns, "COPYRIGHT_TRADEMARK,HATRED");
    assert_eq!(email, "legal@acme.example");
    assert_eq!(t.count("SELECT COUNT(*) FROM dsa_report_files").await, 1);

    // Past the limit (2 per window in tests, every attempt counts): 429, nothing stored.
    let res = post(&t, form(&report("legal@acme.example")), Some(xsrf)).await;
    assert_eq!(res.status(), 429);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["messageKey"], "dsaform.message.security");
    assert_eq!(reports().await, 1);
}

both!(dsa_flow, dsa_report_on_sqlite, dsa_report_on_postgres);

#[tokio::test]
async fn dsa_refuses_disguised_files_and_garbage_bodies() {
    let t = start(Backend::Sqlite).await;
    let xsrf = t.xsrf().await;
    let xsrf = xsrf.as_str();
    let exe = Part::bytes(b"MZ\x90\x00\x03".to_vec())
        .file_name("invoice.pdf")
        .mime_str("application/pdf")
        .unwrap();
    let res = post(&t, form(&report("a@b.co")).part("files", exe), Some(xsrf)).await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["fieldErrors"][0]["messageKey"],
        "dsaform.error.file_type"
    );
    let res = post(&t, Form::new().text("payload", "{not json"), Some(xsrf)).await;
    assert_eq!(res.status(), 400);
    assert_eq!(t.count("SELECT COUNT(*) FROM dsa_reports").await, 0);
    // A well-formed token that we did not sign is refused.
    let forged = format!("{}.{}", "a".repeat(32), "b".repeat(64));
    let res = post(&t, form(&report("a@b.co")), Some(&forged)).await;
    assert_eq!(res.status(), 403);
}

//! Personal data: read, jobs, saved, and every kind of bad input refused with nothing stored.
use reqwest::Method;
use serde_json::{json, Value};

use super::{field_keys, member, row, A};
use crate::helpers::{both, TestApp};

fn profile(first: &str, last: &str, gender: &str, birth: &str, phone: &str) -> Value {
    json!({ "firstName": first, "lastName": last, "gender": gender, "birthDate": birth, "phone": phone })
}

async fn personal_data(t: TestApp) {
    let m = member(&t, 1).await;
    let (status, me) = m.call(&t, Method::GET, A, None).await;
    assert_eq!(status, 200);
    assert_eq!(me["memberId"], m.id);
    assert_eq!(me["gender"], "Female");
    assert_eq!(me["email"], m.email.as_str());
    assert_eq!(me["pendingEmail"], Value::Null);
    // The member record of spec 000 §2: completed purchases and the personalisation status.
    assert_eq!(
        (me["orderNumber"].as_i64(), me["persoStatusGDPR"].as_i64()),
        (Some(0), Some(0))
    );
    assert_eq!(me["segmentId"], "prospect");
    for (key, status) in [
        ("k1", "delivered"),
        ("k2", "cancelled"),
        ("k3", "reopened"),
        ("k4", "shipped"),
    ] {
        sqlx::query(
            "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount,
                                 shipping, loyalty, total, currency, payment_reference, created_at, updated_at)
             VALUES ($1, 1, $2, $3, 'fs', 100, 0, 0, 0, 100, 'EUR', 'ref', 1, 1)",
        )
        .bind(m.id)
        .bind(format!("{}-{key}", m.id))
        .bind(status)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    }
    sqlx::query("UPDATE members SET perso_gdpr = 1 WHERE id = $1")
        .bind(m.id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, me) = m.call(&t, Method::GET, A, None).await;
    assert_eq!(
        (me["orderNumber"].as_i64(), me["persoStatusGDPR"].as_i64()),
        (Some(2), Some(1)),
        "a cancelled or reopened order is no purchase"
    );
    // Two purchases, the last in 1970: lapsed; the same two this week: a regular.
    assert_eq!(me["segmentId"], "lapsed");
    sqlx::query("UPDATE orders SET created_at = $1 WHERE member_id = $2 AND status = 'shipped'")
        .bind(app::platform::state::now() - 86_400)
        .bind(m.id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, me) = m.call(&t, Method::GET, A, None).await;
    assert_eq!(me["segmentId"], "regular");

    let (status, jobs) = m.call(&t, Method::GET, &format!("{A}/jobs"), None).await;
    assert_eq!(status, 200);
    let jobs = jobs["jobs"].as_array().unwrap().clone();
    assert_eq!(jobs.len(), 10);
    assert_eq!(jobs[5], json!({ "id": 6, "title": "Étudiant(e)" }));

    let mut good = profile(
        " Anne  Marie ",
        "de la Tour",
        "Male",
        "15/08/1985",
        "0612345678",
    );
    good["jobId"] = json!(2);
    let (status, done) = m
        .call(&t, Method::POST, &format!("{A}/profile"), Some(good))
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["msgKey"], "myprofile.text.personaldata.notification");
    assert_eq!(done["member"]["firstName"], "Anne Marie");
    assert_eq!(done["member"]["birthDate"], "15/08/1985");
    assert_eq!(done["member"]["jobId"], 2);
    let stored: (String, String, i64, Option<String>, String, Option<i64>) = sqlx::query_as(
        "SELECT first_name, last_name, civility, birth_date, phone, job_id FROM members WHERE id = $1",
    )
    .bind(m.id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        stored,
        (
            "Anne Marie".into(),
            "de la Tour".into(),
            1,
            Some("1985-08-15".into()),
            "0612345678".into(),
            Some(2)
        )
    );

    // Refused input: the spec's message, one flag per faulty field, nothing stored.
    let before = row(&t, m.id).await;
    // Far past every field's limit, within the 64 KB body limit (limits.rs tests that).
    let long = "a".repeat(12_000);
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (profile("", "", "Female", "", ""), vec!["NAME", "LAST_NAME"]),
        (profile("Zoé2", "Durand", "Female", "", ""), vec!["NAME"]),
        (
            profile("Zoé", "Du.rand", "Female", "", ""),
            vec!["LAST_NAME"],
        ),
        (profile("🌹", "Durand", "Female", "", ""), vec!["NAME"]),
        (
            profile(&long, &long, "Female", &long, &long),
            vec!["NAME", "LAST_NAME", "DATE_OF_BIRTH", "PHONE"],
        ),
        (profile("Zoé", "Durand", "female", "", ""), vec!["GENDER"]),
        (profile("Zoé", "Durand", "", "", ""), vec!["GENDER"]),
        (
            profile("Zoé", "Durand", "Female", "31/02/1990", ""),
            vec!["DATE_OF_BIRTH"],
        ),
        (
            profile("Zoé", "Durand", "Female", "1990-02-01", ""),
            vec!["DATE_OF_BIRTH"],
        ),
        (
            profile("Zoé", "Durand", "Female", "01/01/2999", ""),
            vec!["DATE_OF_BIRTH"],
        ),
        (
            profile("Zoé", "Durand", "Female", "", "+33612345678"),
            vec!["PHONE"],
        ),
        (
            profile("Zoé", "Durand", "Female", "", "0612"),
            vec!["PHONE"],
        ),
        (
            profile("Zoé", "Durand", "Female", "", "٠٦١٢٣٤٥٦٧٨"),
            vec!["PHONE"],
        ),
        (
            json!({ "firstName": "Zoé", "lastName": "Durand", "gender": "Female", "jobId": 999 }),
            vec!["JOB"],
        ),
        (json!({}), vec!["GENDER", "NAME", "LAST_NAME"]),
    ];
    for (body, fields) in cases {
        let (status, err) = m
            .call(
                &t,
                Method::POST,
                &format!("{A}/profile"),
                Some(body.clone()),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            err["error_description"],
            "errors.general_retry.notification"
        );
        let got: Vec<String> = field_keys(&err).into_iter().map(|(f, _)| f).collect();
        assert_eq!(got, fields, "{body}");
    }
    let (_, err) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/profile"),
            Some(profile("Zoé", "Durand", "Female", "01/01/2999", "")),
        )
        .await;
    assert_eq!(field_keys(&err)[0].1, "myprofile.errors.birthdate_future");
    for body in [
        "{not json",
        "[]",
        "",
        "null",
        r#"{"firstName": 12, "gender": true}"#,
        "\u{0}",
    ] {
        let (status, err) = m
            .raw(&t, Method::POST, &format!("{A}/profile"), Some(body))
            .await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some("bad_request")),
            "{body:?}"
        );
        assert_eq!(
            err["error_description"],
            "errors.general_retry.notification"
        );
    }
    assert_eq!(row(&t, m.id).await, before, "nothing stored");

    // Names in other scripts are letters too; empty phone, birth date and job clear them.
    let (status, done) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/profile"),
            Some(profile("Γιώργος", "Παπαδόπουλος", "Other", "", "")),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["member"]["birthDate"], "");
    assert_eq!(done["member"]["jobId"], Value::Null);
    assert_eq!(done["member"]["gender"], "Other");

    // Spain asks a birth date at registration: it cannot be cleared there.
    let es = member(&t, 3).await;
    let (status, err) = es
        .call(
            &t,
            Method::POST,
            &format!("{A}/profile"),
            Some(profile("Lucía", "García", "Female", "", "")),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        field_keys(&err),
        [(
            "DATE_OF_BIRTH".to_string(),
            "myprofile.errors.required".to_string()
        )]
    );

    // Signed out: 401; no XSRF header: 403, nothing changes.
    let res = t.client.get(t.url(A)).send().await.unwrap();
    assert_eq!(res.status(), 401);
    let res = t
        .client
        .post(t.url(&format!("{A}/profile")))
        .header("cookie", m.cookie())
        .json(&profile("Mallory", "Evil", "Male", "", ""))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let (_, me) = m.call(&t, Method::GET, A, None).await;
    assert_eq!(me["firstName"], "Γιώργος");
}
both!(
    personal_data,
    personal_data_on_sqlite,
    personal_data_on_postgres
);

async fn documented(t: TestApp) {
    let doc: Value = t.get("/api/openapi.json").await.json().await.unwrap();
    let paths = doc["paths"].as_object().unwrap();
    for (path, method) in [
        (A, "get"),
        (A, "delete"),
        ("/api/postsales/v1/account/jobs", "get"),
        ("/api/postsales/v1/account/profile", "post"),
        ("/api/postsales/v1/account/email", "post"),
        ("/api/postsales/v1/account/email/confirm", "post"),
        ("/api/postsales/v1/account/password", "post"),
        ("/api/postsales/v1/account/deactivation/reasons", "get"),
        ("/api/postsales/v1/account/deactivate", "post"),
    ] {
        assert!(
            paths[path][method].is_object(),
            "{method} {path} documented"
        );
    }
}

#[tokio::test]
async fn every_account_call_is_in_the_openapi_document() {
    documented(crate::helpers::start(crate::helpers::Backend::Sqlite).await).await;
}

//! Communication preferences over HTTP on SQLite and PostgreSQL: option sets
//! by site, NONE and the cancel survey, opt-ins withdrawn, partners, brand alerts; bad
//! input refused with nothing stored; another member's subscription is not found.
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

mod forms;

const C: &str = "/api/postsales/v1/communications";

pub(super) async fn on_site(t: &TestApp, site: i64) -> Shopper {
    let mut s = shopper(t, 2).await;
    // A session is signed in on its member's site only: the site cookie says which.
    s.cookie = format!("{}; site={site}", s.cookie);
    sqlx::query("UPDATE members SET site_id = $2 WHERE id = $1")
        .bind(s.member_id)
        .bind(site)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    s
}

pub(super) async fn member_flag(t: &TestApp, id: i64, column: &str) -> Option<i64> {
    sqlx::query_scalar(&format!("SELECT {column} FROM members WHERE id = $1"))
        .bind(id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

fn prefs(channel: &str, model: &str) -> Value {
    json!({ "communicationChannel": channel, "communicationModel": model })
}

async fn preferences_and_survey(t: TestApp) {
    let a = on_site(&t, 1).await;
    let (status, s) = a.call(&t, Method::GET, C, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        (
            s["communicationChannel"].as_str(),
            s["communicationModel"].as_str()
        ),
        (Some("ALL"), Some("NONE"))
    );
    assert_eq!(s["options"]["channels"], json!(["ALL", "MAIL", "PUSH"]));
    assert_eq!(
        s["options"]["models"],
        json!(["ALL", "REGULARLY", "FEWER", "ONEPERWEEK", "NONE"])
    );
    assert_eq!(
        s["member_commercial_partner_settings"],
        Value::Null,
        "camelCase on the wire"
    );
    assert_eq!(
        s["memberCommercialPartnerSettings"]
            .as_array()
            .unwrap()
            .len(),
        3
    );

    let (status, s) = a
        .call(&t, Method::PUT, C, Some(prefs("MAIL", "REGULARLY")))
        .await;
    assert_eq!((status, s["cancelSurvey"].as_bool()), (200, Some(false)));
    assert_eq!(member_flag(&t, a.member_id, "optin_email").await, Some(1));

    // Bad input: refused with the general message, nothing changes.
    for body in [
        prefs("MAIL", "WEEKLY"),
        prefs("SMS", "ALL"),
        prefs("mail", "all"),
        json!({}),
        json!({"communicationModel": 3}),
    ] {
        let (status, err) = a.call(&t, Method::PUT, C, Some(body.clone())).await;
        assert_eq!(
            (status, err["error_description"].as_str()),
            (400, Some("errors.general_retry.notification")),
            "{body}"
        );
    }
    let res = a
        .client
        .put(t.url(C))
        .header("cookie", &a.cookie)
        .header("X-XSRF-TOKEN", &a.xsrf)
        .body("{\"communicationChannel\": \"ALL\"")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let (_, s) = a.call(&t, Method::GET, C, None).await;
    assert_eq!(
        (
            s["communicationChannel"].as_str(),
            s["communicationModel"].as_str()
        ),
        (Some("MAIL"), Some("REGULARLY"))
    );

    // NONE: newsletters end, the e-mail opt-in goes, the survey opens.
    let (status, s) = a
        .call(&t, Method::PUT, C, Some(prefs("MAIL", "NONE")))
        .await;
    assert_eq!((status, s["cancelSurvey"].as_bool()), (200, Some(true)));
    let subscription = s["subscriptionId"].as_i64().unwrap();
    assert_eq!(member_flag(&t, a.member_id, "optin_email").await, Some(0));
    let (_, again) = a
        .call(&t, Method::PUT, C, Some(prefs("MAIL", "NONE")))
        .await;
    assert_eq!(
        again["cancelSurvey"], false,
        "no survey when newsletters were already off"
    );

    let (status, reasons) = a
        .call(&t, Method::GET, &format!("{C}/cancelreasons"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(reasons["datas"].as_array().unwrap().len(), 5);
    assert_eq!(reasons["datas"][0]["label"], "J'en reçois trop");
    let reason = reasons["datas"][1]["id"].as_i64().unwrap();

    // Another member's subscription is not found; unknown reasons are refused.
    let b = on_site(&t, 1).await;
    let cancel = |reason: i64, sub: i64| json!({ "cancelReasonId": reason, "subscriptionId": sub });
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            &format!("{C}/subscription/cancel"),
            Some(cancel(reason, subscription))
        )
        .await
        .0,
        404
    );
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            &format!("{C}/subscription/cancel"),
            Some(cancel(999, subscription))
        )
        .await
        .0,
        400
    );
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            &format!("{C}/subscription/cancel"),
            Some(json!({"cancelReasonId": "x"}))
        )
        .await
        .0,
        400
    );
    let stored: Option<i64> =
        sqlx::query_scalar("SELECT cancel_reason_id FROM member_subscriptions WHERE id = $1")
            .bind(subscription)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored, None);
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            &format!("{C}/subscription/cancel"),
            Some(cancel(reason, subscription))
        )
        .await
        .0,
        204
    );
    let stored: Option<i64> =
        sqlx::query_scalar("SELECT cancel_reason_id FROM member_subscriptions WHERE id = $1")
            .bind(subscription)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored, Some(reason));

    // Back on: the subscription is active again.
    let (_, s) = a
        .call(&t, Method::PUT, C, Some(prefs("ALL", "ONEPERWEEK")))
        .await;
    assert_eq!(s["subscriptionId"].as_i64(), Some(subscription));
    assert_eq!(member_flag(&t, a.member_id, "optin_email").await, Some(1));
    let events = t
        .count(&format!(
            "SELECT COUNT(*) FROM member_consent_events WHERE member_id = {} AND consent = 'email'",
            a.member_id
        ))
        .await;
    assert_eq!(events, 3, "granted, withdrawn, granted");
}

both!(
    preferences_and_survey,
    preferences_and_survey_on_sqlite,
    preferences_and_survey_on_postgres
);

async fn german_sites_offer_fewer_options(t: TestApp) {
    for site in [2, 7] {
        let m = on_site(&t, site).await;
        let (_, s) = m.call(&t, Method::GET, C, None).await;
        assert_eq!(s["options"]["channels"], json!(["ALL", "MAIL"]));
        assert_eq!(s["options"]["models"], json!(["ALL", "ONEPERWEEK", "NONE"]));
        for body in [
            prefs("PUSH", "ALL"),
            prefs("ALL", "REGULARLY"),
            prefs("MAIL", "FEWER"),
        ] {
            assert_eq!(m.call(&t, Method::PUT, C, Some(body)).await.0, 400);
        }
        assert_eq!(
            t.count(&format!(
                "SELECT COUNT(*) FROM member_communications WHERE member_id = {}",
                m.member_id
            ))
            .await,
            0
        );
        assert_eq!(
            m.call(&t, Method::PUT, C, Some(prefs("MAIL", "ONEPERWEEK")))
                .await
                .0,
            200
        );
    }
    let es = on_site(&t, 66).await;
    assert_eq!(
        es.call(&t, Method::PUT, C, Some(prefs("PUSH", "FEWER")))
            .await
            .0,
        200
    );
}

both!(
    german_sites_offer_fewer_options,
    german_sites_on_sqlite,
    german_sites_on_postgres
);

async fn optins_partners_and_brands(t: TestApp) {
    let a = on_site(&t, 1).await;
    let optins = format!("{C}/optins");
    let (status, s) = a
        .call(
            &t,
            Method::POST,
            &optins,
            Some(json!({ "isOptinPerso": true, "isOptinPartner": true })),
        )
        .await;
    assert_eq!(
        (
            status,
            s["isOptinPerso"].as_bool(),
            s["isOptinPartner"].as_bool()
        ),
        (200, Some(true), Some(true))
    );
    // Withdrawn at any time, one without the other.
    let (_, s) = a
        .call(
            &t,
            Method::POST,
            &optins,
            Some(json!({ "isOptinPartner": false })),
        )
        .await;
    assert_eq!(
        (s["isOptinPerso"].as_bool(), s["isOptinPartner"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(member_flag(&t, a.member_id, "optin_partner").await, Some(0));
    for body in [json!({}), json!({ "isOptinPerso": "yes" }), json!([true])] {
        assert_eq!(a.call(&t, Method::POST, &optins, Some(body)).await.0, 400);
    }
    assert_eq!(member_flag(&t, a.member_id, "perso_gdpr").await, Some(1));

    // Partner 1 is the data partner of the onboarding banner: its answer can be taken back.
    let partners = format!("{C}/commercialpartners");
    let set = |v: Value| json!({ "memberCommercialPartnerSettings": v });
    let (status, s) = a
        .call(
            &t,
            Method::POST,
            &partners,
            Some(set(
                json!([{ "id": 1, "status": true }, { "id": 2, "status": true }]),
            )),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(member_flag(&t, a.member_id, "adot_optin").await, Some(1));
    let on: Vec<bool> = s["memberCommercialPartnerSettings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_bool().unwrap())
        .collect();
    assert_eq!(on, [true, true, false]);
    // One unknown id: nothing of the call is written.
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            &partners,
            Some(set(
                json!([{ "id": 1, "status": false }, { "id": 999, "status": true }]),
            )),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(member_flag(&t, a.member_id, "adot_optin").await, Some(1));
    for body in [
        set(json!([])),
        json!({}),
        set(json!([{ "id": "1", "status": 1 }])),
    ] {
        assert_eq!(a.call(&t, Method::POST, &partners, Some(body)).await.0, 400);
    }
    let (_, s) = a
        .call(
            &t,
            Method::POST,
            &partners,
            Some(set(json!([{ "id": 1, "status": false }]))),
        )
        .await;
    assert_eq!(s["memberCommercialPartnerSettings"][0]["status"], false);
    assert_eq!(member_flag(&t, a.member_id, "adot_optin").await, Some(0));

    // Brand alerts.
    let brand: i64 = sqlx::query_scalar("SELECT id FROM brands ORDER BY id LIMIT 1")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let path = format!("/api/postsales/v1/brandalerts/{brand}");
    let (status, alerts) = a.call(&t, Method::PUT, &path, None).await;
    assert_eq!(
        (status, alerts["brands"][0]["id"].as_i64()),
        (200, Some(brand))
    );
    assert!(!alerts["options"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["id"] == brand));
    assert_eq!(
        a.call(&t, Method::PUT, &path, None).await.1["brands"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    for bad in ["999999999", "abc", "1%20OR%201"] {
        assert_eq!(
            a.call(
                &t,
                Method::PUT,
                &format!("/api/postsales/v1/brandalerts/{bad}"),
                None
            )
            .await
            .0,
            404
        );
    }
    let (_, s) = a.call(&t, Method::GET, C, None).await;
    assert_eq!(s["brandAlerts"]["brands"].as_array().unwrap().len(), 1);
    let (status, alerts) = a.call(&t, Method::DELETE, &path, None).await;
    assert_eq!(
        (status, alerts["brands"].as_array().unwrap().len()),
        (200, 0)
    );
}

both!(
    optins_partners_and_brands,
    optins_partners_brands_on_sqlite,
    optins_partners_brands_on_postgres
);

/// Writes that read first (does the brand exist?) and then insert, sent by several clients
/// of one member at once: each waits its turn instead of failing with "database is locked"
/// on SQLite (a 500 that scripts/fuzz.sh found with two workers).
async fn concurrent_writes_wait_their_turn(t: TestApp) {
    let t = std::sync::Arc::new(t);
    let s = std::sync::Arc::new(on_site(&t, 1).await);
    let mut tasks = tokio::task::JoinSet::new();
    for brand in 1..=24 {
        let (t, s) = (t.clone(), s.clone());
        tasks.spawn(async move {
            let path = format!("/api/postsales/v1/brandalerts/{brand}");
            let (status, body) = s.call(&t, Method::PUT, &path, None).await;
            (status, body)
        });
    }
    for (status, body) in tasks.join_all().await {
        assert_eq!(status, 200, "{body}");
    }
    let (_, settings) = s.call(&t, Method::GET, C, None).await;
    let followed = settings["brandAlerts"]["brands"].as_array().map(Vec::len);
    assert_eq!(followed, Some(24), "{settings}");
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    concurrent_writes_wait_their_turn,
    concurrent_brand_follows_wait_their_turn_on_sqlite,
    concurrent_brand_follows_wait_their_turn_on_postgres,
);

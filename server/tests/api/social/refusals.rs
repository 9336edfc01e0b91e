//! What is refused with code 11 (or 8, 21) and leaves no session: a forged ID token, a
//! wrong or foreign `state`, a replayed code, an expired ID token, an unconfigured
//! provider, an unverified email.
use super::*;

async fn assert_refused(t: &TestApp, res: reqwest::Response, key: &str) {
    assert_eq!(res.status(), 303);
    let to = location(&res);
    assert_eq!(param(&to, "error"), key, "{to}");
    assert!(member_cookie(&res).is_none(), "no session cookie");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sessions").await,
        0,
        "no session"
    );
}

async fn refusals(t: TestApp) {
    // A forged ID token (signed by another key): 11.
    let v = visitor(&t).await;
    let back = at_provider(
        &t,
        &start(&t, &v, "google").await,
        "mallory+forged@example.test",
    )
    .await;
    assert_refused(&t, get(&t, &v, &back).await, "auth.social.code.11").await;

    // An expired ID token: 11.
    let back = at_provider(
        &t,
        &start(&t, &v, "google").await,
        "late+expired@example.test",
    )
    .await;
    assert_refused(&t, get(&t, &v, &back).await, "auth.social.code.11").await;

    // A wrong state: 11.
    let back = at_provider(&t, &start(&t, &v, "facebook").await, "someone@example.test").await;
    let tampered = back.replace(
        &format!("state={}", param(&back, "state")),
        "state=forgedstate",
    );
    assert_refused(&t, get(&t, &v, &tampered).await, "auth.social.code.11").await;

    // Another visitor's state (login CSRF): 11.
    let other = visitor(&t).await;
    assert_refused(&t, get(&t, &other, &back).await, "auth.social.code.11").await;

    // The same callback again (state used): 11. Then the used code with a fresh state:
    // the provider refuses it (single use), 11.
    assert_refused(&t, get(&t, &v, &back).await, "auth.social.code.11").await;
    let fresh = start(&t, &v, "facebook").await;
    let replay = format!(
        "/gr/authentication/social/callback?code={}&state={}",
        param(&back, "code"),
        app::routes::encode_query_value(&param(&fresh, "state"))
    );
    assert_refused(&t, get(&t, &v, &replay).await, "auth.social.code.11").await;

    // Cancelled at the provider: 11.
    let s = param(&start(&t, &v, "google").await, "state");
    let path = format!("/gr/authentication/social/callback?error=access_denied&state={s}");
    assert_refused(&t, get(&t, &v, &path).await, "auth.social.code.11").await;

    // An unverified email neither associates nor registers: 21.
    let back = at_provider(
        &t,
        &start(&t, &v, "google").await,
        "demo+unverified@rosace.test",
    )
    .await;
    assert_refused(&t, get(&t, &v, &back).await, "auth.social.code.21").await;

    // Klarna is in the enumerations but not configured here: 8.
    let res = post_form(
        &t,
        &v,
        "/gr/authentication/social/start",
        &[("provider", "klarna")],
    )
    .await;
    assert_refused(&t, res, "auth.social.code.8").await;
    // The start needs the CSRF token.
    let res = t
        .client
        .post(t.url("/gr/authentication/social/start"))
        .header("cookie", &v.cookie)
        .form(&[("provider", "google")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    // REST: the providers, and third-party validate with a wrong state.
    let list: serde_json::Value = t
        .get("/api/authentication/v1/thirdparty/providers")
        .await
        .json()
        .await
        .unwrap();
    let ids: Vec<u64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["thirdPartyTypeId"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3]);
    let res = t
        .client
        .post(t.url("/api/authentication/v1/thirdparty/validate"))
        .header("cookie", &v.cookie)
        .header("X-XSRF-TOKEN", &v.xsrf)
        .json(&serde_json::json!({"code": "x", "state": "y"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["result"], 11);
    assert_eq!(body["msgKey"], "auth.social.code.11");
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 0);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE registration_type = 1")
            .await,
        0
    );
}
both_social!(refusals, refusals_on_sqlite, refusals_on_postgres);

/// The REST flow end to end: third-party login gives the provider's URL, validate answers
/// 13 with the pre-filled fields, subscribe third party signs in.
async fn rest_flow(t: TestApp) {
    let v = visitor(&t).await;
    let res = t
        .client
        .post(t.url("/api/authentication/v1/thirdparty/google/login"))
        .header("cookie", &v.cookie)
        .header("X-XSRF-TOKEN", &v.xsrf)
        .json(&serde_json::json!({"returnUrl": "/gr/cart"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let url = res.json::<serde_json::Value>().await.unwrap()["authorizationUrl"]
        .as_str()
        .unwrap()
        .to_string();
    let back = at_provider(&t, &url, "rest.user@example.test").await;
    let res = t
        .client
        .post(t.url("/api/authentication/v1/thirdparty/validate"))
        .header("cookie", &v.cookie)
        .header("X-XSRF-TOKEN", &v.xsrf)
        .json(&serde_json::json!({"code": param(&back, "code"), "state": param(&back, "state")}))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["result"], 13);
    assert_eq!(body["email"], "rest.user@example.test");
    assert_eq!(body["firstName"], "Alice");
    assert_eq!(body["thirdPartyTypeId"], 3);
    assert_eq!(body["registrationType"], 1);
    let res = t.client.post(t.url("/api/authentication/v1/thirdparty/subscribe"))
        .header("cookie", &v.cookie).header("X-XSRF-TOKEN", &v.xsrf)
        .json(&serde_json::json!({"token": body["token"], "firstName": "Alice", "lastName": "Martin", "cgv": true, "privacyPolicy": true}))
        .send().await.unwrap();
    assert!(member_cookie(&res).is_some());
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["result"], 1);
    assert_eq!(body["redirectUrl"], "/gr/cart");
    // The OpenAPI document lists the calls.
    let doc = t.get("/api/openapi.json").await.text().await.unwrap();
    for p in [
        "/thirdparty/validate",
        "/thirdparty/associate",
        "/thirdparty/subscribe",
        "/thirdparty/{provider}/login",
    ] {
        assert!(doc.contains(p), "{p} in the OpenAPI document");
    }
}
both_social!(rest_flow, rest_flow_on_sqlite, rest_flow_on_postgres);

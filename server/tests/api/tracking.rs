//! Analytics events (spec 000 §7 "Diagnostics": the tracking library's batch of
//! 50; §9: 30 property keys; §8: the analytics error names): `POST /api/tracking/v1/events`
//! takes a batch within the limits, writes it to the log and counts it by name for the
//! scrape (known names only); it refuses each bad field with a localized 400 naming it, a
//! body past 64 KiB with 413, a flood with 429 (the diagnostics limit, shared) and a call
//! without the XSRF header with 403. Withdrawing the performance consent removes the
//! tracking cookie.
use serde_json::{json, Value};

use crate::helpers::{both, cookie_value, start, Backend, TestApp};

const EVENTS: &str = "/api/tracking/v1/events";
const TOKEN: &str = "scrape-token-0123456789abcdef";

async fn post(t: &TestApp, path: &str, body: String) -> (u16, Value) {
    t.post_anonymous(path, body).await
}

fn event(name: &str) -> Value {
    json!({
        "name": name,
        "timestamp": "2026-11-24T06:13:40.123Z",
        "properties": {"route": "Catalog", "siteId": 1, "visibility": "SEO", "traffic": "organic", "path": "/gr/catalog/1"},
        "droppedProperties": 0
    })
}

fn batch(events: Value) -> Value {
    json!({
        "events": events,
        "deviceId": "0f8fad5b-d9cb-469f-a165-70867728950e",
        "tags": {"appName": "rosace-web", "version": "0.1.0"}
    })
}

/// The refusal's code, localized message and fields.
fn refusal(body: &Value) -> (String, String, Vec<String>) {
    let fields = body["fieldErrors"]
        .as_array()
        .map(|f| {
            f.iter()
                .map(|e| e["field"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    (
        body["error_code"].as_str().unwrap_or("").into(),
        body["message"].as_str().unwrap_or("").into(),
        fields,
    )
}

async fn a_batch_is_logged_and_counted_by_known_name(t: TestApp) {
    let events = json!([
        event("page_view"),
        event("page_view"),
        event("Unavailable Order Pipe"),
        event("Static ressources are not available"),
        event("my own event")
    ]);
    let (status, body) = post(&t, EVENTS, batch(events).to_string()).await;
    assert_eq!(status, 204, "{body}");
    let fifty = vec![event("page_view"); 50];
    assert_eq!(
        post(&t, EVENTS, batch(json!(fifty)).to_string()).await.0,
        204
    );

    let text = t
        .client
        .get(t.url("/metrics"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for line in [
        "rosace_tracking_events_total{name=\"page_view\"} 52",
        "rosace_tracking_events_total{name=\"Unavailable Order Pipe\"} 1",
        "rosace_tracking_events_total{name=\"Static ressources are not available\"} 1",
        "rosace_tracking_events_total{name=\"other\"} 1",
        "rosace_http_requests_total{method=\"POST\",route=\"/api/tracking/v1/events\",status=\"204\"} 2",
    ] {
        assert!(text.contains(line), "{line} missing from:\n{text}");
    }
    assert!(
        !text.contains("my own event"),
        "a visitor's name is no label"
    );

    // The call is in the OpenAPI document, with its body's schema.
    let doc: Value = t.get("/api/openapi.json").await.json().await.unwrap();
    let op = &doc["paths"][EVENTS]["post"];
    assert_eq!(
        op["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/TrackingBatch"
    );
    assert!(op["responses"]["413"].is_object() && op["responses"]["429"].is_object());
    assert!(doc["components"]["schemas"]["TrackingEvent"].is_object());
}

both!(
    a_batch_is_logged_and_counted_by_known_name,
    a_batch_is_logged_and_counted_by_known_name_on_sqlite,
    a_batch_is_logged_and_counted_by_known_name_on_postgres,
    |c| c.metrics_token = Some(TOKEN.into())
);

async fn each_bad_field_is_refused_by_name_in_the_sites_language(t: TestApp) {
    // 51 events: too many, in French on site 1 and in German with siteId 2.
    let fifty_one = batch(json!(vec![event("page_view"); 51])).to_string();
    let (status, body) = post(&t, EVENTS, fifty_one.clone()).await;
    assert_eq!(status, 400);
    let (code, message, fields) = refusal(&body);
    assert_eq!(code, "too_many");
    assert_eq!(
        body["error_description"],
        "diagnostics.errors.too_many_events"
    );
    assert!(
        message.starts_with("Un lot compte 50 événements"),
        "{message}"
    );
    assert_eq!(fields, vec!["events"]);
    let (status, body) = post(&t, &format!("{EVENTS}?siteId=2"), fifty_one).await;
    assert_eq!(status, 400);
    assert!(refusal(&body).1.starts_with("Ein Paket enthält"), "{body}");

    // 31 property keys.
    let mut wide = event("page_view");
    wide["properties"] = (0..31).map(|i| (format!("k{i}"), json!(i))).collect();
    let (status, body) = post(&t, EVENTS, batch(json!([wide])).to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(
        (refusal(&body).0.as_str(), refusal(&body).2),
        ("too_many", vec!["events[0].properties".to_string()])
    );
    assert!(refusal(&body).1.starts_with("Un événement a 30 propriétés"));

    // Each field of an event, and the batch's own.
    let mut long = event("x");
    long["name"] = json!("n".repeat(65));
    let mut control = event("page\u{7}view");
    control["timestamp"] = json!("2026-11-24 06:13");
    let mut nested = event("page_view");
    nested["properties"]["cart"] = json!({"items": 2});
    nested["properties"]["query"] = json!("q".repeat(257));
    let mut body = batch(json!([long, control, nested]));
    body["deviceId"] = json!("not a device id");
    body["tags"]["appName"] = json!("");
    let (status, reply) = post(&t, EVENTS, body.to_string()).await;
    assert_eq!(status, 400);
    let (code, _, fields) = refusal(&reply);
    assert_eq!(code, "invalid_field");
    assert_eq!(
        fields,
        vec![
            "tags.appName",
            "deviceId",
            "events[0].name",
            "events[1].name",
            "events[1].timestamp",
            "events[2].properties.cart",
            "events[2].properties.query",
        ]
    );
    // Every missing field is named.
    let (status, reply) = post(&t, EVENTS, json!({"events": [{}]}).to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(
        refusal(&reply).2,
        vec![
            "tags.appName",
            "tags.version",
            "deviceId",
            "events[0].name",
            "events[0].timestamp"
        ]
    );
    // Not a batch at all.
    for unreadable in ["[", "null", "{\"events\": 3}"] {
        let (status, reply) = post(&t, EVENTS, unreadable.into()).await;
        assert_eq!(status, 400, "{unreadable}");
        assert_eq!(refusal(&reply).0, "invalid_body", "{unreadable}");
        assert!(!refusal(&reply).1.is_empty());
    }
    // Past 64 KiB: refused before it is read.
    let mut big = event("page_view");
    big["properties"]["padding"] = json!("p".repeat(65 * 1024));
    let (status, reply) = post(&t, EVENTS, batch(json!([big])).to_string()).await;
    assert_eq!(
        (status, reply["error_code"].as_str()),
        (413, Some("too_large"))
    );

    // A state change: without the XSRF header, refused.
    let res = t
        .client
        .post(t.url(EVENTS))
        .json(&batch(json!([event("page_view")])))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

both!(
    each_bad_field_is_refused_by_name_in_the_sites_language,
    each_bad_field_is_refused_by_name_in_the_sites_language_on_sqlite,
    each_bad_field_is_refused_by_name_in_the_sites_language_on_postgres
);

async fn a_flood_of_events_is_refused(t: TestApp) {
    let one = batch(json!([event("page_view")])).to_string();
    for _ in 0..3 {
        assert_eq!(post(&t, EVENTS, one.clone()).await.0, 204);
    }
    let (status, body) = post(&t, EVENTS, one).await;
    assert_eq!(status, 429);
    assert_eq!(body["error_code"], "too_many_requests");
    assert!(
        refusal(&body).1.starts_with("Trop de diagnostics"),
        "{body}"
    );
    // The limit is the diagnostics one: the frontend log is refused too.
    let log = json!({"appName": "rosace-web", "appVersion": "0.1.0", "level": "Error",
        "message": "boom", "timestamp": "2026-11-24T06:13:40Z"});
    assert_eq!(
        post(&t, "/api/frontend-logger/v1/log", log.to_string())
            .await
            .0,
        429
    );
}

both!(
    a_flood_of_events_is_refused,
    a_flood_of_events_is_refused_on_sqlite,
    a_flood_of_events_is_refused_on_postgres,
    |c| c.settings.diagnostics.rate_limit = 3
);

/// The page tells the library its route kind and visibility; refusing the performance
/// consent removes the tracking cookie, accepting it leaves it.
#[tokio::test]
async fn the_page_names_its_route_and_withdrawn_consent_removes_the_cookie() {
    let t = start(Backend::Sqlite).await;
    let consent = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0";
    let html = t
        .get_with_cookie("/gr/aboutus", consent)
        .await
        .text()
        .await
        .unwrap();
    let tag = html
        .split("<script")
        .find(|s| s.contains("/widgets/diagnostics.js"))
        .expect("the diagnostics script with the consent");
    assert!(tag.contains("data-route=\"AboutUs\""), "{tag}");
    assert!(tag.contains("data-visibility=\"CLASSICAL\""), "{tag}");

    let page = t.get("/gr/aboutus").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let form = |choice: &str| {
        format!("_xsrf={xsrf}&kind=consent&back=%2F&choice={choice}&categories=C0002")
    };
    let send = |body: String| {
        let t = &t;
        let cookies = format!(
            "{}; rosace_tid=0f8fad5b-d9cb-469f-a165-70867728950e",
            crate::helpers::xsrf_cookie(&xsrf)
        );
        async move {
            t.client
                .post(t.url("/onboarding/form/consent"))
                .header("cookie", cookies)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    let removed = |res: &reqwest::Response| {
        res.headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.starts_with("rosace_tid=;") && v.contains("Max-Age=0"))
    };
    let refused = send(form("none")).await;
    assert_eq!(refused.status(), 303);
    assert!(removed(&refused), "refusing removes the tracking cookie");
    let accepted = send(form("custom")).await;
    assert_eq!(accepted.status(), 303);
    assert!(!removed(&accepted), "the performance consent keeps it");
}

//! Browser diagnostics (spec 000 §7 "Diagnostics"): the frontend log and the
//! metrics batch take what the rules allow and refuse the rest with a localized 400 naming
//! the fields; a client's flood gets 429; the page carries the script only with the
//! performance consent and says whether the shop is a developer's; `/metrics` is off (404)
//! without a token, refuses anyone without it (401), and with it shows the request
//! counters and durations and what browsers reported.
use serde_json::{json, Value};

use crate::helpers::{both, cookie_value, start_with, Backend, TestApp};

const LOG: &str = "/api/frontend-logger/v1/log";
const METRICS: &str = "/api/frontend-logger/v1/metrics";
const TOKEN: &str = "scrape-token-0123456789abcdef";

async fn post(t: &TestApp, path: &str, body: String) -> (u16, Value) {
    t.post_anonymous(path, body).await
}

fn log_entry(level: &str) -> Value {
    json!({
        "appName": "rosace-web",
        "appVersion": "0.1.0",
        "level": level,
        "message": "TypeError: x is undefined",
        "timestamp": "2026-11-24T06:13:40.123Z",
        "context": {"page": "/gr/home", "breadcrumbs": [
            {"category": "navigation", "message": "/gr/home", "timestamp": "2026-11-24T06:13:39.000Z"},
            {"category": "click", "message": "button#buy", "timestamp": "2026-11-24T06:13:40.000Z"}
        ]}
    })
}

fn batch(metrics: Value) -> Value {
    json!({"metrics": metrics, "tags": {"appName": "rosace-web", "version": "0.1.0"}})
}

fn vitals() -> Value {
    json!([
        {"name": "TTFB", "value": 120.5, "type": "timing", "tags": {"rating": "good"}},
        {"name": "FCP", "value": 1900, "type": "timing", "tags": {"rating": "needs-improvement"}},
        {"name": "LCP", "value": 2400, "type": "timing", "tags": {"rating": "good"}},
        {"name": "CLS", "value": 0.3, "type": "gauge", "tags": {"rating": "poor"}},
        {"name": "INP", "value": 64, "type": "timing", "tags": {}},
        {"name": "cart_items", "value": 2, "type": "histogram", "tags": {}}
    ])
}

/// The refusal's code, key, localized message and fields.
fn refusal(body: &Value) -> (String, String, String, Vec<String>) {
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
        body["error_description"].as_str().unwrap_or("").into(),
        body["message"].as_str().unwrap_or("").into(),
        fields,
    )
}

async fn the_frontend_log_takes_known_levels_only(t: TestApp) {
    for level in ["Information", "Error", "Fatal", "Debug", "Warning"] {
        let (status, body) = post(&t, LOG, log_entry(level).to_string()).await;
        assert_eq!(status, 204, "{level}: {body}");
    }
    // An unknown level: 400 naming it, in French on site 1, in German with siteId 2.
    let (status, body) = post(&t, LOG, log_entry("Critical").to_string()).await;
    assert_eq!(status, 400);
    let (code, key, message, fields) = refusal(&body);
    assert_eq!(code, "unknown_level");
    assert_eq!(key, "diagnostics.errors.unknown_level");
    assert!(
        message.starts_with("Niveau de journal inconnu"),
        "{message}"
    );
    assert_eq!(fields, vec!["level"]);
    let (status, body) = post(
        &t,
        &format!("{LOG}?siteId=2"),
        log_entry("error").to_string(),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        refusal(&body).2.starts_with("Unbekannte Protokollstufe"),
        "{body}"
    );

    // Every missing field is named.
    let (status, body) = post(&t, LOG, "{}".into()).await;
    assert_eq!(status, 400);
    let (code, _, _, fields) = refusal(&body);
    assert_eq!(code, "invalid_field");
    assert_eq!(
        fields,
        vec!["appName", "appVersion", "level", "message", "timestamp"]
    );
    // Not JSON of this shape at all.
    for unreadable in ["[", "null", "{\"level\": 3}"] {
        let (status, body) = post(&t, LOG, unreadable.into()).await;
        assert_eq!(status, 400, "{unreadable}");
        let (code, key, message, _) = refusal(&body);
        assert_eq!(code, "invalid_body", "{unreadable}");
        assert_eq!(key, "diagnostics.errors.invalid_body");
        assert!(!message.is_empty() && message != key, "{body}");
    }
    // Bounded: a timestamp without a zone, a long message, 51 breadcrumbs, a large context.
    let mut entry = log_entry("Error");
    entry["timestamp"] = json!("2026-11-24 06:13");
    entry["message"] = json!("x".repeat(4001));
    let (status, body) = post(&t, LOG, entry.to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(refusal(&body).3, vec!["message", "timestamp"]);
    let mut entry = log_entry("Error");
    entry["context"]["breadcrumbs"] = json!(vec![json!({"category": "click"}); 51]);
    let (status, body) = post(&t, LOG, entry.to_string()).await;
    assert_eq!((status, refusal(&body).0.as_str()), (400, "too_many"));
    let mut entry = log_entry("Error");
    entry["context"] = json!({"stack": "y".repeat(17 * 1024)});
    let (status, body) = post(&t, LOG, entry.to_string()).await;
    assert_eq!(
        (status, refusal(&body).0.as_str()),
        (400, "context_too_large")
    );

    // A state change: without the XSRF header, refused.
    let res = t
        .client
        .post(t.url(LOG))
        .json(&log_entry("Error"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

both!(
    the_frontend_log_takes_known_levels_only,
    the_frontend_log_takes_known_levels_only_on_sqlite,
    the_frontend_log_takes_known_levels_only_on_postgres
);

async fn the_metrics_batch_takes_known_kinds_within_bounds(t: TestApp) {
    let (status, body) = post(&t, METRICS, batch(vitals()).to_string()).await;
    assert_eq!(status, 204, "{body}");
    let fifty = vec![json!({"name": "CLS", "value": 0.01, "type": "gauge"}); 50];
    assert_eq!(
        post(&t, METRICS, batch(json!(fifty)).to_string()).await.0,
        204
    );

    let (status, body) = post(
        &t,
        METRICS,
        batch(json!([{"name": "LCP", "value": 1, "type": "meter"}])).to_string(),
    )
    .await;
    assert_eq!(status, 400);
    let (code, key, message, fields) = refusal(&body);
    assert_eq!(
        (code.as_str(), key.as_str()),
        ("unknown_type", "diagnostics.errors.unknown_type")
    );
    assert!(message.starts_with("Type de mesure inconnu"), "{message}");
    assert_eq!(fields, vec!["metrics[0].type"]);

    let fifty_one = vec![json!({"name": "CLS", "value": 0.01, "type": "gauge"}); 51];
    let (status, body) = post(&t, METRICS, batch(json!(fifty_one)).to_string()).await;
    assert_eq!((status, refusal(&body).0.as_str()), (400, "too_many"));
    let (status, body) = post(&t, METRICS, batch(json!([])).to_string()).await;
    assert_eq!(
        (status, refusal(&body).3),
        (400, vec!["metrics".to_string()])
    );

    let (status, body) = post(
        &t,
        METRICS,
        json!({"metrics": [{"name": "a b", "value": 1e13, "type": "count",
            "tags": {"k1": "v", "k2": "v", "k3": "v", "k4": "v", "k5": "v", "k6": "v", "k7": "v", "k8": "v", "k9": "v"}}]})
        .to_string(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        refusal(&body).3,
        vec![
            "tags.appName",
            "tags.version",
            "metrics[0].name",
            "metrics[0].value",
            "metrics[0].tags"
        ]
    );
    // A value that is not a number: the body is unreadable as a batch.
    let (status, body) = post(
        &t,
        METRICS,
        batch(json!([{"name": "LCP", "value": "fast", "type": "timing"}])).to_string(),
    )
    .await;
    assert_eq!((status, refusal(&body).0.as_str()), (400, "invalid_body"));
}

both!(
    the_metrics_batch_takes_known_kinds_within_bounds,
    the_metrics_batch_takes_known_kinds_within_bounds_on_sqlite,
    the_metrics_batch_takes_known_kinds_within_bounds_on_postgres
);

async fn a_flood_of_diagnostics_is_refused(t: TestApp) {
    for _ in 0..3 {
        assert_eq!(post(&t, METRICS, batch(vitals()).to_string()).await.0, 204);
    }
    // The limit counts both calls together.
    let (status, body) = post(&t, LOG, log_entry("Error").to_string()).await;
    assert_eq!(status, 429);
    let (code, key, message, _) = refusal(&body);
    assert_eq!(
        (code.as_str(), key.as_str()),
        ("too_many_requests", "diagnostics.errors.rate_limited")
    );
    assert!(message.starts_with("Trop de diagnostics"), "{message}");
}

both!(
    a_flood_of_diagnostics_is_refused,
    a_flood_of_diagnostics_is_refused_on_sqlite,
    a_flood_of_diagnostics_is_refused_on_postgres,
    |c| c.settings.diagnostics.rate_limit = 3
);

async fn scrape(t: &TestApp, auth: Option<&str>) -> reqwest::Response {
    let mut req = t.client.get(t.url("/metrics"));
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    req.send().await.unwrap()
}

async fn the_scrape_needs_its_token_and_shows_requests_and_browsers(t: TestApp) {
    assert_eq!(post(&t, METRICS, batch(vitals()).to_string()).await.0, 204);
    assert_eq!(post(&t, LOG, log_entry("Fatal").to_string()).await.0, 204);
    assert_eq!(post(&t, LOG, log_entry("Nope").to_string()).await.0, 400);
    assert_eq!(t.get("/gr/aboutus").await.status(), 200);

    for auth in [None, Some("Bearer wrong-token-0123456789"), Some(TOKEN)] {
        let res = scrape(&t, auth).await;
        assert_eq!(res.status(), 401, "{auth:?}");
        assert_eq!(
            res.headers()["www-authenticate"],
            "Bearer realm=\"metrics\""
        );
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error_code"], "unauthorized");
    }
    let res = scrape(&t, Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
    assert_eq!(res.headers()["cache-control"], "no-store");
    let text = res.text().await.unwrap();
    for line in [
        // The server's own requests, by route template and status.
        "rosace_http_requests_total{method=\"POST\",route=\"/api/frontend-logger/v1/metrics\",status=\"204\"} 1",
        "rosace_http_requests_total{method=\"POST\",route=\"/api/frontend-logger/v1/log\",status=\"204\"} 1",
        "rosace_http_requests_total{method=\"POST\",route=\"/api/frontend-logger/v1/log\",status=\"400\"} 1",
        "rosace_http_requests_total{method=\"GET\",route=\"page:AboutUs\",status=\"200\"}",
        "rosace_http_requests_total{method=\"GET\",route=\"/metrics\",status=\"401\"} 3",
        "rosace_http_request_duration_seconds_count{method=\"POST\",route=\"/api/frontend-logger/v1/metrics\",status=\"204\"} 1",
        // What the browser reported, rated by the server's rule.
        "rosace_frontend_logs_total{level=\"Fatal\"} 1",
        "rosace_frontend_metrics_total{name=\"LCP\",kind=\"timing\"} 1",
        "rosace_frontend_metrics_total{name=\"other\",kind=\"histogram\"} 1",
        "rosace_web_vitals_ratings_total{name=\"FCP\",rating=\"needs-improvement\"} 1",
        "rosace_web_vitals_ratings_total{name=\"CLS\",rating=\"poor\"} 1",
        "rosace_web_vitals_ratings_total{name=\"INP\",rating=\"good\"} 1",
        "rosace_web_vitals_seconds_count{name=\"TTFB\"} 1",
        "rosace_web_vitals_cls_count{name=\"CLS\"} 1",
    ] {
        assert!(text.contains(line), "{line} missing from:\n{text}");
    }
    assert!(text.ends_with("# EOF\n"));
    // A visitor's own metric names never become labels.
    assert!(!text.contains("cart_items"));
}

both!(
    the_scrape_needs_its_token_and_shows_requests_and_browsers,
    the_scrape_needs_its_token_and_shows_requests_and_browsers_on_sqlite,
    the_scrape_needs_its_token_and_shows_requests_and_browsers_on_postgres,
    |c| c.metrics_token = Some(TOKEN.into())
);

#[tokio::test]
async fn without_a_token_the_scrape_is_not_there() {
    let t = start_with(Backend::Sqlite, |c| c.metrics_token = None).await;
    let res = scrape(&t, Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(res.status(), 404);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error_code"], "not_found");
}

/// The consent-gated script tag, and the development switch it carries.
#[tokio::test]
async fn the_page_carries_the_script_with_consent_and_says_development() {
    let consent = "OptanonConsent=groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0";
    let refused = "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0";
    let t = start_with(Backend::Sqlite, |_| {}).await;
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
    for attr in [
        "type=\"module\"",
        "data-consent=\"C0002\"",
        "data-app-name=\"rosace-web\"",
        &format!("data-app-version=\"{}\"", env!("CARGO_PKG_VERSION")),
        "data-dev=\"false\"",
    ] {
        assert!(tag.contains(attr), "{attr} in {tag}");
    }
    let html = t
        .get_with_cookie("/gr/aboutus", refused)
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("/widgets/diagnostics.js"));
    let page = t.get("/gr/aboutus").await;
    assert!(cookie_value(&page, "XSRF-TOKEN").is_some());
    assert!(!page
        .text()
        .await
        .unwrap()
        .contains("/widgets/diagnostics.js"));

    let dev = start_with(Backend::Sqlite, |c| {
        c.settings.diagnostics.frontend_dev = true
    })
    .await;
    let html = dev
        .get_with_cookie("/gr/aboutus", consent)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("data-dev=\"true\""),
        "a developer's shop says so"
    );
}

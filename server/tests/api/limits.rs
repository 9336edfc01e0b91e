//! Resource limits (security review M4): small request bodies except where files are
//! taken, a deadline for slow clients' headers, and load shedding (503 with `Retry-After`)
//! instead of a collapse under overload, API calls past the running places waiting their
//! turn; the shop keeps serving after each.
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{start, start_with, Backend};

#[tokio::test]
async fn a_body_over_the_limit_is_refused_before_it_is_read() {
    let t = start(Backend::Sqlite).await;
    let xsrf = t.xsrf().await;
    let post = |body: String| {
        let t = &t;
        let xsrf = xsrf.clone();
        async move {
            t.client
                .post(t.url("/api/frontend-logger/v1/metrics"))
                .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
                .header("X-XSRF-TOKEN", &xsrf)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // A million zeros in a list, valid for this call: once a 300 MB heap, now refused
    // past 64 KB with the documented 413.
    let flood = format!("{{\"metrics\":[{}0]}}", "0,".repeat(1_000_000));
    assert_eq!(post(flood).await, 413);
    let small = "{\"metrics\":[{\"name\":\"LCP\",\"value\":1200,\"type\":\"timing\"}],\
                 \"tags\":{\"appName\":\"rosace-web\",\"version\":\"0.1.0\"}}"
        .to_string();
    assert!(post(small).await < 300, "a normal batch still goes through");
}

#[tokio::test]
async fn a_client_slow_to_send_its_headers_is_cut_off() {
    let t = start_with(Backend::Sqlite, |c| c.header_timeout_secs = 1).await;
    let addr = t.base.trim_start_matches("http://").to_string();
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: shop.test\r\n")
        .await
        .unwrap();
    // Never ends its headers: the server closes the connection after the timeout.
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection was closed by the server");
    assert!(!String::from_utf8_lossy(&buf).contains("200 OK"));
    assert_eq!(t.get("/health").await.status(), 200, "others are served");
}

/// The status of `shopper`'s add of one unit of `option` to their cart.
async fn add_one(
    t: &crate::helpers::TestApp,
    shopper: &crate::helpers::cart::Shopper,
    option: i64,
) -> u16 {
    let add =
        serde_json::json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, _) = shopper
        .call(
            t,
            reqwest::Method::POST,
            "/api/cartproxy/v1/item",
            Some(add),
        )
        .await;
    status
}

/// A payment with the sandbox's slow bank card (4 s), under way: it holds an API place.
async fn slow_payment(t: &crate::helpers::TestApp) -> tokio::task::JoinHandle<u16> {
    let member = crate::helpers::cart::shopper(t, 2).await;
    let opt = crate::helpers::cart::option_with_stock(t, 4, 5).await;
    assert_eq!(add_one(t, &member, opt).await, 201);
    let pipe = "/api/cartproxy/orderpiper/cart/v3";
    let (_, frozen) = member.call(t, reqwest::Method::GET, pipe, None).await;
    let pay = serde_json::json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4000 0000 0000 3220" });
    let url = t.url(&format!("{pipe}/pay"));
    tokio::spawn(async move {
        let (status, _) = member.call_url(reqwest::Method::POST, url, Some(pay)).await;
        status
    })
}

#[tokio::test]
async fn overload_is_shed_with_retry_after_and_health_still_answers() {
    let t = start_with(Backend::Sqlite, |c| {
        c.max_in_flight = 1;
        c.max_calls_in_flight = 1;
    })
    .await;
    let slow = slow_payment(&t).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    // An API call: shed, with the API's error body, its message in the site's language.
    let api = t
        .client
        .get(t.url("/api/catalog/v1/sales?site=4"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 503);
    assert_eq!(api.headers()["retry-after"], "1");
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(body["error_code"], "overloaded", "{body}");
    let italian = app::site::i18n::t(app::site::by_id_or_default(4).lang, "errors.busy.message");
    assert_eq!(body["message"], italian.as_str(), "{body}");
    // Pages have places of their own: a payment waiting does not turn a browsing member away.
    assert_eq!(t.get("/gr/aboutus").await.status(), 200);
    assert_eq!(t.get("/health").await.status(), 200);
    assert_eq!(slow.await.unwrap(), 200, "the slow payment went through");
    // The call's place is free again: its handler answers it (whatever it says), no 503.
    let served = t.get("/api/catalog/v1/sales?site=4").await;
    assert_ne!(served.status(), 503, "served again");
}

#[tokio::test]
async fn calls_past_the_running_places_wait_their_turn_instead_of_being_shed() {
    let t = start_with(Backend::Sqlite, |c| c.max_calls_running = 1).await;
    let slow = slow_payment(&t).await;
    let other = crate::helpers::cart::shopper(&t, 2).await;
    let opt = crate::helpers::cart::option_with_stock(&t, 5, 5).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    // The cart's adds wait in the cart's own writer, not for a running place.
    assert_eq!(add_one(&t, &other, opt).await, 201);
    assert!(
        !slow.is_finished(),
        "added while the payment held the running place"
    );
    // The only running place is the payment's: this call waits for it, then is answered.
    let waited = tokio::time::Instant::now();
    let call = t.get("/api/openapi.json").await;
    assert_eq!(call.status(), 200, "answered, not shed");
    assert!(slow.is_finished(), "answered once the payment was done");
    assert!(
        waited.elapsed() >= Duration::from_secs(2),
        "it waited its turn"
    );
    assert_eq!(slow.await.unwrap(), 200);
    // Pages never wait for calls.
    let page = tokio::time::Instant::now();
    assert_eq!(t.get("/gr/aboutus").await.status(), 200);
    assert!(page.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_shed_page_is_a_page_of_its_own_in_the_sites_language() {
    // No place at all: every page and call is shed, `/health` still answers.
    let t = start_with(Backend::Sqlite, |c| {
        c.max_in_flight = 0;
        c.max_calls_in_flight = 0;
    })
    .await;
    let shed = t.get("/gr/aboutus").await;
    assert_eq!(shed.status(), 503);
    assert_eq!(shed.headers()["retry-after"], "1");
    // A browser's page: a page of its own in the site's language, asking again by a link.
    let page = |path: &str| {
        t.client
            .get(t.url(path))
            .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .send()
    };
    let fr = page("/gr/aboutus").await.unwrap();
    assert_eq!(fr.status(), 503);
    assert_eq!(fr.headers()["retry-after"], "1");
    assert!(fr.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let policy = fr.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    let html = fr.text().await.unwrap();
    assert!(html.contains("<html lang=\"fr\"") && html.contains("Très forte affluence"));
    assert!(html.contains("<a href=\"\">Réessayer</a>"), "{html}");
    let de = page("/gr/aboutus?site=2&x=%22%3E%3Cscript%3E")
        .await
        .unwrap();
    assert_eq!(de.status(), 503);
    let html = de.text().await.unwrap();
    assert!(html.contains("<html lang=\"de\"") && html.contains("Erneut versuchen"));
    assert!(
        !html.contains("<script"),
        "nothing of the request is written in the page"
    );
    assert_eq!(t.get("/api/catalog/v1/sales?site=4").await.status(), 503);
    assert_eq!(t.get("/health").await.status(), 200);
}

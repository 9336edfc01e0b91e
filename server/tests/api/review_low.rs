//! Security review, low findings L1, L2, L3, L9, L12, L13, L14: state-changing GETs refuse
//! cross-site navigations, anonymous XSRF tokens are bound to a per-visitor pre-session id
//! (and every cookie is `__Host-`/`Secure` over HTTPS), member answers are never stored,
//! a session is signed in on its own site only, the print page and every other response
//! carry a strict policy, and malformed requests never show serde's words.
use reqwest::Method;
use serde_json::Value;

use crate::helpers::cart::shopper;
use crate::helpers::{cookie_value, set_cookies, start, start_with, Backend, TestApp};

fn header(res: &reqwest::Response, name: &str) -> String {
    res.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// An anonymous call that needs the XSRF header (the browser metrics beacon).
async fn metrics(t: &TestApp, cookie: &str, xsrf: &str) -> u16 {
    t.client
        .post(t.url("/api/frontend-logger/v1/metrics"))
        .header("cookie", cookie)
        .header("X-XSRF-TOKEN", xsrf)
        .json(&serde_json::json!({
            "metrics": [{"name": "LCP", "value": 1200, "type": "timing"}],
            "tags": {"appName": "rosace-web", "version": "0.1.0"}
        }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

// L2 -------------------------------------------------------------------------------------

#[tokio::test]
async fn anonymous_xsrf_tokens_are_bound_to_the_visitor() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/gr/aboutus").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").expect("an XSRF token");
    let visitor = cookie_value(&page, "rosace_visitor").expect("a pre-session id");
    let visitor_cookie = set_cookies(&page)
        .into_iter()
        .find(|c| c.starts_with("rosace_visitor="))
        .unwrap();
    assert!(visitor_cookie.contains("HttpOnly"), "{visitor_cookie}");
    // The visitor's own token with their own id passes.
    let own = format!("rosace_visitor={visitor}; XSRF-TOKEN={xsrf}");
    assert!(metrics(&t, &own, &xsrf).await < 300);
    // Another visitor's id, or none at all: the same token is refused.
    let other_page = t.get("/gr/aboutus").await;
    let other = cookie_value(&other_page, "rosace_visitor").unwrap();
    assert_ne!(other, visitor);
    let stolen = format!("rosace_visitor={other}; XSRF-TOKEN={xsrf}");
    assert_eq!(metrics(&t, &stolen, &xsrf).await, 403);
    assert_eq!(metrics(&t, &format!("XSRF-TOKEN={xsrf}"), &xsrf).await, 403);
    // The constant binding every anonymous token once shared is worth nothing now.
    let anon = app::platform::csrf::issue(&t.app.settings.xsrf_secret, "anon");
    let planted = format!("rosace_visitor={visitor}; XSRF-TOKEN={anon}");
    assert_eq!(metrics(&t, &planted, &anon).await, 403);
    assert_eq!(metrics(&t, &format!("XSRF-TOKEN={anon}"), &anon).await, 403);
    // A visitor who has an id keeps it: the next page hands out no new one.
    let again = t
        .get_with_cookie("/gr/aboutus", &format!("rosace_visitor={visitor}"))
        .await;
    assert!(cookie_value(&again, "rosace_visitor").is_none());
    let renewed = cookie_value(&again, "XSRF-TOKEN").unwrap();
    let kept = format!("rosace_visitor={visitor}; XSRF-TOKEN={renewed}");
    assert!(metrics(&t, &kept, &renewed).await < 300);
}

/// Over HTTPS the XSRF cookie, the pre-session id and the site cookie cannot be set by a
/// sibling host or a plain-HTTP page (L2, L13).
#[tokio::test]
async fn over_https_every_cookie_is_host_prefixed_or_secure() {
    let t = start_with(Backend::Sqlite, |c| {
        c.public_origin = "https://shop.test".into();
        c.settings.secure_cookies = true;
    })
    .await;
    let page = t.get("/gr/aboutus?site=66").await;
    let cookies = set_cookies(&page);
    let find = |prefix: &str| {
        cookies
            .iter()
            .find(|c| c.starts_with(prefix))
            .cloned()
            .unwrap_or_else(|| panic!("no {prefix} in {cookies:?}"))
    };
    let xsrf = find("__Host-XSRF-TOKEN=");
    assert!(xsrf.contains("Secure") && xsrf.contains("Path=/"), "{xsrf}");
    assert!(!xsrf.contains("Domain"), "{xsrf}");
    assert!(
        !cookies.iter().any(|c| c.starts_with("XSRF-TOKEN=")),
        "{cookies:?}"
    );
    let visitor = find("__Host-rosace_visitor=");
    assert!(
        visitor.contains("Secure") && visitor.contains("HttpOnly"),
        "{visitor}"
    );
    let site = find("site=66");
    assert!(site.contains("Secure"), "{site}");
    // The token works under its secure names, and not under the plain ones.
    let token = cookie_value(&page, "__Host-XSRF-TOKEN").unwrap();
    let id = cookie_value(&page, "__Host-rosace_visitor").unwrap();
    let secure = format!("__Host-rosace_visitor={id}; __Host-XSRF-TOKEN={token}");
    assert!(metrics(&t, &secure, &token).await < 300);
    let plain = format!("rosace_visitor={id}; XSRF-TOKEN={token}");
    assert_eq!(metrics(&t, &plain, &token).await, 403);
}

// L3 -------------------------------------------------------------------------------------

#[tokio::test]
async fn member_answers_and_pages_are_never_stored() {
    let t = start(Backend::Sqlite).await;
    let session = t.member_session(1).await;
    for path in [
        "/api/catalog/v1/search/recent",
        "/api/catalog/v8/search/items?q=robe",
        "/api/openapi.json",
        "/gr/aboutus",
        "/cart",
    ] {
        let res = t.get_with_cookie(path, &session).await;
        assert!(res.status().as_u16() < 400, "{path}: {}", res.status());
        assert_eq!(header(&res, "cache-control"), "no-store", "{path}");
    }
    // Anonymous pages stay private but revalidated; public documents keep their caching.
    let page = t.get("/gr/aboutus").await;
    assert_eq!(header(&page, "cache-control"), "private, no-cache");
    let doc = t.get("/api/openapi.json").await;
    assert_eq!(header(&doc, "cache-control"), "public, max-age=300");
    // A sign-in answer (it sets the session cookie) is not stored either.
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let visitor = cookie_value(&page, "rosace_visitor").unwrap();
    let res = t
        .client
        .post(t.url("/api/authentication/v1/login"))
        .header(
            "cookie",
            format!("rosace_visitor={visitor}; XSRF-TOKEN={xsrf}"),
        )
        .header("X-XSRF-TOKEN", &xsrf)
        .json(&serde_json::json!({"email": "demo@rosace.test",
            "password": server::demo::DEMO_PASSWORD, "siteId": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "cache-control"), "no-store");
}

// L9 -------------------------------------------------------------------------------------

#[tokio::test]
async fn a_session_is_signed_in_on_its_own_site_only() {
    let t = start(Backend::Sqlite).await;
    let session = t.member_session(1).await;
    let recent = "/api/catalog/v1/search/recent";
    assert_eq!(t.get_with_cookie(recent, &session).await.status(), 200);
    // Another site by `?site=`, by the site cookie, or named by the call itself: 401.
    for (path, cookie) in [
        (format!("{recent}?site=66"), session.clone()),
        (recent.to_string(), format!("{session}; site=66")),
        (format!("{recent}?siteId=66"), session.clone()),
    ] {
        let res = t.get_with_cookie(&path, &cookie).await;
        assert_eq!(res.status(), 401, "{path} with {cookie}");
    }
    let res = t
        .client
        .get(t.url(recent))
        .header("cookie", &session)
        .header("x-vp-siteid", "66")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    // The cart too, and members-only pages send to that site's sign-in.
    let cart = app::model::cart::CART;
    let own = t.get_with_cookie(cart, &session).await.status().as_u16();
    assert_ne!(own, 401);
    let elsewhere = t
        .get_with_cookie(cart, &format!("{session}; site=66"))
        .await;
    assert_eq!(elsewhere.status(), 401);
    let page = t.get_with_cookie("/cart", &session).await;
    assert_eq!(page.status(), 200);
    let page = t
        .get_with_cookie("/cart", &format!("{session}; site=66"))
        .await;
    assert_eq!(page.status(), 302);
    assert!(header(&page, "location").contains("authentication"));
    // Back on its own site, the session is signed in again (nothing was ended).
    assert_eq!(
        t.get_with_cookie(recent, &format!("{session}; site=1"))
            .await
            .status(),
        200
    );
}

// L1 -------------------------------------------------------------------------------------

async fn freeze(t: &TestApp, cookie: &str, headers: &[(&str, &str)]) -> u16 {
    let mut req = t
        .client
        .get(t.url(app::model::cart::PIPE))
        .header("cookie", cookie);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap().status().as_u16()
}

async fn recent_count(t: &TestApp, session: &str) -> usize {
    let res = t
        .get_with_cookie("/api/catalog/v1/search/recent", session)
        .await;
    let body: Value = res.json().await.unwrap();
    body["recentQueries"].as_array().unwrap().len()
}

const CROSS_SITE_LINK: [(&str, &str); 3] = [
    ("sec-fetch-site", "cross-site"),
    ("sec-fetch-mode", "navigate"),
    ("sec-fetch-dest", "document"),
];

#[tokio::test]
async fn state_changing_gets_refuse_cross_site_navigations() {
    let t = start(Backend::Sqlite).await;
    let s = shopper(&t, 1).await;
    // A link on another site to the freeze: refused, the cart is not frozen.
    assert_eq!(freeze(&t, &s.cookie, &CROSS_SITE_LINK).await, 403);
    let same_site_nav = [
        ("sec-fetch-site", "same-site"),
        ("sec-fetch-mode", "navigate"),
    ];
    assert_eq!(freeze(&t, &s.cookie, &same_site_nav).await, 403);
    let typed = [("sec-fetch-site", "none"), ("sec-fetch-mode", "navigate")];
    assert_eq!(freeze(&t, &s.cookie, &typed).await, 403);
    // The app's own client: a same-origin fetch, with the XSRF header.
    let fetch = [
        ("sec-fetch-site", "same-origin"),
        ("sec-fetch-mode", "cors"),
        ("x-xsrf-token", s.xsrf.as_str()),
    ];
    assert!(freeze(&t, &s.cookie, &fetch).await < 300);
    // The header alone passes whatever the browser says; a client without Fetch
    // Metadata (another program) is not refused on that ground.
    let mut with_token = CROSS_SITE_LINK.to_vec();
    with_token.push(("x-xsrf-token", s.xsrf.as_str()));
    assert!(freeze(&t, &s.cookie, &with_token).await < 300);
    assert!(freeze(&t, &s.cookie, &[]).await < 300);
    let (status, _) = s.call(&t, Method::GET, app::model::cart::PIPE, None).await;
    assert!(status < 300);

    // A link to the search call plants nothing in the member's recent searches.
    let session = t.member_session(1).await;
    let before = recent_count(&t, &session).await;
    let planted = t
        .client
        .get(t.url("/api/catalog/v8/search/items?q=planted"))
        .header("cookie", &session)
        .header("sec-fetch-site", "cross-site")
        .header("sec-fetch-mode", "navigate")
        .send()
        .await
        .unwrap();
    assert_eq!(planted.status(), 403);
    let fn_planted = t
        .client
        .get(t.url("/api/fn/search/page?site_id=1&q=planted"))
        .header("cookie", &session)
        .header("sec-fetch-site", "cross-site")
        .header("sec-fetch-mode", "navigate")
        .send()
        .await
        .unwrap();
    assert_eq!(fn_planted.status(), 403);
    assert_eq!(recent_count(&t, &session).await, before);
    // The app's own search (a same-origin fetch) still records the query.
    let own = t
        .client
        .get(t.url("/api/catalog/v8/search/items?q=robe"))
        .header("cookie", &session)
        .header("sec-fetch-site", "same-origin")
        .header("sec-fetch-mode", "cors")
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
    // Anonymous visitors change nothing there and are not refused.
    let anonymous = t
        .client
        .get(t.url("/api/catalog/v8/search/items?q=robe"))
        .header("sec-fetch-site", "cross-site")
        .header("sec-fetch-mode", "navigate")
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 200);
}

// L12 ------------------------------------------------------------------------------------

#[tokio::test]
async fn the_print_page_and_every_other_response_have_a_strict_policy() {
    let t = start(Backend::Sqlite).await;
    let s = shopper(&t, 1).await;
    let (status, body) = s
        .call(&t, Method::POST, "/api/cartproxy/v1/vouchers/print", None)
        .await;
    assert_eq!(status, 200, "{body}");
    let url = body["printUrl"].as_str().unwrap().to_string();
    let path = url
        .find("/vouchers/print/")
        .map(|i| url[i..].to_string())
        .unwrap();
    let page = t.get(&path).await;
    assert_eq!(page.status(), 200);
    let csp = header(&page, "content-security-policy");
    for part in [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(part), "{csp}");
    }
    let html = page.text().await.unwrap();
    assert!(!html.contains("onload"), "{html}");
    // Its one script is the print module, a file of the shop's own: nothing runs inline.
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert_eq!(html.matches("<script").count(), 1, "{html}");
    assert!(
        html.contains("<script type=\"module\" src=\"/js/print"),
        "{html}"
    );
    assert!(html.contains("<body data-print-on-load>"), "{html}");

    // What sets no policy of its own gets the strictest one.
    let fallback = "default-src 'none'; frame-ancestors 'none'";
    for path in [
        "/api/openapi.json",
        "/api/catalog/v8/search/items?q=robe",
        "/robots.txt",
        "/vouchers/print/unknown",
    ] {
        let res = t.get(path).await;
        assert_eq!(header(&res, "content-security-policy"), fallback, "{path}");
    }
    // The API browser loads its own script and styles and fetches the document.
    let docs = header(&t.get("/api/docs").await, "content-security-policy");
    for part in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(docs.contains(part), "{docs}");
    }
    assert!(!docs.contains("unsafe-eval"), "{docs}");
    // Pages keep their nonce'd policy.
    let page = header(&t.get("/gr/aboutus").await, "content-security-policy");
    assert!(page.contains("script-src 'self' 'nonce-"), "{page}");
}

// L14 ------------------------------------------------------------------------------------

/// Words of serde's and axum's own messages that name our fields or types.
const LEAKS: [&str; 11] = [
    "Args|",
    "duplicate field",
    "deserialize",
    "missing field",
    "invalid type",
    "expected",
    "Cannot parse",
    "Invalid URL",
    "line 1",
    "Content-Type",
    "_xsrf",
];

async fn assert_standard_error(res: reqwest::Response, what: &str) {
    let status = res.status().as_u16();
    assert!((400..500).contains(&status), "{what}: {status}");
    let content_type = header(&res, "content-type");
    let text = res.text().await.unwrap();
    assert!(
        content_type.starts_with("application/json"),
        "{what}: {content_type} {text}"
    );
    for leak in LEAKS {
        assert!(!text.contains(leak), "{what} leaks {leak:?}: {text}");
    }
    let body: Value = serde_json::from_str(&text).unwrap();
    assert!(body["error_code"].is_string(), "{what}: {text}");
    // A translation key, not a message.
    assert!(
        body["error_description"]
            .as_str()
            .is_some_and(|k| k.contains('.') && !k.contains(' ')),
        "{what}: {text}"
    );
}

#[tokio::test]
async fn malformed_requests_get_the_standard_error_body() {
    let t = start(Backend::Sqlite).await;
    let s = shopper(&t, 1).await;
    let send = |method: Method, path: &str| {
        s.client
            .request(method, t.url(path))
            .header("cookie", &s.cookie)
            .header("X-XSRF-TOKEN", &s.xsrf)
    };
    // Path parameters that do not parse.
    for (method, path) in [
        (Method::DELETE, "/api/catalog/v1/search/recent/not-a-number"),
        (Method::GET, "/api/orders/v1/orders/99999999999999999999999"),
        (Method::PUT, "/api/catalog/v2/sale/x/item/y/favorite"),
    ] {
        let res = send(method.clone(), path).send().await.unwrap();
        assert_standard_error(res, &format!("{method} {path}")).await;
    }
    // A query string that does not parse (a field given twice).
    let res = send(
        Method::GET,
        "/gr/authentication/autologin?cypher=a&cypher=b",
    )
    .send()
    .await
    .unwrap();
    assert_standard_error(res, "autologin query").await;
    // JSON bodies: not JSON, the wrong shape, the wrong content type.
    for (path, body, content_type) in [
        (
            "/api/authentication/v1/login",
            "{\"email\":",
            "application/json",
        ),
        (
            "/api/authentication/v1/login",
            "{\"email\": 5}",
            "application/json",
        ),
        (
            "/api/authentication/v1/login",
            "[1,2,3]",
            "application/json",
        ),
        (
            "/api/postsales/v1/account/profile",
            "{\"firstName\": []}",
            "application/json",
        ),
        ("/api/popins/v1/1/1", "{}", "text/plain"),
        (
            "/api/popins/v1/1/1",
            "{\"accepted\": \"yes\"}",
            "application/json",
        ),
    ] {
        let res = send(Method::POST, path)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_standard_error(res, &format!("{path} with {body} as {content_type}")).await;
    }
    // HTML forms: a path that does not parse, a form without its fields.
    let res = send(Method::POST, "/find/recent/not-a-number/delete")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("_xsrf=x")
        .send()
        .await
        .unwrap();
    assert_standard_error(res, "form path").await;
    let res = send(Method::POST, "/find/recent/1/delete")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("nothing=here")
        .send()
        .await
        .unwrap();
    assert_standard_error(res, "form fields").await;
    let res = send(Method::POST, "/gr/authentication/form")
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_standard_error(res, "form as JSON").await;
}

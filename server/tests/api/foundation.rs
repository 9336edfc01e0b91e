//! The foundation against real SQLite and PostgreSQL: pages and access rules, sites,
//! translations, SEO files, demo data, health, OpenAPI.
use crate::helpers::{both, cookie_value, start, Backend, TestApp};

async fn pages_resolve_sites_and_access_rules(t: TestApp) {
    // French home, complete HTML without scripts.
    let res = t.get("/").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("lang=\"fr-FR\""), "html lang");
    assert!(html.contains("Se connecter"), "French login element");
    assert!(
        html.contains("data-testid=\"sale-grid\""),
        "sales are in the server HTML"
    );
    assert!(html.contains("\u{a0}€"), "euro prices formatted for fr-FR");

    // German site through the query; the cookie remembers it.
    let res = t.get("/?site=2").await;
    assert_eq!(res.status(), 200);
    let set_cookie: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(
        set_cookie.iter().any(|c| c.starts_with("site=2;")),
        "{set_cookie:?}"
    );
    let html = res.text().await.unwrap();
    assert!(html.contains("lang=\"de-DE\"") && html.contains("Anmelden"));
    let html = t.get_with_cookie("/", "site=2").await.text().await.unwrap();
    assert!(html.contains("lang=\"de-DE\""), "cookie selects the site");

    // Sister brand theme.
    let html = t.get("/?site=66").await.text().await.unwrap();
    assert!(html.contains("theme-violeta") && html.contains("Violeta"));

    // Members-only pages redirect anonymous visitors with the prefixed ReturnUrl.
    let res = t.get("/catalog/1001/10010?page=2").await;
    assert_eq!(res.status(), 302);
    assert_eq!(
        res.headers()["location"],
        "/gr/authentication?ReturnUrl=/gr/catalog/1001/10010%3Fpage%3D2"
    );
    let res = t.get("/gr/my-orders").await;
    assert_eq!(
        res.headers()["location"],
        "/gr/authentication?ReturnUrl=/gr/my-orders"
    );

    // Crawlable and open-door pages are served to anyone.
    for path in [
        "/gr/authentication",
        "/gr/registration",
        "/gr/portal",
        "/aboutus",
        "/find",
        "/c/x/1001/10010",
    ] {
        assert_eq!(t.get(path).await.status(), 200, "{path}");
    }

    // A member (any valid session row) reaches members-only pages.
    let cookie = t.member_session(1).await;
    let res = t.get_with_cookie("/cart", &cookie).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Mon panier") && html.contains("Bonjour Camille"));
    // An unknown or expired token is not a session.
    let res = t
        .get_with_cookie("/cart", "rosace_session=00000000000000000000000000000000")
        .await;
    assert_eq!(res.status(), 302);

    // Unknown paths: localized 404.
    let res = t.get("/no/such/page?site=4").await;
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().contains("Pagina non trovata"));
}

both!(
    pages_resolve_sites_and_access_rules,
    pages_sites_and_access_on_sqlite,
    pages_sites_and_access_on_postgres
);

async fn demo_data_covers_every_site(t: TestApp) {
    let now = app::platform::state::now();
    for site in app::site::SITES.iter() {
        let live = app::home::store::live_sales(&t.app.state.db, site.site_id, now)
            .await
            .unwrap();
        assert_eq!(
            live.len(),
            server::demo::SALES_PER_SITE as usize,
            "site {}",
            site.site_id
        );
        assert!(live
            .iter()
            .all(|s| s.end_date > now && s.min_price_cents.is_some()));
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM members").await, 22);
    assert!(
        t.count("SELECT COUNT(*) FROM product_options WHERE stock > 0")
            .await
            > 1000
    );
    // Travel: 3 sales of 12 offers per site, each with seasons and a few sold-out days.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE campaign_kind = 'TRAVEL'")
            .await,
        33
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM travel_offers").await, 33 * 12);
    assert!(t.count("SELECT COUNT(*) FROM travel_seasons").await > 33 * 12 * 4);
    assert!(
        t.count("SELECT COUNT(*) FROM travel_departures WHERE sold = places")
            .await
            > 100
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM travel_destinations WHERE kind = 'city'")
            .await,
        11 * 12
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM products WHERE sale_id = 1001")
            .await,
        60
    );
    assert!(t.count("SELECT COUNT(*) FROM homes").await >= 22);
    // Starting again neither duplicates nor fails.
    let before = t.count("SELECT COUNT(*) FROM products").await;
    server::demo::ensure(&t.app.state.db, now + 10 * 86_400)
        .await
        .unwrap();
    assert_eq!(t.count("SELECT COUNT(*) FROM products").await, before);
    let expired: i64 = t
        .count(&format!(
            "SELECT COUNT(*) FROM sales WHERE ends_at <= {}",
            now + 10 * 86_400
        ))
        .await;
    assert_eq!(expired, 0, "dates move with now");
    // The demo password is stored as argon2id and verifies.
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM members WHERE site_id = 1")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(app::platform::password::verify(
        server::demo::DEMO_PASSWORD,
        &hash
    ));
}

both!(
    demo_data_covers_every_site,
    demo_data_on_sqlite,
    demo_data_on_postgres
);

#[tokio::test]
async fn translations_endpoint_serves_merged_tables_with_cache_headers() {
    let t = start(Backend::Sqlite).await;
    let res = t
        .get("/api/content/v1/translations?locale=de-de&fallbackLocale=fr-fr&device=web")
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "public, max-age=300");
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["locale"], "de-de");
    assert_eq!(body["translations"]["header.login"], "Anmelden");
    assert!(body["translations"]["dsaform.message.security"].is_string());
    let res = t.get("/api/content/v1/translations?device=web").await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn seo_basics_title_canonical_hreflang_robots_sitemap() {
    let t = start(Backend::Sqlite).await;
    let html = t.get("/gr/aboutus?site=7").await.text().await.unwrap();
    assert!(html.contains("<title>"), "title");
    assert!(html.contains("name=\"description\""));
    assert!(
        html.contains("<link href=\"http://shop.test/gr/aboutus?site=7\" rel=\"canonical\">"),
        "{html}"
    );
    // Alternates to the same page on the brand's nine sites.
    assert_eq!(html.matches("rel=\"alternate\"").count(), 9);
    assert!(html.contains(
        "<link href=\"http://shop.test/gr/aboutus?site=71\" hreflang=\"nl-BE\" rel=\"alternate\">"
    ));

    let robots = t.get("/robots.txt").await.text().await.unwrap();
    assert!(robots.contains("Sitemap: http://shop.test/sitemap.xml?site=1"));
    let res = t.get("/sitemap.xml?site=3").await;
    assert_eq!(res.status(), 200);
    let xml = res.text().await.unwrap();
    assert!(xml.contains("<loc>http://shop.test/gr/registration?site=3</loc>"));
    assert!(
        xml.matches("<loc>http://shop.test/c/").count() == 24,
        "live sale catalogs"
    );
}

#[tokio::test]
async fn health_openapi_headers_and_request_id() {
    let t = start(Backend::Sqlite).await;
    let res = t.get("/health").await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("x-request-id"));
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    // Pages carry a CSP whose nonce is the one on Leptos' inline script.
    let page = t.get("/").await;
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let html = page.text().await.unwrap();
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap()
        .to_string();
    assert!(nonce.len() >= 16, "{csp}");
    assert!(html.contains(&format!("nonce=\"{nonce}\"")));
    assert!(csp.contains("frame-ancestors 'none'"));
    let doc: serde_json::Value = t.get("/api/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    // Every documented path and method is routed. OPTIONS has no handler anywhere: a routed
    // path answers it with 405, an unknown one with the fallback's 404. A documented method
    // must not be 405 (state changes carry a valid XSRF token, so the CSRF layer lets them
    // through to routing).
    let xsrf = t.xsrf().await;
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() >= 40, "{} documented paths", paths.len());
    for (path, item) in paths {
        let concrete: String = path
            .split('/')
            .map(|seg| if seg.starts_with('{') { "1" } else { seg })
            .collect::<Vec<_>>()
            .join("/");
        let res = t
            .client
            .request(reqwest::Method::OPTIONS, t.url(&concrete))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405, "{path} is routed");
        for (method, op) in item.as_object().unwrap() {
            let method: reqwest::Method = method.to_uppercase().parse().unwrap();
            let res = t
                .client
                .request(method.clone(), t.url(&concrete))
                .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
                .header("x-xsrf-token", &xsrf)
                .send()
                .await
                .unwrap();
            assert_ne!(res.status(), 405, "{method} {path} is routed");
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path} documents its answers"
            );
        }
    }
    // Bodies are real schemas, not prose.
    assert!(doc["components"]["schemas"]["Cart"]["properties"]["items"].is_object());
    assert!(doc["components"]["schemas"]["ErrorBody"]["properties"]["error_code"].is_object());
    assert_eq!(t.get("/api/nothing/here").await.status(), 404);
}

#[tokio::test]
async fn generated_images_are_svg() {
    let t = start(Backend::Sqlite).await;
    for path in [
        "/img/logo/66.svg",
        "/img/sale/1001/banner.svg",
        "/img/product/100101.svg",
        "/img/favicon/1.svg",
    ] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(res.headers()["content-type"], "image/svg+xml");
        assert!(res.text().await.unwrap().starts_with("<svg"));
    }
    assert_eq!(t.get("/img/logo/5.svg").await.status(), 404);
}

/// What a client sends wrong gets the documented answer, in the standard body, never
/// axum's plain-text 400, 415 or 422 (found by scripts/fuzz.sh): the document lists 403
/// and the XSRF header on every state change, 400 on every call with a path parameter or a
/// body, 413 on every call with a body, and the calls answer them.
async fn malformed_requests_get_documented_answers(t: TestApp) {
    let doc: serde_json::Value = t.get("/api/openapi.json").await.json().await.unwrap();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            if method != "get" && path.starts_with("/api/") {
                assert!(responses.contains_key("403"), "{method} {path}: 403");
                assert!(
                    params.iter().any(|p| p["in"] == "header"
                        && p["name"]
                            .as_str()
                            .unwrap()
                            .eq_ignore_ascii_case("x-xsrf-token")
                        && p["required"] == true),
                    "{method} {path}: X-XSRF-TOKEN"
                );
            }
            if params.iter().any(|p| p["in"] == "path") || op.get("requestBody").is_some() {
                assert!(responses.contains_key("400"), "{method} {path}: 400");
            }
            if op.get("requestBody").is_some() {
                assert!(responses.contains_key("413"), "{method} {path}: 413");
            }
            // Load shedding and the request timeout sit in front of every call.
            assert!(responses.contains_key("503"), "{method} {path}: 503");
            assert!(responses.contains_key("408"), "{method} {path}: 408");
        }
    }

    let is_error_body = |body: &serde_json::Value, code: &str| {
        body["error_code"] == code && body["error_description"].is_string()
    };
    // A path number out of range.
    for path in [
        "/api/catalog/v2/sale/9223372036854775808",
        "/api/catalog/v1/sale/1/item/x/options",
        "/api/travel/v1/durations/99999999999999999999/dates",
    ] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 400, "{path}");
        let body: serde_json::Value = res.json().await.expect("a JSON body");
        assert!(is_error_body(&body, "bad_path"), "{path}: {body}");
    }
    // Whether an email has an account, on a site id that is no site number.
    let res = t
        .get("/api/authentication/v1/members/a%40b.test/sites/70000/exists")
        .await;
    assert_eq!(res.status(), 404);
    let body: serde_json::Value = res.json().await.unwrap();
    assert!(is_error_body(&body, "not_found"), "{body}");

    // Bodies: missing, not JSON, or of another shape.
    let xsrf = t.xsrf().await;
    let post = |path: &'static str, body: Option<&'static str>, cookie: String, xsrf: String| {
        let mut req = t
            .client
            .post(t.url(path))
            .header("cookie", cookie)
            .header("x-xsrf-token", xsrf);
        if let Some(body) = body {
            req = req.header("content-type", "application/json").body(body);
        }
        async move {
            let res = req.send().await.unwrap();
            let status = res.status().as_u16();
            (
                status,
                res.json::<serde_json::Value>().await.unwrap_or_default(),
            )
        }
    };
    let anon = crate::helpers::xsrf_cookie(&xsrf);
    for path in [
        "/api/frontend-logger/v1/metrics",
        "/api/authentication/v1/activate",
        "/api/authentication/v1/password/recover",
        "/api/authentication/v1/password/update",
    ] {
        for body in [None, Some("{\"tags\": false, \"siteId\": -1}"), Some("[")] {
            let (status, answer) = post(path, body, anon.clone(), xsrf.clone()).await;
            assert_eq!(status, 400, "{path} {body:?}");
            assert!(
                answer["error_code"].is_string(),
                "{path} {body:?}: {answer}"
            );
        }
    }
    // Autologin answers an unreadable body like a cypher that is not valid.
    let (status, answer) = post(
        "/api/authentication/v1/autologin",
        Some("null"),
        anon.clone(),
        xsrf.clone(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(answer["redirectUrl"], "/", "{answer}");
    assert!(answer["result"].is_u64(), "{answer}");

    // A body past the limit: 413 in the standard body, as documented.
    let res = t
        .client
        .post(t.url("/api/frontend-logger/v1/metrics"))
        .header("cookie", &anon)
        .header("x-xsrf-token", &xsrf)
        .header("content-type", "application/json")
        .body(format!("{{\"metrics\": [\"{}\"]}}", "x".repeat(70 * 1024)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    let body: serde_json::Value = res.json().await.unwrap();
    assert!(is_error_body(&body, "too_large"), "{body}");

    // A member's calls with a body of another shape.
    let session = t.member_session(1).await;
    let page = t.get_with_cookie("/gr/aboutus", &session).await;
    let member_xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let cookie = format!("{session}; {}", crate::helpers::xsrf_cookie(&member_xsrf));
    for (path, body) in [
        ("/api/partner/v1/adot-optin", None),
        (
            "/api/partner/v1/adot-optin",
            Some("{\"IsAdotOptinAccepted\": 1}"),
        ),
        ("/api/popins/v1/1/1", Some("{\"accepted\": \"yes\"}")),
        ("/api/popins/v1/1/99999999999999999999", Some("{}")),
        ("/api/travel/v1/checkout", Some("{\"offerId\": []}")),
        ("/api/travel/v1/bookings/1/pay", None),
    ] {
        let (status, answer) = post(path, body, cookie.clone(), member_xsrf.clone()).await;
        assert_eq!(status, 400, "{path} {body:?}: {answer}");
        assert!(
            answer["error_code"].is_string(),
            "{path} {body:?}: {answer}"
        );
    }
}

both!(
    malformed_requests_get_documented_answers,
    malformed_requests_get_documented_answers_on_sqlite,
    malformed_requests_get_documented_answers_on_postgres,
);

//! The search REST calls: items, filters, suggestions, recent queries.
use serde_json::Value;

use super::{ids, pick_product, urlencode, with_typo, with_xsrf};
use crate::helpers::{both, json, TestApp};

/// A second member on a site, with a session.
async fn other_member_session(t: &TestApp, site_id: u16) -> String {
    let now = app::platform::state::now();
    sqlx::query(
        "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status, created_at)
         VALUES ($1, 'search-other@rosace.test', 'x', 0, 'Other', 'Member', 1, $2)",
    )
    .bind(i64::from(site_id))
    .bind(now)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let id: i64 =
        sqlx::query_scalar("SELECT id FROM members WHERE email = 'search-other@rosace.test'")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    let token = app::platform::session::create(&t.app.state.db, id, false, now)
        .await
        .unwrap();
    format!("{}={token}", app::platform::session::COOKIE)
}

async fn delete(t: &TestApp, id: i64, cookie: &str, xsrf: &str) -> u16 {
    t.client
        .delete(t.url(&format!("/api/catalog/v1/search/recent/{id}")))
        .header("cookie", cookie)
        .header("X-XSRF-TOKEN", xsrf)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn search_calls(t: TestApp) {
    // A typo finds the product, in its brand's products.
    let (product, word, brand) = pick_product(&t, 1, 1001).await;
    let typo = with_typo(&word);
    let q = format!("{typo} {brand}");
    let (status, found) = json(
        &t,
        &format!(
            "/api/catalog/v8/search/items?q={}&siteId=1&limit=96",
            urlencode(&q)
        ),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert!(ids(&found).contains(&product), "{q} finds {product}");
    assert_eq!(found["currentPage"], 1);
    // Every hit has the word; the brand's own products (a brand match weighs more than the
    // sale's name) come first.
    assert!(found["products"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["name"].as_str().unwrap().starts_with(&word)));
    assert_eq!(found["products"][0]["brand"], brand.as_str());
    assert_eq!(
        found["totalProductsCount"].as_i64().unwrap(),
        ids(&found).len() as i64
    );

    // One word: filters with counts that add up, a brand filter, sort and clamped paging.
    let w = urlencode(&word.to_lowercase());
    let (_, all) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={w}&limit=96"),
        "",
    )
    .await;
    let total = all["totalProductsCount"].as_i64().unwrap();
    assert!(total > 1);
    let (status, filters) = json(&t, &format!("/api/catalog/v4/search/filters?q={w}"), "").await;
    assert_eq!(status, 200);
    let brands = filters["filters"][0]["options"].as_array().unwrap().clone();
    assert_eq!(
        brands
            .iter()
            .map(|b| b["count"].as_i64().unwrap())
            .sum::<i64>(),
        total
    );
    let (_, by_brand) = json(
        &t,
        &format!(
            "/api/catalog/v8/search/items?q={w}&brand={}",
            brands[0]["slug"].as_str().unwrap()
        ),
        "",
    )
    .await;
    assert_eq!(by_brand["totalProductsCount"], brands[0]["count"]);
    let (_, sorted) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={w}&sort=price_asc&limit=96"),
        "",
    )
    .await;
    let prices: Vec<i64> = sorted["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["price"]["value"].as_i64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|p| p[0] <= p[1]));
    let (_, clamped) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={w}&limit=100000&offset=-5"),
        "",
    )
    .await;
    assert_eq!(
        (clamped["limit"].as_i64(), clamped["offset"].as_i64()),
        (Some(96), Some(0))
    );
    let (_, second) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={w}&limit=1&offset=1"),
        "",
    )
    .await;
    assert_eq!(second["currentPage"], 2);
    assert_eq!(ids(&second), vec![ids(&all)[1]]);

    // Prefix suggestions: a completion of the first letters, products, and the generic one.
    let prefix: String = word.to_lowercase().chars().take(3).collect();
    let (status, sugg) = json(
        &t,
        &format!("/api/catalog/v1/search/suggestions?query={prefix}&siteId=1"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    let list = sugg["suggestions"].as_array().unwrap();
    let kinds: Vec<&str> = list.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert!(
        list.iter()
            .any(|s| s["kind"] == "autocompletion"
                && s["label"].as_str().unwrap().starts_with(&prefix)),
        "{list:?}"
    );
    assert!(kinds.contains(&"regular"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"generic"));
    assert!(!kinds.contains(&"history"), "visitors have no history");
    let regular: Vec<&str> = list
        .iter()
        .filter(|s| s["kind"] == "regular")
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert!(regular.len() <= 5);
    let distinct: std::collections::HashSet<&&str> = regular.iter().collect();
    assert_eq!(distinct.len(), regular.len(), "one entry per product name");
    let res = t
        .client
        .get(t.url(&format!(
            "/api/catalog/v1/search/suggestions?query={prefix}&siteId=1"
        )))
        .header("x-vp-device", "webapp")
        .send()
        .await
        .unwrap();
    let compact: Value = res.json().await.unwrap();
    assert!(
        compact["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["kind"] == "regular")
            .count()
            <= 3
    );
    // The spec's numeric values (7 the web app, 10 the web) answer as the names do.
    let mut answers = Vec::new();
    for device in ["7", "webapp", "10", "web"] {
        let res = t
            .client
            .get(t.url(&format!(
                "/api/catalog/v1/search/suggestions?query={prefix}&siteId=1"
            )))
            .header("x-vp-device", device)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{device}");
        answers.push(res.json::<Value>().await.unwrap());
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[2], answers[3]);
    assert_ne!(
        answers[0], answers[2],
        "the web app's list is the compact one"
    );
    let res = t
        .client
        .get(t.url("/api/catalog/v1/search/suggestions?query=a"))
        .header("x-vp-device", "fridge")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    // A sale by its name: a salesbanner suggestion linking to the catalog.
    let (_, sale) = json(&t, "/api/catalog/v2/sale/1001", "").await;
    let sale_name = sale["name"].as_str().unwrap().to_string();
    let (_, sugg) = json(
        &t,
        &format!(
            "/api/catalog/v1/search/suggestions?query={}",
            urlencode(&sale_name)
        ),
        "",
    )
    .await;
    assert!(sugg["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["kind"] == "salesbanner"
            && s["id"] == 1001
            && s["url"].as_str().unwrap().ends_with("/1001/0")));
    // The SEO variant (spec 000 §4): a visitor's suggestions lead to the open-door pages
    // made for search engines, a member's to the member routes.
    let urls = |sugg: &serde_json::Value| -> Vec<String> {
        sugg["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["url"].as_str().map(str::to_string))
            .collect()
    };
    let visitor = urls(&sugg);
    assert!(
        visitor
            .iter()
            .any(|u| u.starts_with("/c/") && u.ends_with("/1001/0")),
        "{visitor:?}"
    );
    assert!(!visitor
        .iter()
        .any(|u| u.starts_with("/catalog/") || u.starts_with("/product/")));
    let session = t.member_session(1).await;
    let (_, member) = json(
        &t,
        &format!(
            "/api/catalog/v1/search/suggestions?query={}",
            urlencode(&sale_name)
        ),
        &session,
    )
    .await;
    let member = urls(&member);
    assert!(
        member.contains(&"/catalog/1001/0".to_string()),
        "{member:?}"
    );
    assert!(!member
        .iter()
        .any(|u| u.starts_with("/c/") || u.starts_with("/seo-product/")));

    // The Spanish site searches its own sales, in Spanish, and only them.
    let (_, es_word, _) = pick_product(&t, 3, 3001).await;
    let esq = urlencode(&es_word);
    let (_, es) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={esq}&siteId=3&limit=96"),
        "",
    )
    .await;
    let es_sales: Vec<i64> = es["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["saleId"].as_i64().unwrap())
        .collect();
    assert!(!es_sales.is_empty());
    assert!(
        es_sales.iter().all(|s| s / 1000 == 3),
        "site 3 sales only: {es_sales:?}"
    );
    let (_, fr) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={esq}&siteId=1"),
        "",
    )
    .await;
    assert_eq!(fr["totalProductsCount"], 0, "{es_word} is not French");

    // Too long: 400 with the localized error body; 200 characters is fine.
    let long = "a".repeat(201);
    for path in [
        format!("/api/catalog/v8/search/items?q={long}"),
        format!("/api/catalog/v4/search/filters?q={long}"),
        format!("/api/catalog/v1/search/suggestions?query={long}"),
    ] {
        let (status, body) = json(&t, &path, "").await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(body["error_description"], "search.errors.too_long");
    }
    let (status, _) = json(
        &t,
        &format!("/api/catalog/v8/search/items?q={}", "a".repeat(200)),
        "",
    )
    .await;
    assert_eq!(status, 200);

    // Visitors have no recent queries: 401 with the error body; a search records nothing.
    let (status, body) = json(&t, "/api/catalog/v1/search/recent", "").await;
    assert_eq!(status, 401);
    assert_eq!(body["error_code"], "unauthorized");
    let anon_xsrf = t.xsrf().await;
    assert_eq!(
        delete(&t, 1, &crate::helpers::xsrf_cookie(&anon_xsrf), &anon_xsrf).await,
        401
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM search_queries").await, 0);

    // A member's searches are recorded: newest first, one per query whatever the case.
    let session = t.member_session(1).await;
    let (cookie, xsrf) = with_xsrf(&t, &session).await;
    for q in [typo.as_str(), "Robe", "robe", "ROBE "] {
        let (status, _) = json(
            &t,
            &format!("/api/catalog/v8/search/items?q={}", urlencode(q)),
            &session,
        )
        .await;
        assert_eq!(status, 200);
    }
    // Not at offset 0: not recorded.
    json(
        &t,
        "/api/catalog/v8/search/items?q=pagination&offset=48",
        &session,
    )
    .await;
    let (status, recent) = json(&t, "/api/catalog/v1/search/recent", &session).await;
    assert_eq!(status, 200);
    let queries: Vec<&str> = recent["recentQueries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["query"].as_str().unwrap())
        .collect();
    assert_eq!(queries, vec!["ROBE", typo.as_str()]);
    // History suggestions: all under an empty box, the matching ones while typing.
    let (_, sugg) = json(&t, "/api/catalog/v1/search/suggestions?query=", &session).await;
    let history: Vec<&str> = sugg["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "history")
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(history, vec!["ROBE", typo.as_str()]);
    let (_, sugg) = json(&t, "/api/catalog/v1/search/suggestions?query=ro", &session).await;
    assert_eq!(sugg["suggestions"][0]["kind"], "history");
    assert_eq!(sugg["suggestions"][0]["label"], "ROBE");

    // Another member can't delete it; the owner can, once.
    let first_id = recent["recentQueries"][0]["id"].as_i64().unwrap();
    let other = other_member_session(&t, 1).await;
    let (other_cookie, other_xsrf) = with_xsrf(&t, &other).await;
    assert_eq!(delete(&t, first_id, &other_cookie, &other_xsrf).await, 404);
    let (_, others) = json(&t, "/api/catalog/v1/search/recent", &other).await;
    assert_eq!(others["recentQueries"].as_array().unwrap().len(), 0);
    assert_eq!(
        delete(&t, first_id, &cookie, "forged.token").await,
        403,
        "CSRF header required"
    );
    assert_eq!(delete(&t, first_id, &cookie, &xsrf).await, 204);
    assert_eq!(delete(&t, first_id, &cookie, &xsrf).await, 404);
    let (_, recent) = json(&t, "/api/catalog/v1/search/recent", &session).await;
    assert_eq!(recent["recentQueries"].as_array().unwrap().len(), 1);

    // Only the last ten are kept.
    for n in 0..12 {
        json(
            &t,
            &format!("/api/catalog/v8/search/items?q=query{n}"),
            &session,
        )
        .await;
    }
    let (_, recent) = json(&t, "/api/catalog/v1/search/recent", &session).await;
    let list = recent["recentQueries"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    assert_eq!(list[0]["query"], "query11");
    assert_eq!(list[9]["query"], "query2");

    // A sale that ends leaves the results at once (the index is a cache; hits are checked
    // against the live sales).
    sqlx::query("UPDATE sales SET ends_at = $1 WHERE id = 1001")
        .bind(app::platform::state::now() - 1)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, after) = json(
        &t,
        &format!(
            "/api/catalog/v8/search/items?q={}&siteId=1&limit=96",
            urlencode(&q)
        ),
        "",
    )
    .await;
    assert!(!ids(&after).contains(&product));
    assert!(after["products"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["saleId"] != 1001));
}

both!(
    search_calls,
    search_calls_on_sqlite,
    search_calls_on_postgres,
);

/// Suggestions for a query whose last separator takes more than one byte (`«`, `’`, `©`):
/// the completion keeps it (the server panicked and dropped the connection; found by
/// scripts/fuzz.sh).
async fn suggestions_after_a_multibyte_separator(t: TestApp) {
    for query in ["robe «l", "l’ro", "©ro", "\u{80}0"] {
        let (status, body) = json(
            &t,
            &format!(
                "/api/catalog/v1/search/suggestions?query={}&siteId=1",
                urlencode(query)
            ),
            "",
        )
        .await;
        assert_eq!(status, 200, "{query}");
        let head = query.rsplit_once('«').map(|(h, _)| format!("{h}«"));
        for s in body["suggestions"].as_array().expect("a list") {
            if let (Some(head), "autocompletion") = (&head, s["kind"].as_str().unwrap_or("")) {
                assert!(
                    s["label"].as_str().unwrap().starts_with(head.as_str()),
                    "{s}"
                );
            }
        }
    }
    let (_, body) = json(
        &t,
        &format!(
            "/api/catalog/v1/search/suggestions?query={}&siteId=1",
            urlencode("robe «")
        ),
        "",
    )
    .await;
    let completions: Vec<&Value> = body["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "autocompletion")
        .collect();
    assert!(
        completions.is_empty(),
        "nothing being typed: {completions:?}"
    );
}

both!(
    suggestions_after_a_multibyte_separator,
    suggestions_after_a_multibyte_separator_on_sqlite,
    suggestions_after_a_multibyte_separator_on_postgres,
);

/// The search request's origin (spec 000 §4): 1, the default, searches every live sale of
/// the site; 0 is a sale's catalog searching itself: only that sale's items, no sale hits,
/// and no recent query kept. Anything else is refused in the site's language.
async fn a_catalog_search_stays_in_its_sale(t: TestApp) {
    let session = t.member_session(1).await;
    let items = |query: String| {
        let (t, session) = (&t, &session);
        async move {
            json(
                t,
                &format!("/api/catalog/v8/search/items?q=robe&limit=96{query}"),
                session,
            )
            .await
        }
    };
    let (status, everywhere) = items(String::new()).await;
    assert_eq!(status, 200);
    let sale_of = |p: &Value| p["saleId"].as_i64().unwrap();
    let products = everywhere["products"].as_array().unwrap();
    let sale = sale_of(&products[0]);
    assert!(
        products.iter().any(|p| sale_of(p) != sale),
        "the demo has robes in more than one sale"
    );
    let (_, same) = items("&origin=1".into()).await;
    assert_eq!(ids(&same), ids(&everywhere), "1 is the default");
    let (status, within) = items(format!("&origin=0&saleId={sale}")).await;
    assert_eq!(status, 200, "{within}");
    let found = within["products"].as_array().unwrap();
    assert!(!found.is_empty());
    assert!(found.iter().all(|p| sale_of(p) == sale));
    let in_sale: Vec<i64> = products
        .iter()
        .filter(|p| sale_of(p) == sale)
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert!(in_sale.iter().all(|id| ids(&within).contains(id)));
    assert_eq!(
        within["totalProductsCount"].as_i64().unwrap(),
        found.len() as i64
    );
    assert_eq!(within["sales"].as_array().unwrap().len(), 0, "no sale hits");
    // Only the search (origin 1) is kept among the recent queries.
    let (_, recent) = json(&t, "/api/catalog/v1/search/recent", &session).await;
    assert_eq!(
        recent["recentQueries"].as_array().unwrap().len(),
        1,
        "{recent}"
    );
    sqlx::query("DELETE FROM search_queries")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    items(format!("&origin=0&saleId={sale}")).await;
    let (_, recent) = json(&t, "/api/catalog/v1/search/recent", &session).await;
    assert_eq!(
        recent["recentQueries"].as_array().unwrap().len(),
        0,
        "{recent}"
    );
    // A sale of another site or one that is over finds nothing, as in its catalog.
    let (status, other) = items("&origin=0&saleId=4001".into()).await;
    assert_eq!(
        (status, other["totalProductsCount"].as_i64()),
        (200, Some(0))
    );
    // Refusals: 400, the key and the message in the member's site's language.
    for (query, key) in [
        ("&origin=2", "search.errors.unknown_origin"),
        ("&origin=catalog", "search.errors.unknown_origin"),
        ("&origin=%F0%9F%94%8D", "search.errors.unknown_origin"),
        ("&origin=0", "search.errors.sale_required"),
        ("&origin=0&saleId=abc", "search.errors.sale_required"),
        ("&origin=0&saleId=-3", "search.errors.sale_required"),
        (
            "&origin=0&saleId=99999999999999999999",
            "search.errors.sale_required",
        ),
        ("&saleId=1001", "search.errors.sale_for_catalog"),
        ("&origin=1&saleId=1001", "search.errors.sale_for_catalog"),
    ] {
        let (status, body) = items(query.into()).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["error_code"], "invalid_search_origin", "{query}");
        assert_eq!(body["error_description"], key, "{query}");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("0") && message.ends_with('.'),
            "{query}: {body}"
        );
        assert_ne!(message, key, "{query}: a sentence, not the key");
    }
}
both!(
    a_catalog_search_stays_in_its_sale,
    a_catalog_search_stays_in_its_sale_on_sqlite,
    a_catalog_search_stays_in_its_sale_on_postgres,
);

//! Catalog REST calls on SQLite and PostgreSQL: sale, tree, content paging and filters,
//! item and options, favourites.
use serde_json::Value;

use crate::helpers::{both, cookie_value, json, start, Backend, TestApp};

async fn catalog_calls(t: TestApp) {
    let (status, sale) = json(&t, "/api/catalog/v2/sale/1001", "").await;
    assert_eq!(status, 200);
    assert_eq!(sale["universes"].as_array().unwrap().len(), 3);
    assert_eq!(
        sale["universes"][0]["subUniverses"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(sale["features"]["withQuotationPrice"], false);
    let (status, tree) = json(&t, "/api/catalog/v1/sale/1001/catalogTree", "").await;
    assert_eq!(status, 200);
    let in_tree: usize = tree["universes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["products"].as_array().unwrap().len())
        .sum();
    assert_eq!(in_tree, 60);
    // Another site's sale is not visible here; it is with the site header.
    assert_eq!(json(&t, "/api/catalog/v2/sale/2001", "").await.0, 404);
    let res = t
        .client
        .get(t.url("/api/catalog/v2/sale/2001"))
        .header("x-vp-siteid", "2")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // Paging over the 60 items of the sale: offset 52 gives the last 8.
    let (_, page) = json(
        &t,
        "/api/catalog/v2/sale/1001/catalogContent/0?limit=20&offset=52&requestId=3",
        "",
    )
    .await;
    assert_eq!(
        (
            page["total"].as_i64(),
            page["items"].as_array().unwrap().len(),
            page["requestId"].as_i64()
        ),
        (Some(60), 8, Some(3))
    );
    let (_, all) = json(
        &t,
        "/api/catalog/v2/sale/1001/catalogContent/0?limit=96&sort=price_asc",
        "",
    )
    .await;
    let prices: Vec<i64> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["price"]["value"].as_i64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "sorted by price");
    // Item types (Normal 1, Carrousel 7, Ad 10) and tiers (PREMIUM, SOON, ORDINARY).
    let field = |name: &str| -> std::collections::BTreeSet<String> {
        all["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i[name].to_string())
            .collect()
    };
    assert_eq!(
        field("type").into_iter().collect::<Vec<_>>(),
        ["1", "10", "7"]
    );
    assert_eq!(
        field("tier").into_iter().collect::<Vec<_>>(),
        ["\"ORDINARY\"", "\"PREMIUM\"", "\"SOON\""]
    );

    // A category with nothing in it is not offered: it would lead to an empty page.
    sqlx::query(
        "INSERT INTO universes (id, sale_id, parent_id, title, position) VALUES (1001999, 1001, NULL, 'Vide', 99)",
    )
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();

    // Filters with counts; filtering by one brand gives that count.
    let (_, filters) = json(&t, "/api/catalog/v4/sale/1001/filters/0", "").await;
    let filter = |id: &str| {
        filters["filters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap()
            .clone()
    };
    let brands = filter("brand")["options"].as_array().unwrap().clone();
    let brand_total: i64 = brands.iter().map(|b| b["count"].as_i64().unwrap()).sum();
    assert_eq!(brand_total, 60);
    let first = &brands[0];
    let (_, by_brand) = json(
        &t,
        &format!(
            "/api/catalog/v2/sale/1001/catalogContent/0?brand={}",
            first["slug"].as_str().unwrap()
        ),
        "",
    )
    .await;
    assert_eq!(by_brand["total"], first["count"]);

    // The six filter types: category, checkbox, chip, radio, range, hidden.
    let types: Vec<&str> = filters["filters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["type"].as_str().unwrap())
        .collect();
    for t in ["category", "checkbox", "chip", "radio", "range", "hidden"] {
        assert!(types.contains(&t), "{t} in {types:?}");
    }
    let categories = &filter("category")["options"];
    assert_eq!(
        categories
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["count"].as_i64().unwrap())
            .sum::<i64>(),
        60,
        "the three universes hold the sale's items"
    );
    assert!(
        categories
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["count"].as_i64().unwrap() > 0 && c["label"] != "Vide"),
        "no empty category: {categories}"
    );
    let range = filters["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["type"] == "range")
        .unwrap()
        .clone();
    let (lo, hi) = (
        range["options"][0]["count"].as_i64().unwrap(),
        range["options"][1]["count"].as_i64().unwrap(),
    );
    assert!(lo > 0 && lo < hi, "{lo}..{hi}");
    // A price range in whole units keeps only items within it.
    let (lo_units, hi_units) = (lo / 100, (lo + hi) / 200);
    let (_, cheap) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/catalogContent/0?limit=96&price={lo_units}-{hi_units}"),
        "",
    )
    .await;
    let cheap_items = cheap["items"].as_array().unwrap();
    assert!(!cheap_items.is_empty() && (cheap["total"].as_i64().unwrap()) < 60);
    assert!(cheap_items.iter().all(|i| {
        let p = i["price"]["value"].as_i64().unwrap();
        p >= lo_units * 100 && p <= hi_units * 100 + 99
    }));
    // In stock only (radio): the last-unit item stays while it is available.
    let (_, in_stock) = json(
        &t,
        "/api/catalog/v2/sale/1001/catalogContent/0?limit=96&stock=in",
        "",
    )
    .await;
    assert!(in_stock["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["availability"] != "OutOfStock"));

    // Item and options.
    let item_id = all["items"][0]["id"].as_i64().unwrap();
    let (status, item) = json(&t, &format!("/api/catalog/v2/sale/1001/item/{item_id}"), "").await;
    assert_eq!(status, 200);
    assert_eq!(item["favorite"], false);
    let (status, options) = json(
        &t,
        &format!("/api/catalog/v1/sale/1001/item/{item_id}/options"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert!(options["options"].as_array().unwrap().len() >= 3);
    assert_eq!(
        json(&t, "/api/catalog/v1/sale/1001/item/999/options", "")
            .await
            .0,
        404
    );

    // Favourites: members only; PUT adds, DELETE removes, the flag follows.
    let anon_xsrf = t.xsrf().await;
    let favourite = |method: reqwest::Method, cookie: String, xsrf: String| {
        let t = &t;
        async move {
            t.client
                .request(
                    method,
                    t.url(&format!(
                        "/api/catalog/v2/sale/1001/item/{item_id}/favorite"
                    )),
                )
                .header(
                    "cookie",
                    format!("{cookie}; {}", crate::helpers::xsrf_cookie(&xsrf)),
                )
                .header("X-XSRF-TOKEN", xsrf)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(
        favourite(reqwest::Method::PUT, String::new(), anon_xsrf.clone()).await,
        401
    );
    let session = t.member_session(1).await;
    let page = t.get_with_cookie("/gr/aboutus", &session).await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    assert_eq!(
        favourite(reqwest::Method::PUT, session.clone(), "forged.token".into()).await,
        403
    );
    assert_eq!(
        favourite(reqwest::Method::PUT, session.clone(), xsrf.clone()).await,
        204
    );
    assert_eq!(
        favourite(reqwest::Method::PUT, session.clone(), xsrf.clone()).await,
        204,
        "idempotent"
    );
    let (_, item) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/item/{item_id}"),
        &session,
    )
    .await;
    assert_eq!(item["favorite"], true);
    let (_, content) = json(
        &t,
        "/api/catalog/v2/sale/1001/catalogContent/0?limit=1&sort=price_asc",
        &session,
    )
    .await;
    assert_eq!(content["items"][0]["favorite"], true);
    assert_eq!(
        favourite(reqwest::Method::DELETE, session.clone(), xsrf).await,
        204
    );
    let (_, item) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/item/{item_id}"),
        &session,
    )
    .await;
    assert_eq!(item["favorite"], false);
    assert_eq!(t.count("SELECT COUNT(*) FROM favourites").await, 0);
}

both!(
    catalog_calls,
    catalog_calls_on_sqlite,
    catalog_calls_on_postgres
);

/// The sale catalog page is complete in the server HTML (crawlable) with filter URLs that
/// follow the spec: one brand moves into the path, paging by `page`.
#[tokio::test]
async fn catalog_page_is_server_rendered_with_filter_urls() {
    let t = start(Backend::Sqlite).await;
    let res = t.get("/c/vente/1001/0").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("data-testid=\"items-grid\""));
    assert_eq!(
        html.matches("data-item-id=").count(),
        48,
        "48 items on the first page"
    );
    assert!(html.contains("60 articles"));
    assert!(html.contains("rel=\"next\"") && html.contains("page=2\""));
    // The price form (no scripts): both ends become one range in the links.
    assert!(html.contains("data-testid=\"price-form\""));
    let priced = t
        .get("/c/vente/1001/0?pmin=0&pmax=30")
        .await
        .text()
        .await
        .unwrap();
    let n = priced.matches("data-item-id=").count();
    assert!(n > 0 && n < 48, "{n} items up to 30");
    assert!(priced.contains("price=0-30"));
    let second = t.get("/c/vente/1001/0?page=2").await.text().await.unwrap();
    assert_eq!(
        second.matches("data-item-id=").count(),
        12,
        "the rest on page 2"
    );
    assert!(html.contains("rel=\"canonical\"") && html.contains("hreflang=\"de-DE\""));
    // A brand filter link puts the brand slug into the path.
    let brand_link = html.split("data-filter=\"brand\"").next().unwrap();
    let href = brand_link
        .rsplit("href=\"")
        .next()
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    assert!(
        href.starts_with("/c/vente/1001/0/") && !href.contains("brand="),
        "{href}"
    );
    let res = t.get(&href).await;
    assert_eq!(res.status(), 200);
    let filtered = res.text().await.unwrap();
    let n = filtered.matches("data-item-id=").count();
    assert!(n > 0 && n < 48, "the brand filter narrows the grid ({n})");
    assert!(
        filtered.contains("aria-current=\"true\" data-filter=\"brand\""),
        "the brand shows as chosen"
    );
    // Members-only variant redirects anonymous visitors.
    assert_eq!(t.get("/catalog/1001/0").await.status(), 302);
    // Product pages carry schema.org JSON-LD in the server HTML.
    let product = t
        .get("/seo-product/x/1001/y/100101")
        .await
        .text()
        .await
        .unwrap();
    let ld = product
        .split("<script type=\"application/ld+json\">")
        .nth(1)
        .unwrap()
        .split("</script>")
        .next()
        .unwrap();
    let v: Value = serde_json::from_str(ld).unwrap();
    assert_eq!(v["offers"]["priceCurrency"], "EUR");
    assert_eq!(v["sku"], "100101");
    // Unknown sale: localized 404.
    assert_eq!(t.get("/c/x/999999/0").await.status(), 404);
}

/// The size guide call (spec 000 §7 "size chart conversions") and the catalog's
/// `searchTerm`, through the REST call and the page.
async fn size_charts_and_sale_search(t: TestApp) {
    let (_, all) = json(
        &t,
        "/api/catalog/v2/sale/1001/catalogContent/0?limit=96",
        "",
    )
    .await;
    let items = all["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 60);
    let mut kinds = std::collections::BTreeMap::new();
    let mut no_chart = 0;
    for item in &items {
        let id = item["id"].as_i64().unwrap();
        let (status, chart) = json(
            &t,
            &format!("/api/catalog/v1/sale/1001/item/{id}/sizeChart"),
            "",
        )
        .await;
        let (_, options) = json(
            &t,
            &format!("/api/catalog/v1/sale/1001/item/{id}/options"),
            "",
        )
        .await;
        let labels: Vec<&str> = options["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["label"].as_str().unwrap())
            .collect();
        if status == 404 {
            assert_eq!(labels, ["TU"], "only a one-size item has no guide");
            no_chart += 1;
            continue;
        }
        assert_eq!(status, 200);
        let sizes: Vec<&str> = chart["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["size"].as_str().unwrap())
            .collect();
        assert_eq!(sizes, labels, "one row per option, in their order");
        let columns = chart["systems"].as_array().unwrap().len();
        assert!(chart["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["conversions"].as_array().unwrap().len() == columns - 1));
        kinds.insert(chart["kind"].as_str().unwrap().to_string(), id);
    }
    assert_eq!(no_chart, 1);
    assert_eq!(
        kinds.keys().collect::<Vec<_>>(),
        ["clothing", "letters", "shoes"]
    );
    // Another site's item, and an item that is not there.
    assert_eq!(
        json(&t, "/api/catalog/v1/sale/2001/item/200101/sizeChart", "")
            .await
            .0,
        404
    );
    assert_eq!(
        json(&t, "/api/catalog/v1/sale/1001/item/999/sizeChart", "")
            .await
            .0,
        404
    );
    let (_, doc) = json(&t, "/api/openapi.json", "").await;
    assert!(
        doc["paths"]["/api/catalog/v1/sale/{saleId}/item/{itemId}/sizeChart"]["get"].is_object()
    );
    assert!(doc["components"]["schemas"]["SizeChart"].is_object());
    // The product page shows the guide of a shoe, in the site's language.
    let member = t.member_session(1).await;
    let shoe = kinds["shoes"];
    let html = t
        .get_with_cookie(&format!("/product/1001/{shoe}"), &member)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"size-guide\" data-kind=\"shoes\""));
    assert!(html.contains("Guide des tailles") && html.contains("États-Unis (femme)"));

    // `searchTerm`: the first item's first word narrows the sale to the items that hold it.
    let name = items[0]["name"].as_str().unwrap();
    let word = name.split_whitespace().next().unwrap();
    let holds = |i: &&Value| {
        let text = format!("{} {}", i["name"], i["brand"]).to_lowercase();
        text.contains(&word.to_lowercase())
    };
    let expected = items.iter().filter(holds).count();
    assert!(expected > 0 && expected < 60, "{word}: {expected}");
    let (_, found) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/catalogContent/0?limit=96&searchTerm={word}"),
        "",
    )
    .await;
    assert_eq!(found["total"].as_i64(), Some(expected as i64));
    let page = t
        .get_with_cookie(
            &format!("/catalog/1001/0?searchTerm=%20{word}%20%20"),
            &member,
        )
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(page.matches("data-item-id=").count(), expected);
    assert!(
        page.contains(&format!("value=\"{word}\"")),
        "the field keeps the words"
    );
    // Wildcards are letters, and hostile text is only text.
    for hostile in [
        "%",
        "_",
        "%25%27%3B--",
        "%3Cscript%3E",
        "%E6%97%A5%E6%9C%AC",
    ] {
        let res = t
            .get_with_cookie(&format!("/catalog/1001/0?searchTerm={hostile}"), &member)
            .await;
        assert_eq!(res.status(), 200, "{hostile}");
        let page = res.text().await.unwrap();
        assert_eq!(page.matches("data-item-id=").count(), 0, "{hostile}");
        assert!(!page.contains("<script>"), "{hostile}");
    }
    let long = "a".repeat(5000);
    let res = t
        .get_with_cookie(&format!("/catalog/1001/0?searchTerm={long}"), &member)
        .await;
    assert_eq!(res.status(), 200);
}

both!(
    size_charts_and_sale_search,
    size_charts_and_sale_search_on_sqlite,
    size_charts_and_sale_search_on_postgres
);

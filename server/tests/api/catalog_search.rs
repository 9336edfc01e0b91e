//! The catalog items search (spec 000 §7): `POST .../catalogContent/{catalogId}` with the
//! filters in the body answers as the GET call with the same filters in its query; filters
//! it does not offer, and values it cannot take, are refused and answered in the member's
//! language.
use serde_json::{json as body, Value};

use crate::helpers::{both, json, TestApp};

const SEARCH: &str = "/api/catalog/v2/sale/1001/catalogContent/0?limit=96";

fn ids(content: &Value) -> Vec<i64> {
    content["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect()
}

async fn search(t: &TestApp, path: &str, filters: Value) -> (u16, Value) {
    t.post_anonymous(path, filters.to_string()).await
}

async fn catalog_search(t: TestApp) {
    let (_, all) = json(&t, SEARCH, "").await;
    assert_eq!(all["total"], 60);

    // No filter: one empty object, as the spec's clients send, or an empty list.
    for none in [body!([{}]), body!([])] {
        let (status, found) = search(&t, SEARCH, none).await;
        assert_eq!(status, 200);
        assert_eq!(ids(&found), ids(&all));
    }

    // Each filter kind gives what the GET call gives with the same filter.
    let (_, filters) = json(&t, "/api/catalog/v4/sale/1001/filters/0", "").await;
    let options = |id: &str| -> Vec<Value> {
        filters["filters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap()["options"]
            .as_array()
            .unwrap()
            .clone()
    };
    let brands: Vec<String> = options("brand")
        .iter()
        .take(2)
        .map(|b| b["slug"].as_str().unwrap().to_string())
        .collect();
    let size = options("size")[0]["id"].as_str().unwrap().to_string();
    let lo = options("price")[0]["count"].as_i64().unwrap() / 100;
    let hi = lo + 40;
    let cases = [
        (
            body!([{"id": "brand", "selectedValues": brands}]),
            format!("&brand={}", brands.join(",")),
        ),
        (
            body!([{"id": "size", "selectedValues": [size]}, {"id": "stock", "selectedValues": ["in"]}]),
            format!("&size={size}&stock=in"),
        ),
        (
            body!([{"id": "price", "selectedValues": [lo.to_string(), hi.to_string()]}, {"id": "sale", "selectedValues": ["1001"]}]),
            format!("&price={lo}-{hi}"),
        ),
        (
            body!([{"id": "price", "selectedValues": [format!("{lo}-{hi}")]}]),
            format!("&price={lo}-{hi}"),
        ),
    ];
    for (filters, query) in cases {
        let (status, found) = search(&t, SEARCH, filters.clone()).await;
        assert_eq!(status, 200, "{filters}");
        let (_, expected) = json(&t, &format!("{SEARCH}{query}"), "").await;
        assert_eq!(found["total"], expected["total"], "{filters}");
        assert_eq!(ids(&found), ids(&expected), "{filters}");
        assert!(
            found["total"].as_i64().unwrap() < 60,
            "{filters} narrows the catalog"
        );
    }
    // The body's filters replace the query's.
    let (_, by_body) = search(
        &t,
        &format!("{SEARCH}&brand={}", brands[0]),
        body!([{"id": "brand", "selectedValues": [brands[1]]}]),
    )
    .await;
    let (_, second) = json(&t, &format!("{SEARCH}&brand={}", brands[1]), "").await;
    assert_eq!(ids(&by_body), ids(&second));

    // A category chooses the universe, as the path's catalog id does.
    let universe = options("category")[0]["id"].as_str().unwrap().to_string();
    let (_, in_universe) = search(
        &t,
        SEARCH,
        body!([{"id": "category", "selectedValues": [universe]}]),
    )
    .await;
    let (_, by_path) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/catalogContent/{universe}?limit=96"),
        "",
    )
    .await;
    assert_eq!(ids(&in_universe), ids(&by_path));
    assert!(in_universe["total"].as_i64().unwrap() < 60);

    // Refused, each with the shop's message: an unknown filter, a filter twice, a value of
    // the wrong shape, another sale, more than 20 values, a body that is no filter list.
    let too_many: Vec<String> = (0..21).map(|i| format!("b{i}")).collect();
    for (bad, code) in [
        (
            body!([{"id": "colour", "selectedValues": ["red"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "size", "selectedValues": ["M"]}, {"id": "size", "selectedValues": ["L"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "stock", "selectedValues": ["maybe"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "stock", "selectedValues": ["in", "all"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "price", "selectedValues": ["cheap"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "category", "selectedValues": ["-3"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "sale", "selectedValues": ["2001"]}]),
            "unknown_filter",
        ),
        (
            body!([{"id": "brand", "selectedValues": ["a,b"]}]),
            "unknown_filter",
        ),
        (body!([{"selectedValues": ["x"]}]), "unknown_filter"),
        (body!({"id": "brand"}), "unknown_filter"),
        (body!("brand"), "unknown_filter"),
        (
            body!([{"id": "brand", "selectedValues": too_many}]),
            "too_many_values",
        ),
        (
            body!([{"id": "ブランド", "selectedValues": ["ナイキ"]}]),
            "unknown_filter",
        ),
    ] {
        let (status, answer) = search(&t, SEARCH, bad.clone()).await;
        assert_eq!(status, 400, "{bad}");
        assert_eq!(answer["error_code"], code, "{bad}: {answer}");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(
            !message.is_empty() && !message.starts_with("errors."),
            "{bad}: a message in the shop's language, not a key: {answer}"
        );
    }
    // Another site's sale is not found; a search without the XSRF token is refused.
    let (status, _) = search(
        &t,
        "/api/catalog/v2/sale/2001/catalogContent/0",
        body!([{}]),
    )
    .await;
    assert_eq!(status, 404);
    let res = t
        .client
        .post(t.url(SEARCH))
        .header("content-type", "application/json")
        .body("[{}]")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

both!(
    catalog_search,
    catalog_search_on_sqlite,
    catalog_search_on_postgres
);

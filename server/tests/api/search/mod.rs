//! Search on SQLite and PostgreSQL: typo-tolerant items, filters and sort,
//! prefix suggestions, one site's sales only, recent queries recorded / listed / deleted,
//! members only for recent queries, 400 for a query over 200 characters, and the `/find`
//! page in the server HTML.
use serde_json::Value;

use crate::helpers::{cookie_value, TestApp};

mod api;
mod defaults;
mod page;

fn ids(v: &Value) -> Vec<i64> {
    v["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

/// A word of at least five letters with two letters swapped: one typo.
fn with_typo(word: &str) -> String {
    let mut c: Vec<char> = word.to_lowercase().chars().collect();
    c.swap(1, 2);
    c.into_iter().collect()
}

/// A product of a sale whose first word has at least five letters: (id, word, brand).
async fn pick_product(t: &TestApp, site: u16, sale: i64) -> (i64, String, String) {
    let res = t
        .client
        .get(t.url(&format!(
            "/api/catalog/v2/sale/{sale}/catalogContent/0?limit=96"
        )))
        .header("x-vp-siteid", site.to_string())
        .send()
        .await
        .unwrap();
    let content: Value = res.json().await.unwrap();
    content["items"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|i| {
            let name = i["name"].as_str().unwrap();
            let word = name.split(' ').next().unwrap();
            let distinct_swap = word.chars().nth(1) != word.chars().nth(2);
            (word.chars().count() >= 5 && word.is_ascii() && distinct_swap).then(|| {
                (
                    i["id"].as_i64().unwrap(),
                    word.to_string(),
                    i["brand"].as_str().unwrap().to_string(),
                )
            })
        })
        .expect("a product with a long first word")
}

/// Session cookie plus a matching XSRF cookie, and the token for the header.
async fn with_xsrf(t: &TestApp, session: &str) -> (String, String) {
    let page = t.get_with_cookie("/gr/aboutus", session).await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    (
        format!("{session}; {}", crate::helpers::xsrf_cookie(&xsrf)),
        xsrf,
    )
}

fn urlencode(s: &str) -> String {
    app::routes::encode_query_value(s)
}

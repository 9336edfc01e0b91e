//! The brand filter's sections (spec 000 §3 brand filters: groups with sections, options
//! with id, label, name and slug; `app::catalog::sections`): a sale with many brands gets
//! them by initial letter, in the filters call and in the catalog page's panel; a sale with
//! few gets a plain list. SQLite and PostgreSQL.
use serde_json::Value;

use crate::helpers::{both, json, TestApp};

fn brand_filter(filters: &Value) -> Value {
    filters["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "brand")
        .cloned()
        .unwrap()
}

async fn brand_sections(t: TestApp) {
    // The demo's first sale: sixty products of many brands.
    let (status, filters) = json(&t, "/api/catalog/v4/sale/1001/filters/0", "").await;
    assert_eq!(status, 200);
    let brand = brand_filter(&filters);
    let options = brand["options"].as_array().unwrap();
    assert!(
        options.len() >= app::catalog::sections::SECTIONED_FROM,
        "{}",
        options.len()
    );
    let groups = brand["groups"]
        .as_array()
        .expect("a long list comes in sections");
    let sections: Vec<&str> = groups
        .iter()
        .map(|g| g["section"].as_str().unwrap())
        .collect();
    let mut sorted = sections.clone();
    sorted.sort_by_key(|s| (*s == "#", s.to_string()));
    assert_eq!(sections, sorted, "A to Z, then #");
    // Every option is in exactly one section, the one of its name's initial.
    let mut seen = 0;
    for g in groups {
        for id in g["options"].as_array().unwrap() {
            let o = options.iter().find(|o| o["id"] == *id).unwrap();
            let name = o["name"].as_str().unwrap();
            assert!(!name.is_empty() && o["label"] == o["name"]);
            assert_eq!(
                app::catalog::sections::section_of(name),
                g["section"].as_str().unwrap()
            );
            seen += 1;
        }
    }
    assert_eq!(seen, options.len());
    // The panel shows the sections, each option once.
    let member = crate::helpers::cart::shopper(&t, 99).await;
    let res = member.get_page(&t, "/catalog/1001/0").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert_eq!(
        html.matches("class=\"filter__group\"").count(),
        groups.len()
    );
    assert_eq!(html.matches("data-filter=\"brand\"").count(), options.len());

    // A twelve-product sale of few brands: a plain list.
    let (_, filters) = json(&t, "/api/catalog/v4/sale/1002/filters/0", "").await;
    let brand = brand_filter(&filters);
    assert!(brand["options"].as_array().unwrap().len() < app::catalog::sections::SECTIONED_FROM);
    assert!(brand.get("groups").is_none());
}

both!(
    brand_sections,
    brand_sections_on_sqlite,
    brand_sections_on_postgres
);

//! Catalog sale types (spec 000 §3: classic 1, one page 2, filtered 3, filtered catalog 4):
//! the layout each gives a sale's catalog page, on SQLite and PostgreSQL,
//! and the demo data showing each on every site.
use crate::helpers::{both, json, TestApp};

async fn page(t: &TestApp, session: &str, sale: i64) -> String {
    let res = t
        .get_with_cookie(&format!("/catalog/{sale}/0"), session)
        .await;
    assert_eq!(res.status(), 200, "sale {sale}");
    res.text().await.unwrap()
}

fn tiles(html: &str) -> usize {
    html.matches("data-item-id=").count()
}

async fn layouts(t: TestApp) {
    // Every site has one sale of each type (and classic ones).
    for site in [1i64, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76] {
        let types: Vec<i64> = sqlx::query_scalar(
            "SELECT DISTINCT catalog_type FROM sales WHERE site_id = $1 AND campaign_kind = 'DEFAULT' ORDER BY catalog_type",
        )
        .bind(site)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
        assert_eq!(types, vec![1, 2, 3, 4], "site {site}");
    }
    // The first sale (60 items) made one page before anyone views it: all its items at
    // once, no universes bar, no pages.
    sqlx::query("UPDATE sales SET catalog_type = 2 WHERE id = 1001")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let session = t.member_session(1).await;
    let one = page(&t, &session, 1001).await;
    assert_eq!(tiles(&one), 60);
    assert!(one.contains("data-catalog-type=\"2\""));
    assert!(!one.contains("catalog__universes"), "no universes bar");
    assert!(!one.contains("class=\"pager\""), "no pages");
    assert!(!one.contains("data-testid=\"next-page\""));
    // ?page=2 of a one-page sale is its one page.
    let res = t.get_with_cookie("/catalog/1001/0?page=2", &session).await;
    assert_eq!(tiles(&res.text().await.unwrap()), 60);
    let (_, sale) = json(&t, "/api/catalog/v2/sale/1001", &session).await;
    assert_eq!(sale["catalogType"], 2);

    // Classic: the universes bar and pages (a 12-item sale has one page of them).
    let classic = page(&t, &session, 1002).await;
    assert!(classic.contains("data-catalog-type=\"1\""));
    assert!(classic.contains("catalog__universes"));
    assert!(classic.contains("class=\"pager\""));
    assert!(
        classic.contains("<details class=\"filters-box\">"),
        "filters folded"
    );
    // Filtered: the filters open before anything is chosen, the universes bar kept.
    let filtered = page(&t, &session, 1005).await;
    assert!(filtered.contains("data-catalog-type=\"3\""));
    assert!(filtered.contains("<details open class=\"filters-box\">"));
    assert!(filtered.contains("catalog__universes"));
    // Filtered catalog: the filters open, the universes among them only.
    let by_filters = page(&t, &session, 1007).await;
    assert!(by_filters.contains("data-catalog-type=\"4\""));
    assert!(by_filters.contains("<details open class=\"filters-box\">"));
    assert!(!by_filters.contains("catalog__universes"));
    assert!(by_filters.contains("data-filter=\"category\""));
}

both!(
    layouts,
    catalog_layouts_on_sqlite,
    catalog_layouts_on_postgres
);

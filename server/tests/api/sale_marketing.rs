//! A sale's marketing banner and insert (spec 000 §3 `marketing`): in the
//! sale call and on its catalog page, the insert after the first row of the first page
//! only, on SQLite and PostgreSQL; the demo's third and sixth sales of each site have them.
use crate::helpers::{both, json, TestApp};

async fn page(t: &TestApp, session: &str, path: &str) -> String {
    let res = t.get_with_cookie(path, session).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

/// Tiles before the insert, or None when the page has no insert.
fn tiles_before_insert(html: &str) -> Option<usize> {
    let at = html.find("data-testid=\"marketing-insert\"")?;
    Some(html[..at].matches("data-item-id=").count())
}

async fn marketing(t: TestApp) {
    let session = t.member_session(1).await;
    // Banner and insert, in the site's language.
    let (status, sale) = json(&t, "/api/catalog/v2/sale/1003", &session).await;
    assert_eq!(status, 200);
    assert_eq!(
        sale["marketing"]["banner"]["title"],
        "Livraison offerte dès 2 articles"
    );
    assert_eq!(
        sale["marketing"]["insert"]["title"],
        "Nouveautés de la collection"
    );
    let html = page(&t, &session, "/catalog/1003/0").await;
    assert!(html.contains("data-testid=\"marketing-banner\""));
    assert!(html.contains("Livraison offerte dès 2 articles"));
    assert_eq!(tiles_before_insert(&html), Some(4));
    // A banner only.
    let (_, sale) = json(&t, "/api/catalog/v2/sale/1006", &session).await;
    assert!(sale["marketing"]["banner"].is_object());
    assert!(sale["marketing"]["insert"].is_null());
    let html = page(&t, &session, "/catalog/1006/0").await;
    assert!(html.contains("data-testid=\"marketing-banner\""));
    assert_eq!(tiles_before_insert(&html), None);
    // None: neither shows.
    let (_, sale) = json(&t, "/api/catalog/v2/sale/1001", &session).await;
    assert!(sale["marketing"]["banner"].is_null() && sale["marketing"]["insert"].is_null());
    let html = page(&t, &session, "/catalog/1001/0").await;
    assert!(!html.contains("marketing-banner") && !html.contains("marketing-insert"));

    // Given an insert, the 60-item sale shows it on its first page only; its text is text.
    sqlx::query(
        "UPDATE sales SET marketing_insert_title = '<b>Soldes</b>', marketing_insert_text = 'x' WHERE id = 1001",
    )
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let first = page(&t, &session, "/catalog/1001/0").await;
    assert_eq!(tiles_before_insert(&first), Some(4));
    assert!(first.contains("&lt;b&gt;Soldes&lt;/b&gt;") && !first.contains("<b>Soldes</b>"));
    let second = page(&t, &session, "/catalog/1001/0?page=2").await;
    assert_eq!(tiles_before_insert(&second), None);

    // Every site's third sale has both, in its own words.
    let count: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sales WHERE id % 1000 = 3 AND id < 100000 AND marketing_banner_title <> ''
            AND marketing_insert_title <> ''",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(count, 11);
}

both!(
    marketing,
    sale_marketing_on_sqlite,
    sale_marketing_on_postgres
);

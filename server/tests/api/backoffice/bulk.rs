//! The products page of a sale: a search by name, brand or number with paging, and one
//! change (universe, tier, delivery) for every ticked product, all or nothing, each in the
//! audit log; care operators may read the page but not change products.
use super::*;
use crate::helpers::{both, TestApp};

async fn placement(t: &TestApp, product: i64) -> String {
    sqlx::query_scalar(&format!(
        "SELECT tier || '/' || CAST(delivery_mode AS TEXT) || '/' || CAST(universe_id AS TEXT)
           FROM products WHERE id = {product}"
    ))
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn an_operator_finds_products_and_changes_several_at_once(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let page = "/backoffice/sales/1001/products";

    // The search finds by a word of the name or brand, in any case.
    let name: String = sqlx::query_scalar("SELECT name FROM products WHERE id = 100101")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let word = name.split_whitespace().next().unwrap().to_uppercase();
    let query = serde_urlencoded::to_string([("q", word.as_str())]).unwrap();
    let (status, html) = merch.get(&t, &format!("{page}?{query}")).await;
    assert_eq!(status, 200);
    let products: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT p.id, p.name, COALESCE(b.name, '') FROM products p
           LEFT JOIN brands b ON b.id = p.brand_id WHERE p.sale_id = 1001",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    let needle = word.to_lowercase();
    let mut found = 0;
    for (id, name, brand) in &products {
        let hit = name.to_lowercase().contains(&needle) || brand.to_lowercase().contains(&needle);
        found += usize::from(hit);
        assert_eq!(
            html.contains(&format!(r#"data-product="{id}""#)),
            hit,
            "{word}: {name} / {brand}"
        );
    }
    assert!(found >= 1);
    assert!(html.contains(&format!(
        r#"<p id="products-found">Products found: {found}</p>"#
    )));
    let (_, none) = merch.get(&t, &format!("{page}?q=zzzz-nothing")).await;
    assert!(none.contains(r#"<p id="products-found">Products found: 0</p>"#));
    assert!(!none.contains("data-product="));
    // By number, and every product of the sale (60) on one page of 100.
    let (_, one) = merch.get(&t, &format!("{page}?q=100160")).await;
    assert!(one.contains(r#"<p id="products-found">Products found: 1</p>"#));
    let (_, all) = merch.get(&t, page).await;
    assert!(all.contains(r#"<p id="products-found">Products found: 60</p>"#));
    assert!(!all.contains(r#"rel="next""#));
    let (_, beyond) = merch.get(&t, &format!("{page}?page=2")).await;
    assert!(beyond.contains(r#"rel="prev""#) && !beyond.contains("data-product="));

    // Refusals change nothing and say why.
    let before = (placement(&t, 100101).await, placement(&t, 100102).await);
    for (fields, message, status) in [
        (vec![("tier", "PREMIUM")], "Tick at least one product", 422),
        (
            vec![("product", "100101"), ("tier", "")],
            "Choose what to change",
            422,
        ),
        (
            vec![("product", "100101"), ("tier", "GOLD")],
            "Choose a value from the list",
            422,
        ),
        (
            vec![("product", "100101"), ("universe", "10020")],
            "Choose a value from the list",
            422,
        ),
        (
            vec![
                ("product", "100101"),
                ("product", "100201"),
                ("tier", "SOON"),
            ],
            "a ticked product is not in this sale",
            422,
        ),
    ] {
        let (got, _, html) = merch
            .post(&t, "/backoffice/sales/1001/products/bulk", &fields)
            .await;
        assert_eq!(got, status, "{fields:?}");
        assert!(html.contains(message), "{message}");
    }
    assert_eq!(
        (placement(&t, 100101).await, placement(&t, 100102).await),
        before,
        "all or nothing"
    );

    // Two products to the third universe, as "soon", delivered by the supplier.
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/products/bulk",
            &[
                ("product", "100101"),
                ("product", "100102"),
                ("universe", "10012"),
                ("tier", "SOON"),
                ("delivery_mode", "3"),
            ],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/sales/1001/products?done=bulk")
    );
    assert_eq!(placement(&t, 100101).await, "SOON/3/10012");
    assert_eq!(placement(&t, 100102).await, "SOON/3/10012");
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM audit_log WHERE action = 'bulk_edit' AND object_kind = 'product'
                AND object_id IN ('100101', '100102')"
        )
        .await,
        2
    );
    // Only what was chosen changes: the tier alone, the rest as each product has it.
    let (status, _, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/products/bulk",
            &[("product", "100102"), ("tier", "PREMIUM")],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(placement(&t, 100102).await, "PREMIUM/3/10012");

    // A care operator reads the page, without the ticks, and may not change products.
    let care = sign_in(&t, CARE).await;
    let (status, html) = care.get(&t, page).await;
    assert_eq!(status, 200);
    assert!(!html.contains("data-tick="));
    let (status, _, _) = care
        .post(
            &t,
            "/backoffice/sales/1001/products/bulk",
            &[("product", "100101"), ("tier", "ORDINARY")],
        )
        .await;
    assert_eq!(status, 403);
    assert_eq!(placement(&t, 100101).await, "SOON/3/10012");
}
both!(
    an_operator_finds_products_and_changes_several_at_once,
    bulk_on_sqlite,
    bulk_on_postgres
);

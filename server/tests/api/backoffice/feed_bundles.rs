//! Bundles from the feed (`FeedBundle`; coverage F22): a sale's bundle names its products
//! by their refs; a later feed changes its products; a bundle of one product, of a product
//! the sale does not have or of another sale's product is refused with its path, and
//! nothing of the feed is applied. The product page then offers the bundle.
use serde_json::{json, Value};

use super::feed::import_from;
use crate::helpers::{both, TestApp};

fn product(reference: &str, price: &str) -> Value {
    json!({
        "ref": reference, "name": format!("Pull {reference}"), "brand": "Maison Laine",
        "price": price, "retail_price": "99.00",
        "options": [{ "ref": format!("{reference}-m"), "label": "M", "stock": 5 }]
    })
}

fn feed(bundles: Value) -> Value {
    json!({ "sales": [{
        "ref": "knits", "site": 1, "name": "Mailles", "offer_type": "FlashSale",
        "opens": "2020-01-01T08:00:00Z", "closes": "2099-01-01T08:00:00Z",
        "products": [product("k1", "30.00"), product("k2", "40.00"), product("k3", "50.00")],
        "bundles": bundles
    }]})
}

async fn items(t: &TestApp) -> Vec<String> {
    sqlx::query_scalar::<_, String>(
        "SELECT p.name FROM bundle_items bi JOIN bundles b ON b.id = bi.bundle_id
           JOIN products p ON p.id = bi.product_id JOIN sales s ON s.id = b.sale_id
          WHERE s.name = 'Mailles' ORDER BY bi.bundle_id, bi.position",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn a_feed_sets_a_sales_bundles(t: TestApp) {
    let none = || server::backoffice::feed::PictureFiles::Sent(Default::default());
    // Refused, each with its path, nothing applied: one product; an unknown ref; a product
    // named twice; another sale's product.
    let bad = feed(json!([
        { "ref": "solo", "products": ["k1"] },
        { "ref": "ghost", "products": ["k1", "nope"] },
        { "ref": "twice", "products": ["k2", "k2"] }
    ]));
    let out = import_from(&t, &bad, none(), false).await;
    let errors = out.errors.join("\n");
    assert!(
        errors.contains("sales[0].bundles[0].products: a bundle holds 2 to 20 products"),
        "{errors}"
    );
    assert!(
        errors.contains("sales[0].bundles[1].products[1]:"),
        "{errors}"
    );
    assert!(
        errors.contains("sales[0].bundles[2].products[1]:"),
        "{errors}"
    );
    assert!(!out.applied);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE name = 'Mailles'")
            .await,
        0
    );

    // Made: the bundle with its products in the feed's order.
    let out = import_from(
        &t,
        &feed(json!([{ "ref": "look", "products": ["k3", "k1"] }])),
        none(),
        false,
    )
    .await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(items(&t).await, ["Pull k3", "Pull k1"]);
    // Changed by a later feed, kept by one that does not name it.
    let out = import_from(
        &t,
        &feed(json!([{ "ref": "look", "products": ["k1", "k2", "k3"] }])),
        none(),
        false,
    )
    .await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(items(&t).await, ["Pull k1", "Pull k2", "Pull k3"]);
    let out = import_from(&t, &feed(json!([])), none(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(items(&t).await.len(), 3);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM bundles").await,
        12,
        "the demo's eleven and this one"
    );

    // Another sale's product: refused.
    let mut other = feed(json!([{ "ref": "look", "products": ["k1", "x1"] }]));
    let knits = other["sales"][0].clone();
    other["sales"] = json!([{
        "ref": "other", "site": 1, "name": "Autre", "offer_type": "FlashSale",
        "opens": "2020-01-01T08:00:00Z", "closes": "2099-01-01T08:00:00Z",
        "products": [product("x1", "10.00")]
    }, knits]);
    let out = import_from(&t, &other, none(), false).await;
    assert!(
        out.errors
            .join("\n")
            .contains("sales[1].bundles[0].products[1]:"),
        "{:?}",
        out.errors
    );
    assert_eq!(items(&t).await.len(), 3, "unchanged");

    // The member's product page offers it, priced 30 + 40 + 50.
    let (sale, product): (i64, i64) = sqlx::query_as(
        "SELECT s.id, p.id FROM products p JOIN sales s ON s.id = p.sale_id WHERE p.name = 'Pull k2'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let member = t.member_session(1).await;
    let page = t
        .get_with_cookie(&format!("/product/{sale}/{product}"), &member)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(page.matches("data-testid=\"bundle-item\"").count(), 3);
    assert!(page.contains("120,00"), "the bundle's price");
}

both!(
    a_feed_sets_a_sales_bundles,
    a_feed_sets_a_sales_bundles_on_sqlite,
    a_feed_sets_a_sales_bundles_on_postgres
);

//! After the sale over HTTP on SQLite and PostgreSQL: invoices (PDF read back,
//! numbering, concurrency), returns (happy path and refusals) and marketplace order help.
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::Shopper;
use crate::helpers::TestApp;

mod invoice;
mod marketplace;
mod reopen_form;
mod return_cycle;
mod returns;
mod settlement;

/// An option of `sale_id` (site 1) with `stock` units, the `nth` of the sale.
pub async fn option_of_sale(t: &TestApp, sale_id: i64, nth: i64, stock: i64) -> i64 {
    let id: i64 = sqlx::query_scalar(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id
          WHERE p.sale_id = $1 ORDER BY o.id LIMIT 1 OFFSET $2",
    )
    .bind(sale_id)
    .bind(nth)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE product_options SET stock = $2, held = 0, sold = 0 WHERE id = $1")
        .bind(id)
        .bind(stock)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    id
}

/// Buys `lines` (option, quantity) as the shopper would: add, freeze, pay. The order id.
pub async fn buy(t: &TestApp, s: &Shopper, lines: &[(i64, i64)], cart_type: &str) -> i64 {
    for (opt, q) in lines {
        let (status, body) = s
            .call(
                t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(
                    json!({ "product_id": opt.to_string(), "quantity": q, "cart_type": cart_type }),
                ),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    crate::helpers::cart::freeze_and_pay(t, s).await
}

/// Moves the order along to `received` through the orders' one status write.
pub async fn deliver(t: &TestApp, order_id: i64) {
    let mut tx = t.app.state.db.begin().await.unwrap();
    let now = app::platform::state::now();
    for status in ["in_preparation", "shipped", "received"] {
        app::orders::store::status::record(&mut tx, order_id, status, None, now)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

pub async fn order_status(t: &TestApp, order_id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

pub async fn post(t: &TestApp, s: &Shopper, path: &str, body: Value) -> (u16, Value) {
    s.call(t, Method::POST, path, Some(body)).await
}

//! Orders after the sale on SQLite and PostgreSQL: the paged list, the detail
//! with its timeline, payment and tracking number, the life cycle moved by the service and
//! the simulator (the command run as a real process, and the background job), refused
//! moves, notifications, and another member's order answering 404.
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{option_with_stock, Shopper};
use crate::helpers::TestApp;

mod life_cycle;
mod listing;
mod simulator;
mod statuses;

const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";
const ORDERS: &str = "/api/orders/v1/orders";

/// `s` buys one unit of a fresh option (nth of sale 1001) and pays: the order's id.
async fn buy(t: &TestApp, s: &Shopper, nth: i64) -> i64 {
    let opt = option_with_stock(t, nth, 50).await;
    let add = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, body) = s
        .call(t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    let pay = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" });
    let (status, paid) = s
        .call(t, Method::POST, &format!("{PIPE}/pay"), Some(pay))
        .await;
    assert_eq!(status, 200, "{paid}");
    paid["orderId"].as_i64().unwrap()
}

async fn detail(t: &TestApp, s: &Shopper, id: i64) -> (u16, Value) {
    s.call(t, Method::GET, &format!("{ORDERS}/{id}"), None)
        .await
}

/// The statuses of an order's timeline, oldest first.
fn timeline(d: &Value) -> Vec<String> {
    d["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["status"].as_str().unwrap().to_string())
        .collect()
}

async fn notifications(t: &TestApp, member_id: i64) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT status FROM notifications WHERE member_id = $1 AND kind = 'order' ORDER BY id",
    )
    .bind(member_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

//! Return requests follow the orders' life cycle (one table, `OrderStatus::next_allowed`):
//! a new request while an accepted return is under way is refused and changes nothing;
//! after a refund or a refusal, other lines (and refused ones again) can be returned;
//! requests joining a pending one are settled together; a cancelled order is never
//! returnable. On SQLite and PostgreSQL.
use reqwest::Method;
use serde_json::{json, Value};

use super::{buy, deliver, option_of_sale, order_status, post};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

async fn advance(t: &TestApp, order: i64, to: Option<&str>) {
    app::orders::service::advance(
        &t.app.state.db,
        order,
        to,
        Some("operator"),
        app::platform::state::now(),
    )
    .await
    .unwrap();
}

async fn detail(t: &TestApp, s: &Shopper, order: i64) -> Value {
    let (status, d) = s
        .call(
            t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{d}");
    d
}

fn one(option: i64, reason: &str) -> Value {
    json!({ "products": [{ "productId": option.to_string(), "quantity": 1 }], "reasonId": reason })
}

async fn unit_price(t: &TestApp, order: i64, option: i64) -> i64 {
    sqlx::query_scalar("SELECT unit_price FROM order_items WHERE order_id = $1 AND option_id = $2")
        .bind(order)
        .bind(option)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn return_cycle(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 1, 10).await;
    let o2 = option_of_sale(&t, 1001, 2, 10).await;
    let o3 = option_of_sale(&t, 1001, 3, 10).await;
    let order = buy(&t, &a, &[(o1, 1), (o2, 1), (o3, 1)], "fs").await;
    let path = format!("/api/postsale/v1/orders/{order}/returns");
    deliver(&t, order).await;

    // A first return, accepted by the operator.
    assert_eq!(post(&t, &a, &path, one(o1, "size")).await.0, 201);
    advance(&t, order, Some("return_requested_accepted")).await;

    // While it is under way (accepted, received, refund in progress), another line waits:
    // refused with the localized message, the order and the returns untouched.
    for expected in [
        "return_requested_accepted",
        "return_received",
        "refund_in_progress",
    ] {
        assert_eq!(order_status(&t, order).await, expected);
        let events = t.count("SELECT COUNT(*) FROM order_events").await;
        let (status, err) = post(&t, &a, &path, one(o2, "wrong_item")).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (409, Some("return_already_requested")),
            "{expected}: {err}"
        );
        assert_eq!(
            err["message"].as_str(),
            Some("Un retour est déjà en cours pour cet article.")
        );
        assert_eq!(order_status(&t, order).await, expected);
        assert_eq!(t.count("SELECT COUNT(*) FROM order_events").await, events);
        assert_eq!(t.count("SELECT COUNT(*) FROM returns").await, 1);
        advance(&t, order, None).await;
    }
    assert_eq!(order_status(&t, order).await, "refunded");

    // Refunded: the next line can go back; the operator refuses it.
    let (status, created) = post(&t, &a, &path, one(o2, "wrong_item")).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(order_status(&t, order).await, "return_requested");
    advance(&t, order, Some("return_requested_denied")).await;

    // Refused: asked again, and the last line joins the pending request; one decision
    // settles both, and the refund covers both.
    assert_eq!(post(&t, &a, &path, one(o2, "defective")).await.0, 201);
    assert_eq!(post(&t, &a, &path, one(o3, "size")).await.0, 201);
    assert_eq!(order_status(&t, order).await, "return_requested");
    advance(&t, order, Some("return_requested_accepted")).await;
    let d = detail(&t, &a, order).await;
    let states: Vec<&str> = d["returns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["refunded", "denied", "accepted", "accepted"]);
    for _ in 0..3 {
        advance(&t, order, None).await;
    }
    let d = detail(&t, &a, order).await;
    let states: Vec<&str> = d["returns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["refunded", "denied", "refunded", "refunded"]);
    let all = unit_price(&t, order, o1).await
        + unit_price(&t, order, o2).await
        + unit_price(&t, order, o3).await;
    assert_eq!(d["refundedAmount"], all);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM return_lines WHERE order_id = {order} AND open = 1"
        ))
        .await,
        0
    );
    let timeline: Vec<&str> = d["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        timeline,
        [
            "validated",
            "in_preparation",
            "shipped",
            "received",
            "return_requested",
            "return_requested_accepted",
            "return_received",
            "refund_in_progress",
            "refunded",
            "return_requested",
            "return_requested_denied",
            "return_requested",
            "return_requested",
            "return_requested_accepted",
            "return_received",
            "refund_in_progress",
            "refunded"
        ]
    );
    // Everything bought came back: nothing more to return.
    let (status, err) = post(&t, &a, &path, one(o1, "size")).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("invalid_quantity")),
        "{err}"
    );

    // A cancelled order was never delivered.
    let cancelled = buy(&t, &a, &[(o1, 1)], "fs").await;
    advance(&t, cancelled, Some("cancelled")).await;
    let (status, err) = post(
        &t,
        &a,
        &format!("/api/postsale/v1/orders/{cancelled}/returns"),
        one(o1, "size"),
    )
    .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("order_not_delivered")),
        "{err}"
    );
}

both!(
    return_cycle,
    return_cycle_on_sqlite,
    return_cycle_on_postgres
);

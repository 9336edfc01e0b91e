//! An order's life: the timeline from its payment, moves along the simulator path and the
//! return path through the service, refused moves changing nothing, the tracking number
//! once shipped, notifications for the statuses the member hears of, the detail's payment
//! and links, another member's order 404, the detail page rendered by the server.
use app::orders::error::OrdersError;
use app::orders::rules::{is_tracking_number, OrderStatus};
use app::orders::service;

use super::{buy, detail, notifications, timeline};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn step(t: &TestApp, id: i64, to: Option<&str>) -> Result<service::Moved, OrdersError> {
    service::advance(&t.app.state.db, id, to, None, app::platform::state::now()).await
}

async fn life_cycle(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let id = buy(&t, &a, 1).await;

    let (status, d) = detail(&t, &a, id).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(
        timeline(&d),
        ["validated"],
        "the payment starts the timeline"
    );
    assert_eq!(d["trackingNumber"], serde_json::Value::Null);
    assert_eq!(d["detailUrl"], format!("/my-orders/fs/{id}"));
    assert_eq!(d["helpUrl"], format!("/postsales/{id}/helpform"));
    assert_eq!(d["payment"]["method"], "card");
    let reference: String =
        sqlx::query_scalar("SELECT payment_reference FROM orders WHERE id = $1")
            .bind(id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    let masked = d["payment"]["reference"].as_str().unwrap();
    assert!(
        masked.ends_with(&reference[reference.len() - 4..]) && masked.starts_with('•'),
        "{masked}"
    );
    assert!(!masked.contains(&reference));
    assert_eq!(d["deliveryAddress"]["city"], "Paris");
    assert_eq!(d["items"][0]["quantity"], 1);

    // Another member's order is not found, by the API and by the page.
    assert_eq!(detail(&t, &b, id).await.0, 404);
    let page = t
        .get_with_cookie(&format!("/my-orders/fs/{id}"), &b.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("data-testid=\"order-not-found\""));

    // The simulator path; shipping gives a tracking number.
    let m = step(&t, id, None).await.unwrap();
    assert_eq!(
        (m.from.as_str(), m.to),
        ("validated", OrderStatus::InPreparation)
    );
    assert_eq!(
        notifications(&t, a.member_id).await,
        Vec::<String>::new(),
        "preparation is not notified"
    );
    let m = step(&t, id, None).await.unwrap();
    assert_eq!(m.to, OrderStatus::Shipped);
    let tracking = m.tracking_number.clone().unwrap();
    assert!(is_tracking_number(&tracking), "{tracking}");
    let (_, d) = detail(&t, &a, id).await;
    assert_eq!(d["status"], "shipped");
    assert_eq!(d["trackingNumber"], tracking.as_str());
    assert_eq!(timeline(&d), ["validated", "in_preparation", "shipped"]);
    let page = t
        .get_with_cookie(&format!("/my-orders/fs/{id}"), &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(&tracking),
        "the page shows the tracking number"
    );
    assert!(
        page.contains("Expédiée") && page.contains("En préparation"),
        "localized timeline"
    );
    assert!(page.contains(&format!("href=\"/postsales/{id}/helpform\"")));

    // Refused moves change nothing.
    let before = t.count("SELECT COUNT(*) FROM order_events").await;
    match step(&t, id, Some("cancelled")).await {
        Err(OrdersError::Refused(why)) => assert_eq!(
            why.to_string(),
            "an order shipped cannot become cancelled (allowed: received, received_partially)"
        ),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        step(&t, id, Some("lost")).await,
        Err(OrdersError::Refused(_))
    ));
    assert!(matches!(
        step(&t, 987_654, None).await,
        Err(OrdersError::NotFound)
    ));
    assert_eq!(t.count("SELECT COUNT(*) FROM order_events").await, before);
    assert_eq!(detail(&t, &a, id).await.1["status"], "shipped");

    assert_eq!(step(&t, id, None).await.unwrap().to, OrderStatus::Received);
    assert!(
        matches!(step(&t, id, None).await, Err(OrdersError::Refused(_))),
        "at rest"
    );
    // The return path: a person decides, the simulator does the rest.
    step(&t, id, Some("return_requested")).await.unwrap();
    step(&t, id, Some("return_requested_accepted"))
        .await
        .unwrap();
    let now = app::platform::state::now();
    for expected in ["return_received", "refund_in_progress", "refunded"] {
        let moved = service::simulate(&t.app.state.db, now).await.unwrap();
        assert!(
            moved
                .iter()
                .any(|m| m.order_id == id && m.to.wire() == expected),
            "{expected}: {moved:?}"
        );
    }
    let (_, d) = detail(&t, &a, id).await;
    assert_eq!(
        timeline(&d),
        [
            "validated",
            "in_preparation",
            "shipped",
            "received",
            "return_requested",
            "return_requested_accepted",
            "return_received",
            "refund_in_progress",
            "refunded"
        ]
    );
    assert_eq!(
        d["trackingNumber"],
        tracking.as_str(),
        "kept after delivery"
    );
    assert_eq!(
        notifications(&t, a.member_id).await,
        [
            "shipped",
            "received",
            "return_requested_accepted",
            "return_received",
            "refund_in_progress",
            "refunded"
        ]
    );
    assert!(notifications(&t, b.member_id).await.is_empty());

    // Cancelled before it ships; a cancelled order moves no further.
    let second = buy(&t, &a, 2).await;
    step(&t, second, Some("cancelled")).await.unwrap();
    let moved = service::simulate(&t.app.state.db, now).await.unwrap();
    assert!(moved.iter().all(|m| m.order_id != second));
    let (_, d) = detail(&t, &a, second).await;
    assert_eq!(
        (d["status"].as_str(), timeline(&d)),
        (
            Some("cancelled"),
            vec!["validated".to_string(), "cancelled".into()]
        )
    );
    assert_eq!(d["trackingNumber"], serde_json::Value::Null);
    // The member hears of the cancellation.
    assert_eq!(
        notifications(&t, a.member_id)
            .await
            .last()
            .map(String::as_str),
        Some("cancelled")
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM notifications WHERE order_id = {second} AND status = 'cancelled'"
        ))
        .await,
        1
    );
}

both!(life_cycle, life_cycle_on_sqlite, life_cycle_on_postgres);

/// The detail page adds up: items, a discount, shipping and the total paid, each a line.
async fn the_detail_adds_up(t: TestApp) {
    let a = shopper(&t, 2).await;
    let id = buy(&t, &a, 1).await;
    // A voucher's discount and paid shipping, as checkout records them.
    sqlx::query(
        "UPDATE orders SET discount = 300, shipping = 590, total = subtotal - 300 + 590 + loyalty WHERE id = $1",
    )
    .bind(id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let page = t
        .get_with_cookie(&format!("/my-orders/fs/{id}"), &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    let amount = |testid: &str| -> Option<i64> {
        let at = page.find(&format!(r#"data-testid="{testid}" data-amount=""#))?;
        let rest = &page[at..];
        let start = rest.find("data-amount=\"")? + "data-amount=\"".len();
        let end = start + rest[start..].find('"')?;
        rest[start..end].parse().ok()
    };
    let (subtotal, total): (i64, i64) =
        sqlx::query_as("SELECT subtotal, total FROM orders WHERE id = $1")
            .bind(id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(amount("order-subtotal"), Some(subtotal));
    assert_eq!(amount("order-discount"), Some(-300));
    assert_eq!(amount("order-shipping"), Some(590));
    assert_eq!(amount("order-totals-total"), Some(total));
    assert_eq!(
        subtotal - 300 + 590 + amount("order-loyalty").unwrap_or(0),
        total
    );
    assert!(page.contains("Sous-total") && page.contains("Livraison"));
}
both!(
    the_detail_adds_up,
    detail_adds_up_on_sqlite,
    detail_adds_up_on_postgres
);

//! The three statuses the checkout never writes, each with its way in (every
//! status of spec 001 §3 can be seen and tested): `validated_available` when the goods of a
//! pre-reception order come in, `active` for a paid travel booking and `expired` once its
//! stay is over, `cancelled` and `expired` notified; each read back from the detail call
//! (status, timeline) and the detail page (the localized label).
use app::orders::error::OrdersError;
use app::orders::rules::{MoveRefusal, OrderStatus};
use app::orders::service;

use super::{detail, notifications, timeline};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn step(t: &TestApp, id: i64, to: Option<&str>) -> Result<service::Moved, OrdersError> {
    service::advance(&t.app.state.db, id, to, None, app::platform::state::now()).await
}

/// An option of sale 1001 whose product has `delivery_mode`, with stock.
async fn option_of_mode(t: &TestApp, delivery_mode: i64) -> i64 {
    let id: i64 = sqlx::query_scalar(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id
          WHERE p.sale_id = 1001 AND p.delivery_mode = $1 ORDER BY o.id LIMIT 1",
    )
    .bind(delivery_mode)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE product_options SET stock = 20, held = 0, sold = 0 WHERE id = $1")
        .bind(id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    id
}

/// A paid travel booking of the member (as the travel checkout writes it: the order, its
/// first event, the booking with its stay) checking in on `day`: the order id.
async fn booking(t: &TestApp, member_id: i64, day: &str) -> i64 {
    let pool = &t.app.state.db.pool;
    let (product, duration): (i64, i64) = sqlx::query_as(
        "SELECT pk.product_id, d.id FROM travel_durations d
           JOIN travel_departure_cities c ON c.id = d.city_id
           JOIN travel_packages pk ON pk.id = c.package_id
          ORDER BY d.id LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let now = app::platform::state::now();
    let order: i64 = sqlx::query_scalar(
        "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping,
                             loyalty, total, currency, payment_reference, created_at, updated_at)
         VALUES ($1, 1, $2, 'validated', 'travel', 90000, 0, 0, 0, 90000, 'EUR', 'sbx_travel_0001', $3, $3)
         RETURNING id",
    )
    .bind(member_id)
    .bind(format!("travel-test-{member_id}-{day}"))
    .bind(now)
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO order_events (order_id, status, created_at) VALUES ($1, 'validated', $2)",
    )
    .bind(order)
    .bind(now)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO travel_bookings (member_id, site_id, product_id, duration_id, day, places, status, expires_at,
                                      total_cents, currency, participants_json, benefits_json, order_id, created_at, updated_at)
         VALUES ($1, 1, $2, $3, $4, 2, 'paid', $5, 90000, 'EUR', '[]', '[]', $6, $5, $5)",
    )
    .bind(member_id)
    .bind(product)
    .bind(duration)
    .bind(day)
    .bind(now)
    .bind(order)
    .execute(pool)
    .await
    .unwrap();
    order
}

/// The order detail page as the member sees it (site 1: French).
async fn page(t: &TestApp, cookie: &str, path: &str) -> String {
    t.get_with_cookie(path, cookie).await.text().await.unwrap()
}

async fn validated_available(t: TestApp) {
    let a = shopper(&t, 2).await;
    let pre = crate::aftersale::buy(&t, &a, &[(option_of_mode(&t, 1).await, 1)], "fs").await;
    let classic = crate::aftersale::buy(&t, &a, &[(option_of_mode(&t, 0).await, 1)], "fs").await;

    // Goods in stock are never "now available": refused, nothing written.
    let before = t.count("SELECT COUNT(*) FROM order_events").await;
    match step(&t, classic, Some("validated_available")).await {
        Err(OrdersError::Refused(why)) => assert_eq!(
            why.to_string(),
            "an order validated cannot become validated_available (allowed: in_preparation, cancelled)"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM order_events").await, before);

    // The pre-reception goods came in: available, then prepared as any other order.
    let m = step(&t, pre, Some("validated_available")).await.unwrap();
    assert_eq!(
        (m.from.as_str(), m.to),
        ("validated", OrderStatus::ValidatedAvailable)
    );
    let (status, d) = detail(&t, &a, pre).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["status"], "validated_available");
    assert_eq!(timeline(&d), ["validated", "validated_available"]);
    assert_eq!(d["trackingNumber"], serde_json::Value::Null);
    let html = page(&t, &a.cookie, &format!("/my-orders/fs/{pre}")).await;
    assert!(
        html.contains("data-status=\"validated_available\"")
            && html.contains("Validée, disponible"),
        "the localized label"
    );
    assert_eq!(
        step(&t, pre, None).await.unwrap().to,
        OrderStatus::InPreparation
    );
    let (_, d) = detail(&t, &a, pre).await;
    assert_eq!(
        timeline(&d),
        ["validated", "validated_available", "in_preparation"]
    );
    // An inner step of the warehouse: on the timeline, not in the message centre.
    assert!(notifications(&t, a.member_id).await.is_empty());
}

both!(
    validated_available,
    validated_available_on_sqlite,
    validated_available_on_postgres
);

async fn active_then_expired(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    // A stay long past, and one next year.
    let past = booking(&t, a.member_id, "2020-06-01").await;
    let future = booking(&t, a.member_id, "2099-06-01").await;

    // The simulator confirms both bookings: active.
    let now = app::platform::state::now();
    let moved = service::simulate(&t.app.state.db, now).await.unwrap();
    for id in [past, future] {
        assert!(
            moved
                .iter()
                .any(|m| m.order_id == id && m.to == OrderStatus::Active),
            "{id}: {moved:?}"
        );
    }
    let (status, d) = detail(&t, &a, future).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["status"], "active");
    assert_eq!(timeline(&d), ["validated", "active"]);
    assert_eq!(d["detailUrl"], format!("/my-orders/travel/{future}"));
    let html = page(&t, &a.cookie, &format!("/my-orders/travel/{future}")).await;
    assert!(html.contains("data-status=\"active\"") && html.contains("En cours"));

    // The next pass expires the stay that is over, and only that one.
    let moved = service::simulate(&t.app.state.db, now).await.unwrap();
    assert_eq!(
        moved.iter().map(|m| (m.order_id, m.to)).collect::<Vec<_>>(),
        [(past, OrderStatus::Expired)]
    );
    let (_, d) = detail(&t, &a, past).await;
    assert_eq!(d["status"], "expired");
    assert_eq!(timeline(&d), ["validated", "active", "expired"]);
    let html = page(&t, &a.cookie, &format!("/my-orders/travel/{past}")).await;
    assert!(html.contains("data-status=\"expired\"") && html.contains("Expirée"));
    assert!(
        matches!(
            step(&t, past, None).await,
            Err(OrdersError::Refused(MoveRefusal::AtRest(_)))
        ),
        "an expired booking moves no further"
    );

    // The future stay waits; a booking is never prepared or shipped.
    assert!(matches!(
        step(&t, future, None).await,
        Err(OrdersError::Refused(MoveRefusal::StayNotOver))
    ));
    match step(&t, future, Some("shipped")).await {
        Err(OrdersError::Refused(why)) => assert_eq!(
            why.to_string(),
            "an order active cannot become shipped (allowed: expired, cancelled)"
        ),
        other => panic!("{other:?}"),
    }
    // The traveller cancels before leaving.
    assert_eq!(
        step(&t, future, Some("cancelled")).await.unwrap().to,
        OrderStatus::Cancelled
    );
    let (_, d) = detail(&t, &a, future).await;
    assert_eq!(timeline(&d), ["validated", "active", "cancelled"]);

    // Both endings reach the message centre; another member sees neither order.
    assert_eq!(
        notifications(&t, a.member_id).await,
        ["expired", "cancelled"]
    );
    assert!(notifications(&t, b.member_id).await.is_empty());
    assert_eq!(detail(&t, &b, past).await.0, 404);
    let centre = page(&t, &a.cookie, "/my-notifications").await;
    assert!(
        centre.contains(&format!("Commande n° {past} : Expirée"))
            && centre.contains(&format!("Commande n° {future} : Annulée")),
        "the message centre says it in the site's language"
    );
}

both!(
    active_then_expired,
    active_then_expired_on_sqlite,
    active_then_expired_on_postgres
);

//! After the sale, the rest of it, over HTTP on SQLite and PostgreSQL: marketplace
//! products bought through the marketplace cart make marketplace orders; the payment
//! method recorded at checkout; the return window; a return moved by the operator through
//! accepted → received → refund with its lines and amount; a rose-deal refund completed.
use reqwest::Method;
use serde_json::{json, Value};

use super::{buy, deliver, option_of_sale, order_status, post};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

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

async fn marketplace_cart(t: TestApp) {
    // Every site has marketplace sales in the demo data.
    let sites: i64 = t
        .count("SELECT COUNT(DISTINCT site_id) FROM sales WHERE seller_kind = 'marketplace'")
        .await;
    assert_eq!(sites, 11);
    let sale: i64 = sqlx::query_scalar(
        "SELECT MIN(s.id) FROM sales s WHERE s.site_id = 1 AND s.seller_kind = 'marketplace'
            AND EXISTS (SELECT 1 FROM products p WHERE p.sale_id = s.id AND p.seller_kind = 'marketplace')",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let seller_kind: String = sqlx::query_scalar(
        "SELECT p.seller_kind FROM products p WHERE p.sale_id = $1 ORDER BY p.id LIMIT 1",
    )
    .bind(sale)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    // The cart type the product page sends for it.
    let cart_type = app::cart::rules::cart_type_for_seller(&seller_kind);
    assert_eq!(cart_type, "marketplace");
    let a = shopper(&t, 2).await;
    let opt = option_of_sale(&t, sale, 0, 10).await;
    let order = buy(&t, &a, &[(opt, 1)], cart_type).await;
    let d = detail(&t, &a, order).await;
    assert_eq!(d["cartType"], "marketplace");
    assert_eq!(d["detailUrl"], format!("/postsales/{order}/details"));
    // The marketplace help answers for it: contact the seller.
    let (status, sent) = post(
        &t,
        &a,
        &format!("/api/postsale/v1/marketplace/orders/{order}/contact"),
        json!({ "message": "Bonjour, où en est mon colis ?", "reasonId": "delivery" }),
    )
    .await;
    assert!(status == 200 || status == 201, "{status} {sent}");
    // And the payment was a card, shown masked.
    assert_eq!(d["payment"]["method"], "card");
    assert_eq!(d["payment"]["card"], "•••• 4242");
    let last4: Option<String> =
        sqlx::query_scalar("SELECT payment_card_last4 FROM orders WHERE id = $1")
            .bind(order)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(last4.as_deref(), Some("4242"));
}

both!(
    marketplace_cart,
    marketplace_cart_on_sqlite,
    marketplace_cart_on_postgres
);

async fn return_settled(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 1, 10).await;
    let o2 = option_of_sale(&t, 1001, 2, 10).await;
    let order = buy(&t, &a, &[(o1, 2), (o2, 1)], "fs").await;
    let unit: i64 = sqlx::query_scalar(
        "SELECT unit_price FROM order_items WHERE order_id = $1 AND option_id = $2",
    )
    .bind(order)
    .bind(o1)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    deliver(&t, order).await;
    let path = format!("/api/postsale/v1/orders/{order}/returns");
    let (status, created) = post(
        &t,
        &a,
        &path,
        json!({ "products": [{ "productId": o1.to_string(), "quantity": 2 }], "reasonId": "size" }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let d = detail(&t, &a, order).await;
    assert_eq!(d["returns"][0]["status"], "requested");
    assert_eq!(d["returns"][0]["lines"][0]["productId"], o1);
    assert_eq!(d["returns"][0]["lines"][0]["quantity"], 2);
    assert_eq!(d["returns"][0]["refundAmount"], Value::Null);

    // The operator accepts; the simulator's steps take it to the refund.
    advance(&t, order, Some("return_requested_accepted")).await;
    assert_eq!(
        detail(&t, &a, order).await["returns"][0]["status"],
        "accepted"
    );
    advance(&t, order, None).await;
    assert_eq!(
        detail(&t, &a, order).await["returns"][0]["status"],
        "received"
    );
    advance(&t, order, None).await;
    let d = detail(&t, &a, order).await;
    assert_eq!(d["status"], "refund_in_progress");
    assert_eq!(d["returns"][0]["status"], "refund_in_progress");
    assert_eq!(d["returns"][0]["refundAmount"], 2 * unit);
    assert_eq!(d["refundedAmount"], 0);
    advance(&t, order, None).await;
    let d = detail(&t, &a, order).await;
    assert_eq!(order_status(&t, order).await, "refunded");
    assert_eq!(d["returns"][0]["status"], "refunded");
    assert_eq!(d["refundedAmount"], 2 * unit);
    // The member heard of it in the message centre.
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM notifications WHERE order_id = {order} AND status = 'refunded'"
        ))
        .await,
        1
    );
    // The line is settled: no open return left on it.
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM return_lines WHERE order_id = {order} AND open = 1"
        ))
        .await,
        0
    );
    // The order detail page shows the return and the amount.
    let html = a
        .client
        .get(t.url(&format!("/my-orders/fs/{order}")))
        .header("cookie", &a.cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"order-returns\""), "{html}");
    assert!(html.contains("data-testid=\"order-refunded\""));
    assert!(html.contains("•••• 4242"));
}

both!(
    return_settled,
    return_settled_on_sqlite,
    return_settled_on_postgres
);

async fn return_window(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 3, 10).await;
    let order = buy(&t, &a, &[(o1, 1)], "fs").await;
    deliver(&t, order).await;
    // Delivered 31 days ago: past the default 30 days.
    sqlx::query(
        "UPDATE order_events SET created_at = created_at - 31 * 86400 WHERE order_id = $1 AND status = 'received'",
    )
    .bind(order)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let path = format!("/api/postsale/v1/orders/{order}/returns");
    let body =
        json!({ "products": [{ "productId": o1.to_string(), "quantity": 1 }], "reasonId": "size" });
    let (status, err) = post(&t, &a, &path, body.clone()).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("return_window_closed")),
        "{err}"
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("Le délai de retour"),
        "{err}"
    );
    assert_eq!(order_status(&t, order).await, "received");
    // 29 days ago: still open.
    sqlx::query(
        "UPDATE order_events SET created_at = created_at + 2 * 86400 WHERE order_id = $1 AND status = 'received'",
    )
    .bind(order)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let (status, created) = post(&t, &a, &path, body).await;
    assert_eq!(status, 201, "{created}");
}

both!(
    return_window,
    return_window_on_sqlite,
    return_window_on_postgres
);

async fn rose_deal_refund_completed(t: TestApp) {
    use crate::rosedeals::{buy as buy_deal, deal_option, multipart, refund_form, API, GOOD_IBAN};
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 0, 10).await;
    let order = buy_deal(&t, &a, opt, 2).await;
    let path = format!("{API}/orders/{order}/refund");
    let (status, ok) = multipart(&t, &a, &path, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(order_status(&t, order).await, "refund_in_progress");
    let amount: i64 = sqlx::query_scalar("SELECT amount FROM rosedeal_refunds WHERE order_id = $1")
        .bind(order)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(amount > 0);
    // The operator's command (one step) completes it.
    advance(&t, order, None).await;
    assert_eq!(order_status(&t, order).await, "refunded");
    let d = detail(&t, &a, order).await;
    assert_eq!(d["refundedAmount"], amount);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM notifications WHERE order_id = {order} AND status = 'refunded' AND member_id = {}",
            a.member_id
        ))
        .await,
        1
    );
    // The member sees it among their archived deals with its amount.
    let (status, history) = a
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/archived?page=1"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{history}");
    assert!(
        history.to_string().contains(&order.to_string()),
        "{history}"
    );
    // Nothing moves it further.
    assert!(app::orders::service::advance(
        &t.app.state.db,
        order,
        None,
        None,
        app::platform::state::now()
    )
    .await
    .is_err());
}

both!(
    rose_deal_refund_completed,
    rose_deal_refund_completed_on_sqlite,
    rose_deal_refund_completed_on_postgres
);

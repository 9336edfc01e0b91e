//! Vouchers (percent, free shipping, limited), loyalty items, suspend and recover.
use reqwest::Method;
use serde_json::json;

use super::{add, PIPE, V1};
use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

async fn vouchers_loyalty_suspend(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 2, 10).await;
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt, 1))
        )
        .await
        .0,
        201
    );
    let price = a.call(&t, Method::GET, V1, None).await.1["totals"]["subtotal"]
        .as_i64()
        .unwrap();

    // Apply, remove, print.
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "rose10" })),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    let v = &cart["vouchers"][0];
    assert_eq!(
        (
            v["code"].as_str(),
            v["discountType"].as_str(),
            v["scope"].as_str()
        ),
        (Some("ROSE10"), Some("PERCENT"), Some("PRODUCT"))
    );
    assert_eq!(cart["totals"]["discount"].as_i64().unwrap(), price / 10);
    let rose = v["voucherId"].as_i64().unwrap();
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "NOPE" })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("voucher_unknown"))
    );
    let (status, printed) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers/print",
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200);
    let url = printed["printUrl"].as_str().unwrap();
    assert!(url.starts_with("/vouchers/print/"));
    let page = t.get(url).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("ROSE10"));
    assert_eq!(t.get("/vouchers/print/unknown").await.status(), 404);
    let (status, cart) = a
        .call(
            &t,
            Method::DELETE,
            &format!("/api/cartproxy/v1/vouchers/{rose}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(cart["vouchers"].as_array().unwrap().len(), 0);
    assert_eq!(
        a.call(
            &t,
            Method::DELETE,
            &format!("/api/cartproxy/v1/vouchers/{rose}"),
            None
        )
        .await
        .0,
        400
    );

    // Free shipping.
    let (_, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "LIVRAISON" })),
        )
        .await;
    assert_eq!(cart["totals"]["shippingDiscount"], 690);
    assert_eq!(cart["totals"]["total"].as_i64().unwrap(), price);

    // Loyalty: quantity forced to 1; unknown programme refused; removal.
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v3/loyalty-item",
            Some(json!({ "productId": 1, "quantity": 3 })),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(
        (
            cart["loyalty"]["productId"].as_i64(),
            cart["loyalty"]["quantity"].as_i64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(cart["totals"]["loyalty"], 2990);
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v3/loyalty-item",
            Some(json!({ "productId": 7, "quantity": 1 }))
        )
        .await
        .0,
        400
    );
    let (status, cart) = a
        .call(
            &t,
            Method::DELETE,
            &format!("{PIPE}/item"),
            Some(json!({ "productId": 1, "quantity": 1 })),
        )
        .await;
    assert_eq!(status, 200);
    assert!(cart["loyalty"].is_null());

    // LIMIT1: one use in total. a pays with it; then b cannot apply it.
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "LIMIT1" }))
        )
        .await
        .0,
        201
    );
    let (_, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    let (status, paid) = a
        .call(&t, Method::POST, &format!("{PIPE}/pay"), Some(json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" })))
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["order"]["discount"].as_i64().unwrap(), 500);
    assert_eq!(
        t.count("SELECT used_count FROM vouchers WHERE site_id = 1 AND code = 'LIMIT1'")
            .await,
        1
    );
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt, 1))
        )
        .await
        .0,
        201
    );
    let (status, err) = b
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "LIMIT1" })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("voucher_exhausted"))
    );

    // Suspend: the lines are put aside (units back), then recovered.
    let (status, s) = b
        .call(&t, Method::POST, "/api/cartproxy/v1/suspend", None)
        .await;
    assert_eq!(
        (status, s["hasSuspendedOrder"].as_bool()),
        (200, Some(true))
    );
    assert_eq!(stock(&t, opt).await, (10, 0, 1));
    assert_eq!(
        b.call(&t, Method::GET, "/api/cartproxy/v1/suspend", None)
            .await
            .1["hasSuspendedOrder"],
        true
    );
    assert_eq!(
        b.call(&t, Method::POST, "/api/cartproxy/v1/suspend", None)
            .await
            .0,
        412,
        "nothing left to suspend"
    );
    let (status, cart) = b
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/recover"),
            Some(json!({ "dismissedProducts": [] })),
        )
        .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["items"][0]["productId"], opt.to_string());
    assert_eq!(stock(&t, opt).await, (10, 1, 1));
    assert_eq!(
        b.call(&t, Method::GET, "/api/cartproxy/v1/suspend", None)
            .await
            .1["hasSuspendedOrder"],
        false
    );
}

both!(
    vouchers_loyalty_suspend,
    vouchers_loyalty_suspend_on_sqlite,
    vouchers_loyalty_suspend_on_postgres,
);

/// A voucher put in the cart in time but past its end date when the member pays: the cart
/// no longer counts it, and the payment neither discounts it nor spends a use of it.
async fn expired_voucher_is_not_spent_at_payment(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 3, 10).await;
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt, 1)),
        )
        .await;
    assert_eq!(status, 201);
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "ROSE10" })),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    assert!(cart["totals"]["discount"].as_i64().unwrap() > 0);
    let rose = cart["vouchers"][0]["voucherId"].as_i64().unwrap();
    let used = |t: &TestApp| {
        let pool = t.app.state.db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT used_count FROM vouchers WHERE id = $1")
                .bind(rose)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let used_before = used(&t).await;
    // Time passes: the voucher's end date is now behind us.
    sqlx::query("UPDATE vouchers SET valid_until = $2 WHERE id = $1")
        .bind(rose)
        .bind(app::platform::state::now() - 1)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, cart) = a.call(&t, Method::GET, V1, None).await;
    assert_eq!(cart["vouchers"].as_array().map(Vec::len), Some(0), "{cart}");
    assert_eq!(cart["totals"]["discount"].as_i64(), Some(0));
    let (_, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    let (status, paid) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" })),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(
        used(&t).await,
        used_before,
        "no use of the expired voucher spent"
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM voucher_redemptions WHERE voucher_id = {rose}"
        ))
        .await,
        0
    );
}

both!(
    expired_voucher_is_not_spent_at_payment,
    expired_voucher_is_not_spent_at_payment_on_sqlite,
    expired_voucher_is_not_spent_at_payment_on_postgres,
);

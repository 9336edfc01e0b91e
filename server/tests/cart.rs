//! Cart, held stock, checkout, orders, vouchers, loyalty, suspend and waiting line over
//! HTTP, on SQLite and PostgreSQL (issue #5).
mod cart_common;
mod common;

use cart_common::{option_with_stock, shopper, stock};
use common::{start_with, Backend, TestApp};
use reqwest::Method;
use serde_json::{json, Value};

const V1: &str = "/api/cartproxy/v1";
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

fn add(id: impl Into<Value>, q: i64) -> Value {
    json!({ "product_id": id.into(), "quantity": q, "cart_type": "fs" })
}

async fn cart_basics(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 0, 10).await;
    let other = option_with_stock(&t, 40, 10).await;

    // Anonymous: 401 with the error body.
    let res = t.get("/api/cartproxy/v1").await;
    assert_eq!(res.status(), 401);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error_description"], "cart.errors.unauthorized");

    // Bad payloads are refused and change nothing.
    for (body, code) in [
        (add(opt.to_string(), -1), 400),
        (add(opt.to_string(), 0), 400),
        (add("12ab", 1), 400),
        (add("999999999", 1), 400),
        (
            json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "boat" }),
            400,
        ),
        (json!({ "quantity": 1 }), 400),
    ] {
        let (status, err) = a
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(body.clone()),
            )
            .await;
        assert_eq!(status, code, "{body}");
        assert!(
            err["error_description"]
                .as_str()
                .unwrap()
                .starts_with("cart.errors."),
            "{err}"
        );
    }
    let raw = t
        .client
        .post(t.url("/api/cartproxy/v1/item"))
        .header("cookie", &a.cookie)
        .header("X-XSRF-TOKEN", &a.xsrf)
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 400);
    assert_eq!(t.count("SELECT COUNT(*) FROM cart_items").await, 0);
    assert_eq!(stock(&t, opt).await, (10, 0, 0));
    assert_eq!(a.call(&t, Method::GET, V1, None).await.0, 204, "empty cart");

    // Add (product id as a string): held for the member.
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt.to_string(), 2)),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["items"][0]["productId"], opt.to_string());
    assert_eq!(cart["items"][0]["quantity"], 2);
    assert_eq!(cart["cartType"], "fs");
    let remaining = cart["remainingTime"].as_i64().unwrap();
    assert!((890..=900).contains(&remaining), "{remaining}");
    assert_eq!(cart["hasNotifyBasketExpireSoon"], false);
    assert_eq!(stock(&t, opt).await, (10, 2, 0));
    // Multi-item form, number ids.
    let (status, cart) = a
        .call(&t, Method::POST, "/api/cartproxy/v1/items", Some(json!({ "products_quantity": [{ "product_id": other, "quantity": 1 }], "cart_type": "fs" })))
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["items"].as_array().unwrap().len(), 2);
    // Availability for the catalog: the member holds it; others still see it available.
    let product: i64 = cart["items"][0]["itemId"].as_i64().unwrap();
    let mine = app::cart::store::availability(
        &t.app.state.db,
        Some(a.member_id),
        &[product],
        app::platform::state::now(),
    )
    .await
    .unwrap();
    assert_eq!(
        mine[&product],
        app::model::catalog_api::Availability::InBasket
    );
    let theirs = app::cart::store::availability(
        &t.app.state.db,
        None,
        &[product],
        app::platform::state::now(),
    )
    .await
    .unwrap();
    assert_eq!(
        theirs[&product],
        app::model::catalog_api::Availability::Available
    );

    // Another cart type while this one has lines: 409.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(
                json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "marketplace" }),
            ),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (409, Some("incompatible_cart_types"))
    );
    // Per-member limit (5 per product): 429.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt.to_string(), 4)),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (429, Some("max_reached"))
    );
    assert_eq!(stock(&t, opt).await, (10, 2, 0));
    // More than the stock left for others: out of stock, nothing held.
    let b = shopper(&t, 2).await;
    let scarce = option_with_stock(&t, 80, 1).await;
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(scarce, 2))
        )
        .await
        .0,
        400
    );
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(scarce, 1))
        )
        .await
        .0,
        201
    );
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(scarce, 1)),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("out_of_stock"))
    );
    let scarce_product = app::cart::store::option_info(&t.app.state.db, scarce)
        .await
        .unwrap()
        .unwrap()
        .product_id;
    let a_view = app::cart::store::option_availability(
        &t.app.state.db,
        Some(a.member_id),
        scarce_product,
        app::platform::state::now(),
    )
    .await
    .unwrap();
    assert_eq!(
        a_view[&scarce],
        app::model::catalog_api::Availability::OutOfStock
    );
    // Removing gives the units back at once, so another member can take them.
    let (status, _) = b
        .call(
            &t,
            Method::DELETE,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": scarce.to_string(), "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 204, "b's cart is empty again");
    assert_eq!(stock(&t, scarce).await, (1, 0, 0));
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(scarce, 1))
        )
        .await
        .0,
        201
    );
    assert_eq!(
        b.call(
            &t,
            Method::DELETE,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": "12ab" }))
        )
        .await
        .0,
        400
    );

    // Remove one line, then empty.
    let (status, cart) = a
        .call(
            &t,
            Method::DELETE,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": other.to_string(), "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(cart["items"].as_array().unwrap().len(), 2);
    assert_eq!(stock(&t, other).await, (10, 0, 0));
    assert_eq!(a.call(&t, Method::DELETE, V1, None).await.0, 204);
    assert_eq!(stock(&t, opt).await, (10, 0, 0));
    assert_eq!(stock(&t, scarce).await, (1, 0, 0));
    assert_eq!(a.call(&t, Method::GET, V1, None).await.0, 204);
    // Once empty, another type is fine.
    let (status, cart) = a
        .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(json!({ "product_id": opt, "quantity": 1, "cart_type": "marketplace", "context": { "sale_id": 1001, "origin": "catalog", "bundle_id": "b-1" } })))
        .await;
    assert_eq!(status, 201);
    assert_eq!(cart["cartType"], "marketplace");
    assert_eq!(cart["items"][0]["bundleId"], "b-1");
}

async fn checkout(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 1, 5).await;
    assert_eq!(
        a.call(&t, Method::GET, PIPE, None).await.0,
        204,
        "nothing to freeze"
    );
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt.to_string(), 2))
        )
        .await
        .0,
        201
    );

    // Terms of sale not accepted: onboarding redirect.
    let newcomer = shopper(&t, 0).await;
    assert_eq!(
        newcomer
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(add(opt, 1))
            )
            .await
            .0,
        201
    );
    assert_eq!(newcomer.call(&t, Method::GET, PIPE, None).await.0, 263);

    // Freeze: the same hash while frozen; changes are refused with 261.
    let (status, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    let hash = frozen["cartHash"].as_str().unwrap().to_string();
    assert_eq!(frozen["cart"]["status"], "frozen");
    assert_eq!(
        a.call(&t, Method::GET, PIPE, None).await.1["cartHash"],
        hash
    );
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt, 1))
        )
        .await
        .0,
        261
    );
    assert_eq!(a.call(&t, Method::DELETE, V1, None).await.0, 261);

    let pay = |hash: String, card: &'static str| json!({ "cartHash": hash, "generateDeeplinkReturnUrl": false, "card": card });
    // Invalid card: 400, still frozen. Stale hash: 412.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(hash.clone(), "1234 5678")),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("invalid_card"))
    );
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay("nope".into(), "4242 4242 4242 4242"))
        )
        .await
        .0,
        412
    );
    // Declined: nothing charged, the cart is open again and keeps its holds.
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(hash.clone(), "4000 0000 0000 0002")),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("payment_declined"))
    );
    let (_, cart) = a.call(&t, Method::GET, V1, None).await;
    assert_eq!(cart["status"], "open");
    assert_eq!(cart["items"][0]["quantity"], 2);
    assert_eq!(
        stock(&t, opt).await,
        (5, 3, 0),
        "2 held by a, 1 by the newcomer"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM orders").await, 0);
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(hash.clone(), "4242424242424242"))
        )
        .await
        .0,
        412,
        "the declined hash is spent"
    );

    // Cancel-order defrosts.
    let (_, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    let hash2 = frozen["cartHash"].as_str().unwrap().to_string();
    assert_ne!(hash2, hash);
    let (status, cart) = a
        .call(&t, Method::POST, &format!("{PIPE}/cancel-order"), None)
        .await;
    assert_eq!((status, cart["status"].as_str()), (200, Some("open")));

    // Pay: one order however many times the same hash is paid.
    let (_, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    let hash3 = frozen["cartHash"].as_str().unwrap().to_string();
    let (status, paid) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(hash3.clone(), "4242 4242 4242 4242")),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["status"], "validated");
    let order_id = paid["orderId"].as_i64().unwrap();
    let (status, again) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(hash3.clone(), "4242 4242 4242 4242")),
        )
        .await;
    assert_eq!((status, again["orderId"].as_i64()), (200, Some(order_id)));
    assert_eq!(t.count("SELECT COUNT(*) FROM orders").await, 1);
    assert_eq!(stock(&t, opt).await, (5, 1, 2), "sold for good");
    assert_eq!(
        a.call(&t, Method::GET, V1, None).await.0,
        204,
        "the cart is empty after payment"
    );

    // Orders.
    let (status, list) = a.call(&t, Method::GET, "/api/orders/v1/orders", None).await;
    assert_eq!(status, 200);
    let o = &list["orders"][0];
    assert_eq!(
        (o["id"].as_i64(), o["status"].as_str()),
        (Some(order_id), Some("validated"))
    );
    assert_eq!(o["items"][0]["quantity"], 2);
    assert!(o["createdAt"].as_i64().unwrap() > 0);
    assert_eq!(
        o["total"].as_i64().unwrap(),
        o["subtotal"].as_i64().unwrap() + 690
    );
    assert_eq!(
        a.call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None
        )
        .await
        .0,
        200
    );
    assert_eq!(
        newcomer
            .call(
                &t,
                Method::GET,
                &format!("/api/orders/v1/orders/{order_id}"),
                None
            )
            .await
            .0,
        404
    );
    assert_eq!(t.get("/api/orders/v1/orders").await.status(), 401);

    // Reopen: lines come back, stock moves from sold to held, the order is reopened once.
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(json!({ "order_to_reopen": order_id.to_string(), "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["items"][0]["quantity"], 2);
    assert_eq!(stock(&t, opt).await, (5, 3, 0));
    let (_, o) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert_eq!(o["status"], "reopened");
    let (status, err) = a.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(json!({ "order_to_reopen": order_id.to_string(), "product_id": opt.to_string(), "quantity": 1 }))).await;
    assert_eq!((status, err["error_code"].as_str()), (262, Some("reopen")));
}

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

async fn hold_expiry(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 3, 2).await;
    let keep = option_with_stock(&t, 4, 2).await;
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(opt, 2)),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(
        cart["hasNotifyBasketExpireSoon"], true,
        "2 s hold: expires soon"
    );
    assert_eq!(stock(&t, opt).await, (2, 2, 0));
    // The sweeper (every second) gives the units back after the hold.
    let mut released = false;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        if stock(&t, opt).await == (2, 0, 0) {
            released = true;
            break;
        }
    }
    assert!(released, "held stock returned to the sale");
    // Told once (260), with the lines offered in recovery.
    let (status, cart) = a.call(&t, Method::GET, V1, None).await;
    assert_eq!(status, 260, "{cart}");
    assert_eq!(cart["error_description"], "cart.errors.expired");
    assert_eq!(cart["hasNotifyBasketExpired"], true);
    assert_eq!(cart["recovery"][0]["productId"], opt.to_string());
    let (status, cart) = a.call(&t, Method::GET, V1, None).await;
    assert_eq!(
        (status, cart["hasNotifyBasketExpired"].as_bool()),
        (200, Some(false))
    );
    // Recover with one line dismissed and the other held again.
    let b = shopper(&t, 2).await;
    assert_eq!(
        b.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(keep, 1))
        )
        .await
        .0,
        201
    );
    assert_eq!(b.call(&t, Method::DELETE, V1, None).await.0, 204);
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/recover"),
            Some(json!({ "dismissedProducts": [opt.to_string()] })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(cart["items"].as_array().unwrap().len(), 0, "dismissed");
    assert_eq!(stock(&t, opt).await, (2, 0, 0));
    // Lazy release on read: a hold past expiry is released by the member's next call
    // even before the sweeper runs.
    assert_eq!(
        a.call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add(keep, 1))
        )
        .await
        .0,
        201
    );
    sqlx::query("UPDATE cart_items SET expires_at = 0 WHERE member_id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _) = a.call(&t, Method::GET, V1, None).await;
    assert_eq!(status, 260);
    assert_eq!(stock(&t, keep).await, (2, 0, 0));
    assert_eq!(
        a.call(&t, Method::POST, &format!("{PIPE}/cancel-recovery"), None)
            .await
            .0,
        204
    );
}

async fn waiting_line(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 5, 3).await;
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
    let (_, frozen) = a.call(&t, Method::GET, PIPE, None).await;
    let (status, body) = a
        .call(&t, Method::POST, &format!("{PIPE}/pay"), Some(json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242424242424242" })))
        .await;
    assert_eq!(status, 202, "{body}");
    let line = &body["waitingLine"];
    assert_eq!(
        (line["position"].as_i64(), line["ready"].as_bool()),
        (Some(1), Some(false))
    );
    let ticket = line["ticket"].as_str().unwrap();
    let (status, polled) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/catalog/v1/waiting-line/{ticket}"),
            None,
        )
        .await;
    assert_eq!((status, polled["position"].as_i64()), (200, Some(1)));
    assert_eq!(
        t.get("/api/catalog/v1/waiting-line/nope").await.status(),
        410
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM orders").await, 0);
}

/// The header's cart link shows the units the member holds, on every page.
async fn header_count(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (first, second) = (
        option_with_stock(&t, 1, 10).await,
        option_with_stock(&t, 2, 10).await,
    );
    let page = |path: &'static str| {
        let (t, a) = (&t, &a);
        async move {
            let res = t.get_with_cookie(path, &a.cookie).await;
            assert_eq!(res.status(), 200, "{path}");
            res.text().await.unwrap()
        }
    };
    let badge = |html: &str| {
        html.split("data-testid=\"cart-count\"").nth(1).map(|rest| {
            rest.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
        })
    };
    assert_eq!(badge(&page("/").await), None, "nothing held, no badge");
    for (opt, q) in [(first, 2), (second, 1)] {
        let (status, _) = a
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(add(opt.to_string(), q)),
            )
            .await;
        assert_eq!(status, 201, "added");
    }
    let home = page("/").await;
    assert_eq!(badge(&home).as_deref(), Some("3"));
    assert!(
        home.contains("&quot;cartCount&quot;:3"),
        "the browser starts from it"
    );
    assert_eq!(badge(&page("/c/vente/1001/0").await).as_deref(), Some("3"));
    // Removing a line, or a hold that ended, counts no more.
    let (status, _) = a
        .call(
            &t,
            Method::DELETE,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": first.to_string(), "cart_type": "fs" })),
        )
        .await;
    assert!(status < 300, "{status}");
    assert_eq!(badge(&page("/").await).as_deref(), Some("1"));
    sqlx::query("UPDATE cart_items SET expires_at = 0 WHERE member_id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(badge(&page("/").await), None);
    // Visitors have no count.
    assert!(t
        .get("/")
        .await
        .text()
        .await
        .unwrap()
        .contains("&quot;cartCount&quot;:0"));
}

macro_rules! both {
    ($name:ident, $sqlite:ident, $pg:ident, $tweak:expr) => {
        #[tokio::test]
        async fn $sqlite() {
            $name(start_with(Backend::Sqlite, $tweak).await).await;
        }
        #[tokio::test]
        async fn $pg() {
            $name(start_with(Backend::Postgres, $tweak).await).await;
        }
    };
}

both!(
    cart_basics,
    cart_basics_on_sqlite,
    cart_basics_on_postgres,
    |_| {}
);
both!(checkout, checkout_on_sqlite, checkout_on_postgres, |_| {});
both!(
    vouchers_loyalty_suspend,
    vouchers_loyalty_suspend_on_sqlite,
    vouchers_loyalty_suspend_on_postgres,
    |_| {}
);
both!(
    hold_expiry,
    hold_expiry_on_sqlite,
    hold_expiry_on_postgres,
    |c| {
        c.cart_hold_secs = 2;
        c.cart_sweep_secs = 1;
    }
);
both!(
    waiting_line,
    waiting_line_on_sqlite,
    waiting_line_on_postgres,
    |c| c.checkout_capacity = 0
);
both!(
    header_count,
    header_count_on_sqlite,
    header_count_on_postgres,
    |_| {}
);

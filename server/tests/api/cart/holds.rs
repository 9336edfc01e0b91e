//! Held stock ends: the sweeper and lazy release give units back; the member is told
//! once and may recover the lines.
use reqwest::Method;
use serde_json::json;

use super::{add, PIPE, V1};
use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

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

both!(
    hold_expiry,
    hold_expiry_on_sqlite,
    hold_expiry_on_postgres,
    |c| {
        c.settings.cart.hold_secs = 2;
        c.cart_sweep_secs = 1;
    },
);

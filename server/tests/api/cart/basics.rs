//! Adding and removing lines: refusals, holds, limits, availability, cart types.
use reqwest::Method;
use serde_json::{json, Value};

use super::{add, V1};
use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

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
        t.app.cart.viewer(Some(a.member_id)),
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
        t.app.cart.viewer(None),
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
        t.app.cart.viewer(Some(a.member_id)),
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

both!(cart_basics, cart_basics_on_sqlite, cart_basics_on_postgres,);

//! The delivery address at checkout: no address, no payment (nothing charged); the order
//! keeps a copy of the chosen address (the favourite when none is named).
use reqwest::Method;
use serde_json::json;

use super::{member_on, paris, with, A};
use crate::helpers::cart::{option_with_stock, Shopper};
use crate::helpers::{both, TestApp};

const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

async fn frozen_cart(t: &TestApp, s: &Shopper, option: i64) -> String {
    let add = json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
    assert_eq!(
        s.call(t, Method::POST, "/api/cartproxy/v1/item", Some(add))
            .await
            .0,
        201
    );
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    frozen["cartHash"].as_str().unwrap().to_string()
}

async fn delivery(t: TestApp) {
    let a = member_on(&t, 1).await;
    let option = option_with_stock(&t, 2, 5).await;
    let hash = frozen_cart(&t, &a, option).await;
    let pay = |address: Option<i64>| json!({ "cartHash": hash, "card": "4242 4242 4242 4242", "addressId": address });

    // No address: refused before the card is charged; the cart stays frozen for later.
    let (status, body) = a
        .call(&t, Method::POST, &format!("{PIPE}/pay"), Some(pay(None)))
        .await;
    assert_eq!(
        (status, body["error_code"].as_str()),
        (400, Some("address_required")),
        "{body}"
    );
    assert_eq!(body["error_description"], "address.checkout.required");
    let paid: i64 = t
        .count(&format!(
            "SELECT COUNT(*) FROM payments WHERE member_id = {}",
            a.member_id
        ))
        .await;
    assert_eq!(paid, 0);
    assert_eq!(
        a.call(&t, Method::GET, PIPE, None).await.1["cartHash"],
        hash
    );

    // Another member's address is not the member's either.
    let b = member_on(&t, 1).await;
    let (_, theirs) = b.call(&t, Method::POST, A, Some(paris())).await;
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(theirs["id"].as_i64())),
        )
        .await;
    assert_eq!(status, 400);

    let (_, home) = a.call(&t, Method::POST, A, Some(paris())).await;
    let lyon = json!({ "firstName": "Zoë", "lastName": "Martin", "details": "3 place Bellecour",
        "zipCode": "69002", "city": "Lyon", "phone": "0478000000" });
    let (_, other) = a.call(&t, Method::POST, A, Some(lyon.clone())).await;
    let other_id = other["id"].as_i64().unwrap();
    let (status, paid) = a
        .call(
            &t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(pay(Some(other_id))),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    let order_id = paid["orderId"].as_i64().unwrap();
    let shipped = &paid["order"]["deliveryAddress"];
    assert_eq!(
        (shipped["city"].as_str(), shipped["zipCode"].as_str()),
        (Some("Lyon"), Some("69002"))
    );
    assert_eq!(shipped["firstName"], "Zoë");

    // Later edits and deletions of the address book leave the order as it was.
    let edit = with(
        with(lyon, "id", json!(other_id)),
        "city",
        json!("Villeurbanne"),
    );
    assert_eq!(
        a.call(
            &t,
            Method::PUT,
            A,
            Some(with(edit, "zipCode", json!("69100")))
        )
        .await
        .0,
        200
    );
    let (_, order) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert_eq!(order["deliveryAddress"]["city"], "Lyon");
    assert_eq!(
        a.call(&t, Method::DELETE, &format!("{A}/{other_id}"), None)
            .await
            .0,
        204
    );
    let (_, order) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert_eq!(order["deliveryAddress"]["zipCode"], "69002");
    // Nobody else reads it.
    assert_eq!(
        b.call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None
        )
        .await
        .0,
        404
    );

    // None named: the favourite (here the first address, made favourite when added).
    let hash = frozen_cart(&t, &a, option).await;
    let body = json!({ "cartHash": hash, "card": "4242424242424242" });
    let (status, paid) = a
        .call(&t, Method::POST, &format!("{PIPE}/pay"), Some(body))
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["order"]["deliveryAddress"]["details"], home["details"]);
}

both!(delivery, delivery_on_sqlite, delivery_on_postgres);

//! Freeze, pay (declined, repeated), cancel, orders and reopening; the waiting line when
//! checkout is full.
use reqwest::Method;
use serde_json::json;

use super::{add, PIPE, V1};
use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

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
    // One confirmation email, in the site's language, however many times the same hash is
    // paid: the order's number, its total and the link to it.
    let subject = format!("Subject: Votre commande n° {order_id} est confirmée");
    let mails = |subject: String| {
        let t = &t;
        async move {
            // Mailed by a task of its own, after the answer.
            for _ in 0..50 {
                let found: Vec<String> = crate::helpers::outbox(t)
                    .into_iter()
                    .filter(|m| m.contains(&subject))
                    .collect();
                if !found.is_empty() {
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                    return found;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Vec::new()
        }
    };
    let sent = mails(subject.clone()).await;
    assert_eq!(
        t.count("SELECT COUNT(*) FROM orders WHERE confirmation_mailed_at > 0")
            .await,
        1,
        "the order is marked mailed"
    );
    assert_eq!(sent.len(), 1, "{:?}", crate::helpers::outbox(&t));
    assert!(sent[0].contains("Bonjour Test,"), "{}", sent[0]);
    let (_, detail) = a
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    let link = format!("{}\n", detail["detailUrl"].as_str().unwrap());
    assert!(sent[0].contains(&link), "{link} in {}", sent[0]);
    assert!(sent[0].contains('€'), "{}", sent[0]);
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

both!(checkout, checkout_on_sqlite, checkout_on_postgres,);

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

both!(
    waiting_line,
    waiting_line_on_sqlite,
    waiting_line_on_postgres,
    |c| c.settings.cart.checkout_capacity = 0,
);

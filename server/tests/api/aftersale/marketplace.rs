//! Marketplace order help: a message to the seller (reasons, 1..2000 characters, stored),
//! a return with the shop's return rules, the invoice; refused for orders of the shop's
//! own sales and 404 for another member's.
use serde_json::json;

use super::{buy, deliver, option_of_sale, order_status, post};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

/// The first marketplace sale of site 1 in the demo data.
async fn marketplace_sale(t: &TestApp) -> i64 {
    sqlx::query_scalar(
        "SELECT MIN(id) FROM sales WHERE site_id = 1 AND seller_kind = 'marketplace'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn marketplace_help(t: TestApp) {
    let a = shopper(&t, 2).await;
    let sale = marketplace_sale(&t).await;
    let opt = option_of_sale(&t, sale, 0, 10).await;
    let order = buy(&t, &a, &[(opt, 2)], "marketplace").await;
    let fs_order = buy(&t, &a, &[(option_of_sale(&t, 1001, 1, 10).await, 1)], "fs").await;
    let contact = format!("/api/postsale/v1/marketplace/orders/{order}/contact");

    // The reasons.
    let reasons: serde_json::Value = t
        .get("/api/postsale/v1/marketplace/contact/reasons")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(reasons["reasons"][0]["value"], "delivery");
    assert_eq!(reasons["reasons"][0]["label"], "Livraison");

    // Messages: checked, stored trimmed.
    for (body, code) in [
        (
            json!({ "message": "  ", "reasonId": "delivery" }),
            "invalid_message",
        ),
        (
            json!({ "message": "x".repeat(2001), "reasonId": "delivery" }),
            "invalid_message",
        ),
        (json!({ "reasonId": "delivery" }), "invalid_message"),
        (
            json!({ "message": "Bonjour", "reasonId": "gossip" }),
            "invalid_reason",
        ),
    ] {
        let (status, err) = post(&t, &a, &contact, body.clone()).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some(code)),
            "{body} → {err}"
        );
    }
    let (status, sent) = post(
        &t,
        &a,
        &contact,
        json!({ "message": "  Où est mon colis ?  ", "reasonId": "delivery" }),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["messageHasBeenSent"], true);
    let stored: String =
        sqlx::query_scalar("SELECT message FROM marketplace_messages WHERE order_id = $1")
            .bind(order)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored, "Où est mon colis ?");
    assert!(
        post(
            &t,
            &a,
            &contact,
            json!({ "message": "x".repeat(2000), "reasonId": "other" })
        )
        .await
        .0 == 201
    );

    // Not a marketplace order; another member's order.
    let (status, err) = post(
        &t,
        &a,
        &format!("/api/postsale/v1/marketplace/orders/{fs_order}/contact"),
        json!({ "message": "Hi", "reasonId": "other" }),
    )
    .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("not_marketplace_order"))
    );
    let b = shopper(&t, 2).await;
    assert_eq!(
        post(
            &t,
            &b,
            &contact,
            json!({ "message": "Hi", "reasonId": "other" })
        )
        .await
        .0,
        404
    );

    // The return: the shop's rules (delivered first, quantities), reason optional.
    let ret = format!("/api/postsale/v1/marketplace/orders/{order}/return");
    let products = json!({ "products": [{ "productId": opt.to_string(), "quantity": 2 }] });
    let (status, err) = post(&t, &a, &ret, products.clone()).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("order_not_delivered"))
    );
    deliver(&t, order).await;
    let (status, err) = post(
        &t,
        &a,
        &ret,
        json!({ "products": [{ "productId": opt.to_string(), "quantity": 3 }] }),
    )
    .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("invalid_quantity"))
    );
    assert_eq!(post(&t, &b, &ret, products.clone()).await.0, 404);
    let (status, created) = post(&t, &a, &ret, products.clone()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(order_status(&t, order).await, "return_requested");
    let channel: String = sqlx::query_scalar("SELECT channel FROM returns WHERE order_id = $1")
        .bind(order)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(channel, "marketplace");
    assert_eq!(post(&t, &a, &ret, products).await.0, 409);
    // The shop's order is no marketplace order for this call either.
    deliver(&t, fs_order).await;
    assert_eq!(
        post(
            &t,
            &a,
            &format!("/api/postsale/v1/marketplace/orders/{fs_order}/return"),
            json!({ "products": [] })
        )
        .await
        .1["error_code"],
        "not_marketplace_order"
    );

    // And its invoice.
    let (status, inv) = post(
        &t,
        &a,
        &format!("/api/postsale/v1/orders/{order}/invoice"),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{inv}");
    let number = inv["invoiceNumber"].as_str().unwrap();
    assert!(number.starts_with("RS-"));

    // Without scripts: the order page's form gives the same number and the page (the one
    // the orders list links to) shows it with the download; another member's order leads
    // to their orders.
    let form = |who: &crate::helpers::cart::Shopper| {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
            .post(t.url(&format!("/postsales/orders/{order}/aftersale/invoice")))
            .header("cookie", &who.cookie)
            .form(&[("_xsrf", who.xsrf.as_str())])
            .send()
    };
    let res = form(&a).await.unwrap();
    assert_eq!(res.status(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        to.starts_with(&format!(
            "/postsales/{order}/details?aftersale_invoice={number}"
        )),
        "{to}"
    );
    let html = t
        .get_with_cookie(&to, &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("data-testid=\"invoice-number\"")
            && html.contains(number)
            && html.contains("data-testid=\"invoice-download\""),
        "the number and the download"
    );
    // A number the page did not get from its form is not shown.
    let html = t
        .get_with_cookie(
            &format!("/postsales/{order}/details?aftersale_invoice=<b>RS-1</b>"),
            &a.cookie,
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("data-testid=\"invoice-number\""));
    let res = form(&b).await.unwrap();
    assert_eq!(res.headers()["location"], "/my-orders");
}

both!(
    marketplace_help,
    marketplace_help_on_sqlite,
    marketplace_help_on_postgres
);

//! Returns: the reasons in the site's language; a delivered order's lines returned within
//! what was bought, the order moved to `return_requested` with its timeline event; the
//! refusals with the spec's error codes and localized messages; 404 for another member.
use reqwest::Method;
use serde_json::json;

use super::{buy, deliver, option_of_sale, order_status, post};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

fn returns_path(order_id: i64) -> String {
    format!("/api/postsale/v1/orders/{order_id}/returns")
}

async fn reasons(t: TestApp) {
    let res = t.get("/api/postsale/v1/returns/reasons").await;
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    let reasons = body["reasons"].as_array().unwrap();
    assert_eq!(reasons.len(), 5);
    let size = reasons.iter().find(|r| r["value"] == "size").unwrap();
    assert_eq!(size["labelKey"], "aftersale.returns.reason.size");
    assert_eq!(size["label"], "Taille qui ne convient pas");
    assert_eq!(size["subReasons"][1]["value"], "too_big");
    assert_eq!(size["subReasons"][1]["label"], "Trop grand");
    let wrong = reasons.iter().find(|r| r["value"] == "wrong_item").unwrap();
    assert!(wrong.get("subReasons").is_none());
    // Another site, another language.
    let de: serde_json::Value = t
        .get("/api/postsale/v1/returns/reasons?site=2")
        .await
        .json()
        .await
        .unwrap();
    let size = de["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["value"] == "size")
        .cloned()
        .unwrap();
    assert_eq!(size["label"], "Größe passt nicht");
}

both!(
    reasons,
    return_reasons_on_sqlite,
    return_reasons_on_postgres
);

async fn returns(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 1, 10).await;
    let o2 = option_of_sale(&t, 1001, 2, 10).await;
    let order = buy(&t, &a, &[(o1, 2), (o2, 1)], "fs").await;
    let path = returns_path(order);
    let good = json!({ "products": [{ "productId": o1.to_string(), "quantity": 1 }], "reasonId": "size", "subReasonId": "too_big", "comment": "Trop grand" });

    // Not delivered yet: refused with the spec's code and the French message.
    let (status, err) = post(&t, &a, &path, good.clone()).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("order_not_delivered")),
        "{err}"
    );
    assert_eq!(
        err["error_description"],
        "aftersale.errors.order_not_delivered"
    );
    assert!(err["message"]
        .as_str()
        .unwrap()
        .starts_with("Cette commande n'a pas encore"));
    deliver(&t, order).await;

    // Bad input: each a 400 with its code and field, nothing stored.
    let cases = [
        (
            json!({ "products": [], "reasonId": "size" }),
            "no_products",
            "products",
        ),
        (json!({ "reasonId": "size" }), "no_products", "products"),
        (
            json!({ "products": [{ "productId": o1.to_string(), "quantity": 3 }], "reasonId": "size" }),
            "invalid_quantity",
            "products",
        ),
        (
            json!({ "products": [{ "productId": o1.to_string(), "quantity": 0 }], "reasonId": "size" }),
            "invalid_quantity",
            "products",
        ),
        (
            json!({ "products": [{ "productId": o1, "quantity": 1 }, { "productId": o1, "quantity": 1 }], "reasonId": "size" }),
            "invalid_quantity",
            "products",
        ),
        (
            json!({ "products": [{ "productId": "999999", "quantity": 1 }], "reasonId": "size" }),
            "unknown_product",
            "products",
        ),
        (
            json!({ "products": [{ "productId": o1.to_string(), "quantity": 1 }], "reasonId": "bored" }),
            "invalid_reason",
            "reasonId",
        ),
        (
            json!({ "products": [{ "productId": o1.to_string(), "quantity": 1 }], "reasonId": "size", "subReasonId": "broken" }),
            "invalid_reason",
            "reasonId",
        ),
        (
            json!({ "products": [{ "productId": o1.to_string(), "quantity": 1 }], "reasonId": "size", "comment": "x".repeat(1001) }),
            "invalid_comment",
            "comment",
        ),
    ];
    for (body, code, field) in cases {
        let (status, err) = post(&t, &a, &path, body.clone()).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some(code)),
            "{body} → {err}"
        );
        assert_eq!(err["fieldErrors"][0]["field"], field, "{err}");
        assert!(!err["message"].as_str().unwrap_or("").is_empty(), "{err}");
    }
    // Not JSON of the shape: 400 with the standard body.
    let (status, err) = post(&t, &a, &path, json!({ "products": "all" })).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("bad_body"))
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM returns").await, 0);

    // Another member's order: 404, as for an order that does not exist.
    let b = shopper(&t, 2).await;
    let (status, err) = post(&t, &b, &path, good.clone()).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (404, Some("not_found"))
    );
    assert_eq!(
        post(&t, &a, &returns_path(999_999), good.clone()).await.0,
        404
    );
    // Without the XSRF header: refused by the middleware.
    let res = a
        .client
        .post(t.url(&path))
        .header("cookie", &a.cookie)
        .json(&good)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    // The return: stored with its line, the order in return_requested with its event.
    let (status, created) = post(&t, &a, &path, good.clone()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["status"], "return_requested");
    assert_eq!(created["orderId"], order);
    assert_eq!(order_status(&t, order).await, "return_requested");
    let events: Vec<String> =
        sqlx::query_scalar("SELECT status FROM order_events WHERE order_id = $1 ORDER BY id")
            .bind(order)
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(events.last().map(String::as_str), Some("return_requested"));
    let (s, bought, line_qty): (String, String, i64) = sqlx::query_as(
        "SELECT r.reason_id, COALESCE(r.sub_reason_id, ''), l.quantity FROM returns r JOIN return_lines l ON l.return_id = r.id WHERE r.order_id = $1",
    )
    .bind(order)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (s.as_str(), bought.as_str(), line_qty),
        ("size", "too_big", 1)
    );

    // The same line again while its return is open: refused. Another line: taken.
    let (status, err) = post(&t, &a, &path, good.clone()).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (409, Some("return_already_requested")),
        "{err}"
    );
    let other =
        json!({ "products": [{ "productId": o2, "quantity": 1 }], "reasonId": "wrong_item" });
    assert_eq!(post(&t, &a, &path, other.clone()).await.0, 201);
    assert_eq!(post(&t, &a, &path, other).await.0, 409);
    assert_eq!(t.count("SELECT COUNT(*) FROM returns").await, 2);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM return_lines WHERE open = 1")
            .await,
        2
    );
}

both!(returns, returns_on_sqlite, returns_on_postgres);

/// A no-script return through the order detail's form target.
async fn returns_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let o1 = option_of_sale(&t, 1001, 1, 10).await;
    let order = buy(&t, &a, &[(o1, 1)], "fs").await;
    deliver(&t, order).await;
    let form = [
        ("_xsrf", a.xsrf.as_str()),
        ("action", "return"),
        ("reasonId", "changed_mind"),
    ];
    let qty = format!("qty_{o1}");
    let mut pairs: Vec<(&str, &str)> = form.to_vec();
    pairs.push((qty.as_str(), "1"));
    let res = a
        .client
        .post(t.url(&format!("/postsales/orders/{order}/aftersale/return")))
        .header("cookie", &a.cookie)
        .form(&pairs)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        to.starts_with(&format!(
            "/my-orders/fs/{order}?aftersale_notice=aftersale.returns.success"
        )),
        "{to}"
    );
    assert_eq!(order_status(&t, order).await, "return_requested");
    // Again: the line's return is open, the refusal comes back as a known key.
    let res = a
        .client
        .post(t.url(&format!("/postsales/orders/{order}/aftersale/return")))
        .header("cookie", &a.cookie)
        .form(&pairs)
        .send()
        .await
        .unwrap();
    let to = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        to.contains("aftersale_error=aftersale.errors.return_already_requested"),
        "{to}"
    );
    // A stale token: 403.
    let res = a
        .client
        .post(t.url(&format!("/postsales/orders/{order}/aftersale/return")))
        .header("cookie", &a.cookie)
        .form(&[("_xsrf", "nope"), ("action", "return")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let _ = Method::GET;
}

both!(
    returns_without_scripts,
    returns_form_on_sqlite,
    returns_form_on_postgres
);

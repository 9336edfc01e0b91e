//! The deals on every site, buying one (vouchers issued in the checkout, idempotent), the
//! paged lists, an order by basketId (another member's: 404), the basket, the print page.
use reqwest::Method;
use serde_json::Value;

use super::{buy, deal_option, API};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn deals_on_every_site(t: TestApp) {
    for site in app::site::SITES {
        let (status, sales) =
            crate::helpers::json(&t, &format!("{API}/deals?site={}", site.site_id), "").await;
        assert_eq!(status, 200, "site {}: {sales}", site.site_id);
        let deals: Vec<&Value> = sales
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["deals"].as_array().unwrap())
            .collect();
        assert!(
            deals.len() >= 6,
            "site {}: {} deals",
            site.site_id,
            deals.len()
        );
        for d in deals {
            assert!(d["faceValue"].as_i64().unwrap() > d["price"].as_i64().unwrap());
            assert!(d["validityDays"].as_i64().unwrap() > 0);
            assert!(!d["partner"].as_str().unwrap().is_empty());
        }
    }
    // A deal is a sale item like any other: the shared favourite call takes it.
    let a = shopper(&t, 2).await;
    let (_, sales) = crate::helpers::json(&t, &format!("{API}/deals?site=1"), "").await;
    let deal = &sales[0]["deals"][0];
    let path = format!(
        "/api/catalog/v2/sale/{}/item/{}/favorite",
        deal["saleId"], deal["itemId"]
    );
    let (status, body) = a.call(&t, Method::PUT, &path, None).await;
    assert!(status < 300, "{status} {body}");
    let (_, mine) = a.call(&t, Method::GET, &format!("{API}/deals"), None).await;
    assert_eq!(mine[0]["deals"][0]["isFavorite"], true, "{mine}");
}

both!(
    deals_on_every_site,
    deals_on_every_site_on_sqlite,
    deals_on_every_site_on_postgres
);

async fn buying_issues_vouchers(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 2, 10).await;
    let (status, basket) = a
        .call(&t, Method::GET, &format!("{API}/basket"), None)
        .await;
    assert_eq!(
        (status, basket["items"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let order_id = buy(&t, &a, opt, 2).await;

    let (status, order) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["basketId"], order_id);
    let vouchers = order["vouchers"].as_array().unwrap();
    assert_eq!(vouchers.len(), 2, "one voucher per unit");
    assert_ne!(vouchers[0]["code"], vouchers[1]["code"]);
    for v in vouchers {
        assert_eq!(v["status"], "active");
        assert!(v["code"].as_str().unwrap().starts_with("RD-"));
        assert!(v["value"].as_i64().unwrap() > v["price"].as_i64().unwrap());
        assert!(v["expiresAt"].as_i64().unwrap() > app::platform::state::now());
        assert_eq!(v["print"], format!("/rosedeals/print/{order_id}"));
    }

    // Issuing again for the same order (a replay) adds nothing.
    let mut tx = t.app.state.db.begin().await.unwrap();
    let again =
        app::rosedeals::store::issue_vouchers(&mut tx, order_id, app::platform::state::now())
            .await
            .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(again, 0);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM rosedeal_vouchers WHERE order_id = {order_id}"
        ))
        .await,
        2
    );

    // Lists: current has it, archived not; page defaults to 1; a bad page is a 400.
    let (status, current) = a
        .call(&t, Method::GET, &format!("{API}/orders/current"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(current["page"], 1);
    assert_eq!(current["total"], 1);
    assert_eq!(current["orders"][0]["basketId"], order_id);
    let (_, archived) = a
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/archived?page=1"),
            None,
        )
        .await;
    assert_eq!(archived["total"], 0);
    let (_, page2) = a
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/current?page=2"),
            None,
        )
        .await;
    assert_eq!(page2["orders"].as_array().unwrap().len(), 0);
    let (status, bad) = a
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/current?page=0"),
            None,
        )
        .await;
    assert_eq!(
        (status, bad["error_code"].as_str()),
        (400, Some("bad_request"))
    );
    let (status, _) = a
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/current?page=x"),
            None,
        )
        .await;
    assert_eq!(status, 400);

    // Another member's basket does not exist for them; nor its print page.
    let b = shopper(&t, 2).await;
    let (status, err) = b
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (404, Some("not_found"))
    );
    let (_, theirs) = b
        .call(&t, Method::GET, &format!("{API}/orders/current"), None)
        .await;
    assert_eq!(theirs["total"], 0);
    let print = |cookie: String| {
        let t = &t;
        async move {
            let res = reqwest::Client::new()
                .get(t.url(&format!("/rosedeals/print/{order_id}")))
                .header("cookie", cookie)
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            (status, res.text().await.unwrap())
        }
    };
    let (status, html) = print(a.cookie.clone()).await;
    assert_eq!(status, 200);
    assert!(html.contains(vouchers[0]["code"].as_str().unwrap()));
    assert!(html.contains("@media print"));
    assert_eq!(print(b.cookie.clone()).await.0, 404);
    // Anonymous calls: 401.
    let (status, _) = crate::helpers::json(&t, &format!("{API}/orders/current"), "").await;
    assert_eq!(status, 401);

    // Many orders: paged by 10.
    let many = shopper(&t, 2).await;
    let opt2 = deal_option(&t, 3, 50).await;
    for _ in 0..11 {
        buy(&t, &many, opt2, 1).await;
    }
    let (_, p1) = many
        .call(&t, Method::GET, &format!("{API}/orders/current"), None)
        .await;
    let (_, p2) = many
        .call(
            &t,
            Method::GET,
            &format!("{API}/orders/current?page=2"),
            None,
        )
        .await;
    assert_eq!(p1["total"], 11);
    assert_eq!(p1["orders"].as_array().unwrap().len(), 10);
    assert_eq!(p2["orders"].as_array().unwrap().len(), 1);
}

both!(
    buying_issues_vouchers,
    buying_issues_vouchers_on_sqlite,
    buying_issues_vouchers_on_postgres
);

/// A deal is a voucher, not a parcel. A cart of deals only shows no
/// size and charges no shipping; it is paid by a member with no address at all; the order
/// is of the `rosedeal` kind (never prepared nor returned, nothing to ship) and its refund
/// gives back every cent paid. A deal beside goods leaves the goods' shipping and address
/// as they were.
async fn a_deal_is_sold_as_a_voucher_not_a_parcel(t: TestApp) {
    let a = shopper(&t, 2).await;
    sqlx::query("DELETE FROM member_addresses WHERE member_id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let opt = deal_option(&t, 1, 10).await;
    let add =
        serde_json::json!({ "product_id": opt.to_string(), "quantity": 2, "cart_type": "fs" });
    let (status, body) = a
        .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, cart) = a.call(&t, Method::GET, "/api/cartproxy/v1", None).await;
    assert_eq!(cart["items"][0]["isDigital"], true, "{cart}");
    assert_eq!(cart["totals"]["shipping"], 0, "{cart}");
    let price = cart["items"][0]["unitPrice"].as_i64().unwrap();
    assert_eq!(cart["totals"]["total"], price * 2);

    let order_id = super::pay_frozen(&t, &a).await;
    let row = sqlx::query("SELECT cart_type, shipping, total FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    use sqlx::Row;
    assert_eq!(row.get::<String, _>("cart_type"), "rosedeal");
    assert_eq!(row.get::<i64, _>("shipping"), 0);
    let total: i64 = row.get("total");
    assert_eq!(total, price * 2);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM order_addresses WHERE order_id = {order_id}"
        ))
        .await,
        0,
        "no address copied"
    );
    // The simulator makes the vouchers active; it never prepares or ships them.
    let moved = app::orders::service::advance(
        &t.app.state.db,
        order_id,
        None,
        None,
        app::platform::state::now(),
    )
    .await
    .unwrap();
    assert_eq!(moved.to.wire(), "active");
    assert!(app::orders::service::advance(
        &t.app.state.db,
        order_id,
        Some("in_preparation"),
        None,
        app::platform::state::now()
    )
    .await
    .is_err());

    // The refund gives back what was paid, to the cent.
    let (status, ok) = super::multipart(
        &t,
        &a,
        &format!("{API}/orders/{order_id}/refund"),
        &super::refund_form(super::GOOD_IBAN, false),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok["amount"], total);

    // A deal beside goods: the goods still ship, so shipping is charged and an address asked.
    let goods: i64 = sqlx::query_scalar(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = 1 AND s.campaign_kind <> 'ROSEDEAL' AND s.starts_at <= $1 AND s.ends_at > $1
            AND o.stock - o.held - o.sold > 5 AND NOT EXISTS (SELECT 1 FROM rosedeal_deals d WHERE d.product_id = p.id)
          ORDER BY o.id LIMIT 1",
    )
    .bind(app::platform::state::now())
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    for id in [opt, goods] {
        let add =
            serde_json::json!({ "product_id": id.to_string(), "quantity": 1, "cart_type": "fs" });
        let (status, body) = a
            .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let (_, cart) = a.call(&t, Method::GET, "/api/cartproxy/v1", None).await;
    assert_eq!(
        cart["totals"]["shipping"],
        app::cart::rules::SHIPPING_CENTS,
        "{cart}"
    );
    let (status, frozen) = a.call(&t, Method::GET, super::PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    let pay = serde_json::json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242 4242 4242 4242" });
    let (status, err) = a
        .call(&t, Method::POST, &format!("{}/pay", super::PIPE), Some(pay))
        .await;
    assert_eq!(status, 400, "{err}");
    assert!(err.to_string().contains("address"), "{err}");
}

both!(
    a_deal_is_sold_as_a_voucher_not_a_parcel,
    a_deal_is_sold_as_a_voucher_not_a_parcel_on_sqlite,
    a_deal_is_sold_as_a_voucher_not_a_parcel_on_postgres
);

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

//! Stock during a live sale: changes while members hold, never below held and sold, each
//! in the option's history and the audit log; the dashboard's figures move with the holds.
use reqwest::Method;
use serde_json::json;

use super::*;
use crate::helpers::cart::{option_with_stock, shopper, stock};
use crate::helpers::{both, TestApp};

async fn stock_changes_never_go_below_what_is_held_and_sold(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let option = option_with_stock(&t, 0, 4).await;
    let path = format!("/backoffice/options/{option}/stock");
    // Two members hold one unit each.
    for _ in 0..2 {
        let s = shopper(&t, 0).await;
        let (status, _) = s
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" })),
            )
            .await;
        assert_eq!(status, 201);
    }
    assert_eq!(stock(&t, option).await, (4, 2, 0));

    // Bad input first: nothing changes.
    for (change, reason, message) in [
        ("0", "x", "Enter a whole number other than 0"),
        ("2.5", "x", "Enter a whole number"),
        ("+1", "", "Say why"),
    ] {
        let (status, _, html) = merch
            .post(&t, &path, &[("change", change), ("reason", reason)])
            .await;
        assert_eq!(status, 422, "{change:?} {reason:?}");
        assert!(html.contains(message), "{message}");
    }
    // Below what is held: refused with the figures.
    let (status, _, html) = merch
        .post(&t, &path, &[("change", "-3"), ("reason", "recount")])
        .await;
    assert_eq!(status, 409);
    assert!(
        html.contains("Stock: 4, Held: 2, Sold: 0; lowest change allowed: -2"),
        "{html}"
    );
    assert_eq!(stock(&t, option).await, (4, 2, 0));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM stock_history WHERE option_id = {option} AND reason <> 'feed import'"
        ))
        .await,
        0
    );

    // Allowed: down to what is held, then up again.
    let (status, location, _) = merch
        .post(&t, &path, &[("change", "-2"), ("reason", "damaged")])
        .await;
    assert_eq!(status, 303);
    assert!(location.ends_with("/products?done=stock"));
    assert_eq!(stock(&t, option).await, (2, 2, 0));
    let s = shopper(&t, 0).await;
    let add = json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, _) = s
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(add.clone()),
        )
        .await;
    assert_ne!(status, 201, "nothing left to hold");
    let (status, _, _) = merch
        .post(&t, &path, &[("change", "+10"), ("reason", "delivery")])
        .await;
    assert_eq!(status, 303);
    let (status, _) = s
        .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "raised stock can be held at once");
    assert_eq!(stock(&t, option).await, (12, 3, 0));

    // History and audit.
    let (status, html) = merch
        .get(&t, &format!("/backoffice/options/{option}/history"))
        .await;
    assert_eq!(status, 200);
    assert!(
        html.contains("damaged")
            && html.contains("delivery")
            && html.contains("+10")
            && html.contains("merch@rosace.test")
    );
    assert_eq!(audit_count(&t, "stock", "option").await, 2);
}
both!(
    stock_changes_never_go_below_what_is_held_and_sold,
    stock_on_sqlite,
    stock_on_postgres
);

async fn concurrent_holds_and_stock_cuts_never_oversell(t: TestApp) {
    let option = option_with_stock(&t, 1, 20).await;
    let merch = std::sync::Arc::new(sign_in(&t, MERCH).await);
    let t = std::sync::Arc::new(t);
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let t = t.clone();
        tasks.push(tokio::spawn(async move {
            let s = shopper(&t, 0).await;
            let body =
                json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
            s.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
                .await
                .0
                == 201
        }));
    }
    let mut cuts = Vec::new();
    for _ in 0..6 {
        let (t, merch) = (t.clone(), merch.clone());
        cuts.push(tokio::spawn(async move {
            merch
                .post(
                    &t,
                    &format!("/backoffice/options/{option}/stock"),
                    &[("change", "-3"), ("reason", "cut")],
                )
                .await
                .0
                == 303
        }));
    }
    let mut held = 0;
    for task in tasks {
        held += i64::from(task.await.unwrap());
    }
    let mut cut = 0;
    for c in cuts {
        cut += 3 * i64::from(c.await.unwrap());
    }
    let (stock_now, held_now, sold_now) = stock(&t, option).await;
    assert_eq!(stock_now, 20 - cut, "every accepted cut applied whole");
    assert_eq!(held_now, held, "every accepted hold is held");
    assert!(
        held_now + sold_now <= stock_now,
        "never oversold: {stock_now} {held_now} {sold_now}"
    );
    let history: i64 = t
        .count(&format!(
            "SELECT COUNT(*) FROM stock_history WHERE option_id = {option} AND reason <> 'feed import'"
        ))
        .await;
    assert_eq!(history * 3, cut);
}
both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    concurrent_holds_and_stock_cuts_never_oversell,
    concurrency_on_sqlite,
    concurrency_on_postgres
);

async fn the_dashboard_follows_holds_live(t: TestApp) {
    let care = sign_in(&t, CARE).await;
    let option = option_with_stock(&t, 0, 10).await;
    let (status, html) = care.get(&t, "/backoffice/sales/1001/dashboard").await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!(r#"data-live-option="{option}""#)));
    assert!(html.contains(r#"data-live-source="/backoffice/sales/1001/dashboard/live""#));

    let s = shopper(&t, 0).await;
    let (status, _) = s
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": option.to_string(), "quantity": 2, "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 201);
    // The instance writes its add counts every 2 seconds; the test writes them now.
    t.app
        .cart
        .flush_opening_counts(app::platform::state::now())
        .await
        .unwrap();

    // The stream: a `figures` event a second, with the hold in it.
    let mut res = t
        .client
        .get(t.url("/backoffice/sales/1001/dashboard/live"))
        .header("cookie", &care.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut text = String::new();
    while !text.contains("\n\n") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), res.chunk())
            .await
            .expect("an event within 5 s")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(text.starts_with("event: figures\ndata: "), "{text}");
    let data: serde_json::Value =
        serde_json::from_str(text.lines().nth(1).unwrap().strip_prefix("data: ").unwrap()).unwrap();
    let row = data["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == option)
        .unwrap();
    assert_eq!(
        (
            row["stock"].as_i64(),
            row["held"].as_i64(),
            row["available"].as_i64()
        ),
        (Some(10), Some(2), Some(8))
    );
    assert_eq!(data["adds_per_second"], "0.1");

    // A moderator may not watch.
    let moderator = sign_in(&t, MODERATOR).await;
    assert_eq!(
        t.get_with_cookie("/backoffice/sales/1001/dashboard/live", &moderator.cookie)
            .await
            .status(),
        403
    );
}
both!(
    the_dashboard_follows_holds_live,
    dashboard_on_sqlite,
    dashboard_on_postgres
);

async fn the_dashboard_counts_the_adds_of_every_instance(t: TestApp) {
    let option = option_with_stock(&t, 2, 50).await;
    // A second instance on the same database takes the adds; this one shows the dashboard.
    let other = t.second_instance(|_| {}).await;
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let s = shopper(&t, 0).await;
        let res = client
            .post(format!("{other}/api/cartproxy/v1/item"))
            .header("cookie", &s.cookie)
            .header("X-XSRF-TOKEN", &s.xsrf)
            .json(&json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
    }
    // The other instance writes its counts within 2 seconds, by itself.
    let mut figures = None;
    for _ in 0..40 {
        let f = server::backoffice::dashboard::figures(
            &t.app.state.db,
            1001,
            app::platform::state::now(),
        )
        .await
        .unwrap();
        if f.adds_per_second == "0.3" {
            figures = Some(f);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    let f = figures.expect("the other instance's adds reach the dashboard");
    assert_eq!(f.adds_per_second, "0.3");
    let row = f.options.iter().find(|o| o.id == option).unwrap();
    assert_eq!((row.held, row.available), (3, 47));
}
both!(
    the_dashboard_counts_the_adds_of_every_instance,
    instances_on_sqlite,
    instances_on_postgres
);

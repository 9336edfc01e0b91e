//! Sale opening under concurrency, on SQLite and PostgreSQL: hundreds of members, each with
//! its own session and HTTP client, add and pay for a scarce item at once; a voucher with
//! a total limit of one is spent once however many members pay with it at the same time.
use std::sync::Arc;

use reqwest::Method;
use serde_json::json;
use tokio::task::JoinSet;

use crate::helpers::cart::{option_with_stock, shopper, stock, Shopper};
use crate::helpers::{both, TestApp};

const MEMBERS: usize = 300;
const UNITS: i64 = 20;
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

async fn shoppers(t: &TestApp, n: usize) -> Vec<Arc<Shopper>> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(Arc::new(shopper(t, 2).await));
    }
    out
}

/// Freeze and pay with the test card: the status of /pay.
async fn checkout(t: &TestApp, s: &Shopper) -> u16 {
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    if status != 200 {
        return status;
    }
    let body = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242 4242 4242 4242" });
    s.call(t, Method::POST, &format!("{PIPE}/pay"), Some(body))
        .await
        .0
}

async fn sale_opening(t: TestApp) {
    let t = Arc::new(t);
    let opt = option_with_stock(&t, 7, UNITS).await;
    let members = shoppers(&t, MEMBERS).await;
    // Everyone adds one unit at the same moment; the lucky ones pay at once.
    let mut tasks = JoinSet::new();
    for s in &members {
        let (t, s) = (t.clone(), s.clone());
        tasks.spawn(async move {
            let body = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
            let (added, err) = s
                .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
                .await;
            if added != 201 {
                assert_eq!(
                    (added, err["error_code"].as_str()),
                    (400, Some("out_of_stock")),
                    "{err}"
                );
                return (false, 0);
            }
            (true, checkout(&t, &s).await)
        });
    }
    let (mut added, mut paid) = (0, 0);
    while let Some(r) = tasks.join_next().await {
        let (ok, pay) = r.unwrap();
        if ok {
            added += 1;
            assert_eq!(pay, 200, "every member who holds a unit can pay");
            paid += 1;
        }
    }
    assert_eq!(added, UNITS, "exactly the stock was held");
    assert_eq!(paid, UNITS);
    let (total, held, sold) = stock(&t, opt).await;
    assert_eq!((total, held, sold), (UNITS, 0, UNITS), "never oversold");
    assert_eq!(t.count("SELECT COUNT(*) FROM orders").await, UNITS);
    assert_eq!(
        t.count("SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM order_items")
            .await,
        UNITS
    );

    // Mixed quantities on a fresh option: held + sold never exceeds the stock and equals
    // what the successful adds asked for.
    let opt2 = option_with_stock(&t, 8, UNITS).await;
    let mut tasks = JoinSet::new();
    for (i, s) in members.iter().cloned().enumerate() {
        let t = t.clone();
        let q = 1 + (i % 3) as i64;
        tasks.spawn(async move {
            let body = json!({ "product_id": opt2, "quantity": q, "cart_type": "fs" });
            let (status, _) = s
                .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
                .await;
            if status == 201 {
                q
            } else {
                0
            }
        });
    }
    let mut asked = 0;
    while let Some(r) = tasks.join_next().await {
        asked += r.unwrap();
    }
    let (_, held, sold) = stock(&t, opt2).await;
    assert_eq!((held, sold), (asked, 0));
    assert!(
        (UNITS - 2..=UNITS).contains(&held),
        "{held} held of {UNITS}"
    );
}

async fn voucher_limit(t: TestApp) {
    let t = Arc::new(t);
    let opt = option_with_stock(&t, 9, 1000).await;
    let members = shoppers(&t, 40).await;
    for s in &members {
        let body = json!({ "product_id": opt, "quantity": 1, "cart_type": "fs" });
        assert_eq!(
            s.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
                .await
                .0,
            201
        );
        let (status, _) = s
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/vouchers",
                Some(json!({ "code": "LIMIT1" })),
            )
            .await;
        assert_eq!(status, 201, "not spent yet: everyone may apply it");
    }
    let mut tasks = JoinSet::new();
    for s in &members {
        let (t, s) = (t.clone(), s.clone());
        tasks.spawn(async move { checkout(&t, &s).await });
    }
    let mut statuses = Vec::new();
    while let Some(r) = tasks.join_next().await {
        statuses.push(r.unwrap());
    }
    let paid = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(paid, 1, "one spend of LIMIT1: {statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 400),
        "{statuses:?}"
    );
    assert_eq!(
        t.count("SELECT used_count FROM vouchers WHERE site_id = 1 AND code = 'LIMIT1'")
            .await,
        1
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM voucher_redemptions").await, 1);
    assert_eq!(t.count("SELECT COUNT(*) FROM orders").await, 1);
    // The others' carts are open again without the voucher, holds kept, and they can pay.
    let mut loser = None;
    for s in &members {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE member_id = $1")
            .bind(s.member_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        if n == 0 {
            loser = Some(s.clone());
            break;
        }
    }
    let loser = loser.unwrap();
    let (_, cart) = loser.call(&t, Method::GET, "/api/cartproxy/v1", None).await;
    assert_eq!(cart["status"], "open");
    assert_eq!(cart["vouchers"].as_array().unwrap().len(), 0);
    assert_eq!(checkout(&t, &loser).await, 200);
    let (_, held, sold) = stock(&t, opt).await;
    assert_eq!((held, sold), (38, 2));
}

fn bigger_pool(c: &mut server::config::Config) {
    c.db_max_connections = 16;
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    sale_opening,
    sale_opening_never_oversells_on_sqlite,
    sale_opening_never_oversells_on_postgres,
    bigger_pool,
);

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    voucher_limit,
    limited_voucher_is_spent_once_on_sqlite,
    limited_voucher_is_spent_once_on_postgres,
    bigger_pool,
);

/// One member sends 20 adds of the same product at once (security review M6): at most the
/// per-member limit is held, every other add is refused with `max_reached`, and the stock
/// moved matches the cart. Then a paid order reopened into a cart that already holds the
/// product is refused when it would take the member past the limit, and changes nothing.
async fn member_limit(t: TestApp) {
    let t = Arc::new(t);
    let limit = t.app.settings.cart.max_per_member;
    let opt = option_with_stock(&t, 5, 100).await;
    let member = Arc::new(shopper(&t, 2).await);
    let mut tasks = JoinSet::new();
    for _ in 0..20 {
        let (t, member) = (t.clone(), member.clone());
        tasks.spawn(async move {
            let body = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
            let (status, err) = member
                .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
                .await;
            if status != 201 {
                assert_eq!(err["error_code"].as_str(), Some("max_reached"), "{err}");
            }
            status == 201
        });
    }
    let added = tasks.join_all().await.into_iter().filter(|ok| *ok).count() as i64;
    assert_eq!(added, limit, "exactly the limit is held");
    let (_, cart) = member
        .call(&t, Method::GET, "/api/cartproxy/v1", None)
        .await;
    assert_eq!(cart["items"][0]["quantity"].as_i64(), Some(limit), "{cart}");
    assert_eq!(stock(&t, opt).await, (100, limit, 0));

    // Pay for two, hold the limit again, then reopen the order: 2 + limit is too many.
    let (status, _) = member
        .call(&t, Method::DELETE, "/api/cartproxy/v1", None)
        .await;
    assert!(status < 300, "{status}");
    let add = |q: i64| json!({ "product_id": opt.to_string(), "quantity": q, "cart_type": "fs" });
    assert_eq!(
        member
            .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add(2)))
            .await
            .0,
        201
    );
    assert_eq!(checkout(&t, &member).await, 200);
    let (_, orders) = member
        .call(&t, Method::GET, "/api/orders/v1/orders", None)
        .await;
    let order_id = orders["orders"][0]["id"].as_i64().unwrap();
    assert_eq!(
        member
            .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add(limit)))
            .await
            .0,
        201
    );
    let reopen = json!({ "order_to_reopen": order_id.to_string(), "cart_type": "fs" });
    let (status, err) = member
        .call(&t, Method::POST, "/api/cartproxy/v1/item", Some(reopen))
        .await;
    assert_eq!(
        err["error_code"].as_str(),
        Some("max_reached"),
        "{status} {err}"
    );
    assert_eq!(stock(&t, opt).await, (100, limit, 2), "nothing moved");
    let (_, order) = member
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert_eq!(order["status"], "validated");
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    member_limit,
    parallel_adds_keep_the_member_limit_on_sqlite,
    parallel_adds_keep_the_member_limit_on_postgres,
    bigger_pool,
);

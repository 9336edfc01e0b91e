//! The member's orders, paged: page, size and total; bad values 400 in the standard body;
//! travel bookings among them; only the member's own; the page itself without scripts.
use reqwest::Method;

use super::{buy, ORDERS};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

/// `n` more orders of the member, older than any real one, the 5th a travel booking.
async fn insert_orders(t: &TestApp, member_id: i64, n: i64) {
    for i in 0..n {
        let kind = if i == 4 { "travel" } else { "fs" };
        sqlx::query(
            "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping,
                                 loyalty, total, currency, payment_reference, created_at, updated_at)
             VALUES ($1, 1, $2, 'validated', $3, 1000, 0, 0, 0, 1000, 'EUR', 'ref', $4, $4)",
        )
        .bind(member_id)
        .bind(format!("seed-{member_id}-{i}"))
        .bind(kind)
        .bind(1_000 + i)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    }
}

async fn paging(t: TestApp) {
    let a = shopper(&t, 2).await;
    let bought = buy(&t, &a, 1).await;
    insert_orders(&t, a.member_id, 22).await;
    let other = shopper(&t, 2).await;

    let (status, p1) = a.call(&t, Method::GET, ORDERS, None).await;
    assert_eq!(status, 200, "{p1}");
    assert_eq!(
        (
            p1["page"].as_u64(),
            p1["size"].as_u64(),
            p1["total"].as_i64()
        ),
        (Some(1), Some(10), Some(23))
    );
    let list = p1["orders"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    assert_eq!(list[0]["id"].as_i64(), Some(bought), "newest first");
    assert_eq!(list[0]["detailUrl"], format!("/my-orders/fs/{bought}"));
    let times: Vec<i64> = list
        .iter()
        .map(|o| o["createdAt"].as_i64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");

    let (_, p3) = a
        .call(&t, Method::GET, &format!("{ORDERS}?page=3"), None)
        .await;
    assert_eq!(
        (p3["page"].as_u64(), p3["orders"].as_array().unwrap().len()),
        (Some(3), 3)
    );
    let (_, all) = a
        .call(&t, Method::GET, &format!("{ORDERS}?page=1&size=50"), None)
        .await;
    let all = all["orders"].as_array().unwrap().clone();
    assert_eq!(all.len(), 23);
    let travel: Vec<&serde_json::Value> =
        all.iter().filter(|o| o["cartType"] == "travel").collect();
    assert_eq!(travel.len(), 1, "travel bookings are orders too");
    assert!(travel[0]["detailUrl"]
        .as_str()
        .unwrap()
        .starts_with("/my-orders/travel/"));
    let (status, past) = a
        .call(&t, Method::GET, &format!("{ORDERS}?page=4"), None)
        .await;
    assert_eq!(
        (
            status,
            past["orders"].as_array().unwrap().len(),
            past["total"].as_i64()
        ),
        (200, 0, Some(23))
    );

    for (query, code) in [
        ("page=0", "bad_page"),
        ("page=-1", "bad_page"),
        ("page=abc", "bad_page"),
        ("size=0", "bad_size"),
        ("size=51", "bad_size"),
        ("size=ten", "bad_size"),
    ] {
        let (status, err) = a
            .call(&t, Method::GET, &format!("{ORDERS}?{query}"), None)
            .await;
        assert_eq!(status, 400, "{query}: {err}");
        assert_eq!(err["error_code"], code, "{query}");
        assert_eq!(
            err["error_description"],
            "errors.general_retry.notification"
        );
    }

    let (_, none) = other.call(&t, Method::GET, ORDERS, None).await;
    assert_eq!(
        (
            none["total"].as_i64(),
            none["orders"].as_array().unwrap().len()
        ),
        (Some(0), 0)
    );
    assert_eq!(t.get(ORDERS).await.status(), 401);

    // The page itself, as a browser without scripts gets it: orders, localized statuses,
    // the pager as plain links.
    let html = t
        .get_with_cookie("/my-orders?page=2", &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"orders-pager\""), "pager");
    assert!(
        html.contains("href=\"/my-orders?page=3\""),
        "next page link"
    );
    assert!(html.contains("aria-current=\"page\""));
    assert!(html.contains("Validée"), "localized status");
    assert_eq!(html.matches("data-testid=\"order\"").count(), 10);
    let empty = t
        .get_with_cookie("/my-orders", &other.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(empty.contains("data-testid=\"orders-empty\""));
}

both!(paging, paging_on_sqlite, paging_on_postgres);

/// A list or detail that fails to load shows the post-sales error (`/ps/errors`' content,
/// with its ways on); another member's order still answers "not found".
async fn failed_loads(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let bought = buy(&t, &a, 1).await;
    let page = |path: String, cookie: String| {
        let t = &t;
        async move {
            let res = t.get_with_cookie(&path, &cookie).await;
            res.text().await.unwrap()
        }
    };
    let html = page(format!("/my-orders/fs/{bought}"), a.cookie.clone()).await;
    assert!(
        html.contains("data-testid=\"order-detail\"") && !html.contains("data-testid=\"ps-error\"")
    );

    // The order lines can no longer be read.
    sqlx::query("ALTER TABLE order_items RENAME TO order_items_away")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    for path in ["/my-orders".to_string(), format!("/my-orders/fs/{bought}")] {
        let html = page(path.clone(), a.cookie.clone()).await;
        assert!(html.contains("data-testid=\"ps-error\""), "{path}: {html}");
        assert!(html.contains("data-testid=\"ps-error-back\""), "{path}");
        assert!(!html.contains("data-testid=\"order-not-found\""), "{path}");
    }
    let html = page(format!("/my-orders/fs/{bought}"), b.cookie.clone()).await;
    assert!(html.contains("data-testid=\"order-not-found\""), "{html}");
    assert!(!html.contains("data-testid=\"ps-error\""));
}

both!(
    failed_loads,
    failed_loads_on_sqlite,
    failed_loads_on_postgres
);

//! The cart count in the page header.
use reqwest::Method;
use serde_json::json;

use super::add;
use crate::helpers::cart::{option_with_stock, shopper};
use crate::helpers::{both, TestApp};

/// The header's cart link shows the units the member holds, on every page.
async fn header_count(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (first, second) = (
        option_with_stock(&t, 1, 10).await,
        option_with_stock(&t, 2, 10).await,
    );
    let page = |path: &'static str| {
        let (t, a) = (&t, &a);
        async move {
            let res = t.get_with_cookie(path, &a.cookie).await;
            assert_eq!(res.status(), 200, "{path}");
            res.text().await.unwrap()
        }
    };
    let badge = |html: &str| {
        html.split("data-testid=\"cart-count\"").nth(1).map(|rest| {
            rest.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
        })
    };
    assert_eq!(badge(&page("/").await), None, "nothing held, no badge");
    for (opt, q) in [(first, 2), (second, 1)] {
        let (status, _) = a
            .call(
                &t,
                Method::POST,
                "/api/cartproxy/v1/item",
                Some(add(opt.to_string(), q)),
            )
            .await;
        assert_eq!(status, 201, "added");
    }
    let home = page("/").await;
    assert_eq!(badge(&home).as_deref(), Some("3"));
    assert!(
        home.contains("&quot;cartCount&quot;:3"),
        "the browser starts from it"
    );
    assert_eq!(badge(&page("/c/vente/1001/0").await).as_deref(), Some("3"));
    // Removing a line, or a hold that ended, counts no more.
    let (status, _) = a
        .call(
            &t,
            Method::DELETE,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": first.to_string(), "cart_type": "fs" })),
        )
        .await;
    assert!(status < 300, "{status}");
    assert_eq!(badge(&page("/").await).as_deref(), Some("1"));
    sqlx::query("UPDATE cart_items SET expires_at = 0 WHERE member_id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(badge(&page("/").await), None);
    // Visitors have no count.
    assert!(t
        .get("/")
        .await
        .text()
        .await
        .unwrap()
        .contains("&quot;cartCount&quot;:0"));
}

both!(
    header_count,
    header_count_on_sqlite,
    header_count_on_postgres,
);

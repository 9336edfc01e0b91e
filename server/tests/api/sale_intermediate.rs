//! A sale's intermediate step (spec 000 §3 `legal.productsListingCgu`, sale state
//! `hasAcceptedIntermediate` and `hasCanceledCart`): the demo's 11th sale of each site asks
//! a member to accept its listing conditions before its catalog; the answer is a server
//! form; both flags become true once; a cart of another kind is emptied only when the
//! member says so; and no member is ever served another's step or catalog from the page
//! caches. SQLite and PostgreSQL.
use reqwest::Method;
use serde_json::json;

use crate::helpers::cart::{option_with_stock, shopper, stock, Shopper};
use crate::helpers::{both, TestApp};

const SALE: i64 = 1011;
const CATALOG: &str = "/catalog/1011/0";

async fn page(t: &TestApp, s: &Shopper, path: &str) -> String {
    let res = s.get_page(t, path).await;
    assert_eq!(res.status(), 200, "{path}");
    assert!(
        res.headers()
            .get(app::ui::personal::NOT_SHARED_HEADER)
            .is_none(),
        "the caches' marker never leaves the server"
    );
    res.text().await.unwrap()
}

/// Posts `fields` to `path` as the member's browser would; the status and the redirect's
/// location.
async fn post(t: &TestApp, s: &Shopper, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
    s.post_form(t, path, fields).await
}

/// Posts the step's form of the demo sale with the member's token.
async fn answer(t: &TestApp, s: &Shopper, fields: &[(&str, &str)]) -> (u16, String) {
    let mut body = vec![("_xsrf", s.xsrf.as_str())];
    body.extend_from_slice(fields);
    post(t, s, &format!("/catalog/{SALE}/intermediate"), &body).await
}

/// Holds one unit of the `nth` option of the flash sale 1001 (5 in stock); its id.
async fn hold_flash_item(t: &TestApp, s: &Shopper, nth: i64) -> i64 {
    let option = option_with_stock(t, nth, 5).await;
    let (status, _) = s
        .call(
            t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 201);
    option
}

async fn state(t: &TestApp, s: &Shopper) -> serde_json::Value {
    let (status, sale) = s
        .call(
            t,
            Method::GET,
            &format!("/api/catalog/v2/sale/{SALE}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    sale["state"].clone()
}

fn gated(html: &str) -> bool {
    html.contains("data-testid=\"sale-intermediate\"")
}

async fn intermediate(t: TestApp) {
    // The demo: every site's 11th sale has conditions, in its language.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE id % 1000 = 11 AND id < 100000 AND products_listing_cgu <> ''")
            .await,
        11
    );
    let (a, b) = (shopper(&t, 99).await, shopper(&t, 99).await);
    // A visitor is never asked (there is nobody to record an answer for), and the call
    // says nothing was answered.
    let anonymous = t.get(CATALOG).await.text().await.unwrap();
    assert!(!gated(&anonymous));
    let (status, sale) = crate::helpers::json(&t, "/api/catalog/v2/sale/1011", "").await;
    assert_eq!(status, 200);
    assert!(sale["legal"]["productsListingCgu"]
        .as_str()
        .unwrap()
        .contains("vendeur partenaire"));
    assert_eq!(
        sale["state"],
        json!({ "hasAcceptedIntermediate": false, "hasCanceledCart": false })
    );

    // A member meets the step, its conditions and no item; the other sales are as before.
    let html = page(&t, &a, CATALOG).await;
    assert!(gated(&html), "the step before the catalog");
    assert!(html.contains("vendeur partenaire") && !html.contains("data-item-id="));
    assert!(
        !html.contains("name=\"emptyCart\""),
        "an empty cart is not offered to empty"
    );
    assert!(!gated(&page(&t, &a, "/catalog/1001/0").await));

    // A's cart holds a flash-sale item; this sale is a marketplace one: the step says so.
    let fs = hold_flash_item(&t, &a, 0).await;
    let html = page(&t, &a, CATALOG).await;
    assert!(
        html.contains("data-testid=\"intermediate-cart\"") && html.contains("name=\"emptyCart\"")
    );

    // Bad input changes nothing: no token, a sale id that is not one, a sale without the step.
    let step = format!("/catalog/{SALE}/intermediate");
    let (status, _) = post(&t, &a, &step, &[("returnTo", CATALOG)]).await;
    assert_eq!(status, 403);
    let xsrf = a.xsrf.as_str();
    let (status, location) = post(&t, &a, "/catalog/x1%27/intermediate", &[("_xsrf", xsrf)]).await;
    assert_eq!(status, 303);
    assert!(location.contains("error=errors.not_found"), "{location}");
    let (status, location) = post(
        &t,
        &a,
        "/catalog/1001/intermediate",
        &[("_xsrf", xsrf), ("returnTo", "https://evil.test/")],
    )
    .await;
    assert_eq!(status, 303);
    assert!(
        location.starts_with("/catalog/1001/0") && location.contains("error=errors.not_found"),
        "{location}"
    );
    assert_eq!(state(&t, &a).await["hasAcceptedIntermediate"], false);
    assert_eq!(stock(&t, fs).await.1, 1, "the hold is still there");

    // B, interleaved with A, under load: each member's page is their own, never a copy of
    // the other's (B answers first; A's step and B's catalog then alternate).
    let (status, location) = answer(&t, &b, &[("returnTo", CATALOG)]).await;
    assert_eq!(status, 303);
    assert!(
        location.starts_with(CATALOG),
        "back to the catalog: {location}"
    );
    assert_eq!(
        state(&t, &b).await,
        json!({ "hasAcceptedIntermediate": true, "hasCanceledCart": false })
    );
    for _ in 0..12 {
        let (a1, b1, a2, b2) = tokio::join!(
            page(&t, &a, CATALOG),
            page(&t, &b, CATALOG),
            page(&t, &a, CATALOG),
            page(&t, &b, CATALOG)
        );
        for html in [a1, a2] {
            assert!(
                gated(&html),
                "A has not answered: the step, not B's catalog"
            );
        }
        for html in [b1, b2] {
            assert!(
                !gated(&html) && html.contains("data-item-id="),
                "B answered: the catalog"
            );
        }
    }

    // A accepts without emptying: the cart stays, the flag is set once.
    let (status, _) = answer(&t, &a, &[("returnTo", CATALOG)]).await;
    assert_eq!(status, 303);
    assert_eq!(
        state(&t, &a).await,
        json!({ "hasAcceptedIntermediate": true, "hasCanceledCart": false })
    );
    assert_eq!(stock(&t, fs).await.1, 1);
    let first: i64 = t
        .count(&format!(
            "SELECT accepted_intermediate_at FROM sale_member_states WHERE member_id = {}",
            a.member_id
        ))
        .await;
    assert!(!gated(&page(&t, &a, CATALOG).await));

    // Emptying, asked later, empties the cart (units back) and sets the other flag; the
    // first acceptance keeps its time: each flag becomes true once.
    let (status, _) = answer(&t, &a, &[("returnTo", CATALOG), ("emptyCart", "1")]).await;
    assert_eq!(status, 303);
    assert_eq!(
        state(&t, &a).await,
        json!({ "hasAcceptedIntermediate": true, "hasCanceledCart": true })
    );
    assert_eq!(stock(&t, fs).await.1, 0, "the held unit is back");
    assert_eq!(
        t.count(&format!(
            "SELECT accepted_intermediate_at FROM sale_member_states WHERE member_id = {}",
            a.member_id
        ))
        .await,
        first
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sale_member_states WHERE member_id = {}",
            a.member_id
        ))
        .await,
        1
    );
}

async fn frozen_cart_is_not_emptied(t: TestApp) {
    let a = shopper(&t, 99).await;
    let fs = hold_flash_item(&t, &a, 1).await;
    // Frozen for payment (checkout's first step).
    let (status, _) = a
        .call(&t, Method::GET, "/api/cartproxy/orderpiper/cart/v3", None)
        .await;
    assert_eq!(status, 200);
    let (status, location) = answer(&t, &a, &[("returnTo", CATALOG), ("emptyCart", "1")]).await;
    assert_eq!(status, 303);
    assert!(location.contains("error=cart.errors.frozen"), "{location}");
    // Nothing recorded, nothing released; the page says why in the member's language.
    assert_eq!(state(&t, &a).await["hasAcceptedIntermediate"], false);
    assert_eq!(stock(&t, fs).await.1, 1);
    let html = page(&t, &a, &location).await;
    assert!(gated(&html));
    assert!(html.contains("data-testid=\"intermediate-error\""));
}

// The page caches on, as in production: the member templates are what could mix members.
both!(
    intermediate,
    sale_intermediate_on_sqlite,
    sale_intermediate_on_postgres,
    |c| c.page_cache_ms = 60_000
);
both!(
    frozen_cart_is_not_emptied,
    sale_intermediate_frozen_on_sqlite,
    sale_intermediate_frozen_on_postgres
);

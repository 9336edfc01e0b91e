//! Bundles and carousels (spec 000 §3 item type Carrousel 7, §5 cart context `bundle_id`,
//! §7 "carousel" and "bundle price"; coverage F22, K6, K27): the demo's first sale of each
//! site sells its Carrousel item with the two products after it. The catalog tile shows the
//! strip, the carousel and bundle-price calls answer, the product pages offer the bundle,
//! and its form puts every product in the cart in one add with the bundle's id, or none.
//! SQLite and PostgreSQL.
use crate::helpers::cart::{shopper, stock, Shopper};
use crate::helpers::{both, json, TestApp};

const SALE: i64 = 1001;
const BUNDLE: i64 = 1001;
const PRODUCTS: [i64; 3] = [100108, 100109, 100110];

/// Each bundled product's options with known stock: the first 5 units, the second none,
/// the third 2 and 5 € dearer than its product (an option's own price). Their ids, by product.
async fn known_stock(t: &TestApp) -> Vec<[i64; 3]> {
    let mut out = Vec::new();
    for p in PRODUCTS {
        let ids: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM product_options WHERE product_id = $1 ORDER BY id LIMIT 3",
        )
        .bind(p)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
        assert_eq!(
            ids.len(),
            3,
            "every bundled demo product has three sizes or more"
        );
        for (id, units) in ids.iter().zip([5, 0, 2]) {
            sqlx::query(
                "UPDATE product_options SET stock = $2, held = 0, sold = 0, price_cents = NULL,
                        retail_price_cents = NULL WHERE id = $1",
            )
            .bind(id)
            .bind(units)
            .execute(&t.app.state.db.pool)
            .await
            .unwrap();
        }
        sqlx::query(
            "UPDATE product_options SET price_cents = (SELECT price_cents + 500 FROM products WHERE id = $2),
                    retail_price_cents = (SELECT retail_price_cents FROM products WHERE id = $2) WHERE id = $1",
        )
        .bind(ids[2])
        .bind(p)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
        out.push([ids[0], ids[1], ids[2]]);
    }
    out
}

async fn page(t: &TestApp, s: &Shopper, path: &str) -> String {
    let res = s.get_page(t, path).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

/// Posts the bundle form with `fields` (and the member's token unless `token` is false);
/// the status and the redirect's location.
async fn post(t: &TestApp, s: &Shopper, fields: &[(&str, String)], token: bool) -> (u16, String) {
    let mut body: Vec<(&str, String)> = fields.to_vec();
    if token {
        body.push(("_xsrf", s.xsrf.clone()));
    }
    s.post_form(t, app::product::bundle::FORM_ROUTE, &body)
        .await
}

async fn held(t: &TestApp, s: &Shopper) -> i64 {
    t.count(&format!(
        "SELECT COUNT(*) FROM cart_items WHERE member_id = {}",
        s.member_id
    ))
    .await
}

async fn product_price(t: &TestApp, id: i64) -> i64 {
    t.count(&format!("SELECT price_cents FROM products WHERE id = {id}"))
        .await
}

async fn bundles(t: TestApp) {
    // The demo: one bundle of three products on every site.
    assert_eq!(t.count("SELECT COUNT(*) FROM bundles").await, 11);
    assert_eq!(t.count("SELECT COUNT(*) FROM bundle_items").await, 33);
    let options = known_stock(&t).await;
    let prices = [
        product_price(&t, PRODUCTS[0]).await,
        product_price(&t, PRODUCTS[1]).await,
        product_price(&t, PRODUCTS[2]).await,
    ];
    let a = shopper(&t, 99).await;

    // The catalog: the Carrousel item's tile carries the strip of the bundle's products,
    // in the page and in the content call; no other tile has one.
    let html = page(&t, &a, &format!("/catalog/{SALE}/0")).await;
    assert_eq!(html.matches("data-testid=\"carousel\"").count(), 1);
    for p in PRODUCTS {
        assert!(
            html.contains(&format!("href=\"/product/{SALE}/{p}\" title=")),
            "{p}"
        );
    }
    let (status, content) = json(
        &t,
        &format!("/api/catalog/v2/sale/{SALE}/catalogContent/0?limit=60"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    let strips: Vec<&serde_json::Value> = content["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i.get("carousel").is_some())
        .collect();
    assert_eq!(strips.len(), 1);
    assert_eq!(strips[0]["id"], PRODUCTS[0]);
    assert_eq!(strips[0]["type"], 7);

    // The carousel call: the bundle's products, in order; 404 for an item in no bundle or
    // of another sale.
    let (status, carousel) = json(
        &t,
        &format!("/api/catalog/v1/sale/{SALE}/carousel/{}", PRODUCTS[1]),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(carousel["bundleId"], BUNDLE);
    let ids: Vec<i64> = carousel["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, PRODUCTS);
    for bad in ["/carousel/100111", "/carousel/abc", "/carousel/-1"] {
        let (status, _) = json(&t, &format!("/api/catalog/v1/sale/{SALE}{bad}"), "").await;
        assert!(status == 404 || status == 400, "{bad}: {status}");
    }
    let (status, _) = json(&t, "/api/catalog/v1/sale/2001/carousel/100108", "").await;
    assert_eq!(status, 404, "another site's sale");

    // The bundle's price: each product's first size in stock, or the sizes asked for.
    let price_of = |q: &str| {
        let t = &t;
        let path = format!("/api/catalog/v1/sale/{SALE}/bundle/{BUNDLE}/price{q}");
        async move { json(t, &path, "").await }
    };
    let (status, priced) = price_of("").await;
    assert_eq!(status, 200);
    assert_eq!(priced["price"]["value"], prices.iter().sum::<i64>());
    let lines: Vec<i64> = priced["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["optionId"].as_i64().unwrap())
        .collect();
    assert_eq!(lines, [options[0][0], options[1][0], options[2][0]]);
    let (status, priced) = price_of(&format!("?options={}", options[1][2])).await;
    assert_eq!(status, 200);
    assert_eq!(
        priced["price"]["value"],
        prices.iter().sum::<i64>() + 500,
        "the dearer size counts at its own price"
    );
    // Bad input: an option of no product of the bundle, two of one product, not a number,
    // too many; a sold-out size; a bundle that is not one.
    let outside: i64 = t
        .count("SELECT MIN(o.id) FROM product_options o WHERE o.product_id = 100111")
        .await;
    for (q, want, code) in [
        (format!("?options={outside}"), 400, "not_in_bundle"),
        (
            format!("?options={},{}", options[0][0], options[0][2]),
            400,
            "not_in_bundle",
        ),
        ("?options=x".to_string(), 400, "not_in_bundle"),
        (
            format!("?options={}", "1,".repeat(30)),
            400,
            "not_in_bundle",
        ),
        (format!("?options={}", options[2][1]), 409, "sold_out"),
    ] {
        let (status, body) = price_of(&q).await;
        assert_eq!(status, want, "{q}");
        assert_eq!(body["error_code"], code, "{q}");
    }
    let (status, _) = json(
        &t,
        &format!("/api/catalog/v1/sale/{SALE}/bundle/1002/price"),
        "",
    )
    .await;
    assert_eq!(status, 404);

    // Each product page of the bundle offers it: three products, the total, one button.
    let product = format!("/product/{SALE}/{}", PRODUCTS[2]);
    let html = page(&t, &a, &product).await;
    assert!(html.contains("data-testid=\"bundle\""));
    assert_eq!(html.matches("data-testid=\"bundle-item\"").count(), 3);
    assert!(html.contains("Vendus ensemble") && html.contains("Ajouter les 3 articles au panier"));
    // A size asked in the address is the one selected (the form's refresh), and a size of
    // its own price says it.
    let html = page(
        &t,
        &a,
        &format!("{product}?option_{}={}", PRODUCTS[1], options[1][2]),
    )
    .await;
    assert!(
        html.contains(&format!("value=\"{}\" selected", options[1][2])),
        "chosen size selected"
    );
    assert!(
        !html.contains("data-testid=\"bundle-error\">"),
        "no error without one"
    );

    // Bad input changes nothing: no token; a size of another product; a sold-out size; a
    // size that is not a number; a bundle id that is not one. A return address elsewhere
    // is not followed.
    let form = |picks: &[(i64, i64)], bundle: &str| {
        let mut f = vec![
            ("saleId", SALE.to_string()),
            ("bundleId", bundle.to_string()),
            ("returnTo", product.clone()),
        ];
        for (p, o) in picks {
            let field = match *p {
                100108 => "option_100108",
                100109 => "option_100109",
                _ => "option_100110",
            };
            f.push((field, o.to_string()));
        }
        f
    };
    let (status, _) = post(&t, &a, &form(&[], "1001"), false).await;
    assert_eq!(status, 403);
    let (status, location) = post(&t, &a, &form(&[(PRODUCTS[0], outside)], "1001"), true).await;
    assert_eq!(status, 303);
    assert!(
        location.starts_with(&format!("{product}?error=product.bundle.not_in_bundle"))
            && location.ends_with("#bundle"),
        "{location}"
    );
    let (_, location) = post(&t, &a, &form(&[(PRODUCTS[2], options[2][1])], "1001"), true).await;
    assert!(
        location.contains("error=product.bundle.sold_out"),
        "{location}"
    );
    let (_, location) = post(&t, &a, &form(&[(PRODUCTS[1], -4)], "1001"), true).await;
    assert!(
        location.contains("error=product.bundle.not_in_bundle"),
        "{location}"
    );
    let (_, location) = post(&t, &a, &form(&[], "99999"), true).await;
    assert!(location.contains("error=errors.not_found"), "{location}");
    let mut evil = form(&[], "1001");
    evil[2].1 = "https://evil.test/".into();
    let (_, location) = post(&t, &a, &evil, true).await;
    assert!(
        location.starts_with("/cart"),
        "a good form still adds: {location}"
    );
    assert_eq!(held(&t, &a).await, 3);
    // The error shows by the bundle, in the member's language.
    let html = page(&t, &a, &format!("{product}?error=product.bundle.sold_out")).await;
    assert!(html.contains("épuisé dans la taille choisie"));

    // A second member adds the bundle in the sizes they chose: one line per product, each
    // with the bundle's id, one unit held of each chosen size.
    let b = shopper(&t, 99).await;
    let before = stock(&t, options[1][2]).await;
    let (status, location) =
        post(&t, &b, &form(&[(PRODUCTS[1], options[1][2])], "1001"), true).await;
    assert_eq!(status, 303);
    assert!(location.starts_with("/cart"), "{location}");
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM cart_items WHERE member_id = {} AND bundle_id = '1001' AND origin = 'bundle'",
            b.member_id
        ))
        .await,
        3
    );
    assert_eq!(stock(&t, options[1][2]).await.1, before.1 + 1);
    assert_eq!(
        stock(&t, options[0][0]).await.1,
        2,
        "A's and B's units of the first size"
    );
    // All or none: C and D ask for the last unit of one size at once. One bundle goes in;
    // the other member holds nothing, not even the products that had units left.
    sqlx::query("UPDATE product_options SET stock = held + sold + 1 WHERE id = $1")
        .bind(options[2][0])
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (c, d) = (shopper(&t, 99).await, shopper(&t, 99).await);
    let first_before = stock(&t, options[0][0]).await;
    let last = form(&[(PRODUCTS[2], options[2][0])], "1001");
    let ((_, to_c), (_, to_d)) = tokio::join!(post(&t, &c, &last, true), post(&t, &d, &last, true));
    let won: Vec<bool> = [&to_c, &to_d]
        .iter()
        .map(|l| l.starts_with("/cart"))
        .collect();
    assert_eq!(won.iter().filter(|w| **w).count(), 1, "{to_c} / {to_d}");
    let loser = if won[0] { (&d, &to_d) } else { (&c, &to_c) };
    assert!(
        loser.1.contains("#bundle") && loser.1.contains("error="),
        "{}",
        loser.1
    );
    assert_eq!(held(&t, loser.0).await, 0);
    assert_eq!(
        stock(&t, options[0][0]).await.1,
        first_before.1 + 1,
        "one unit, the winner's"
    );
    let (units, held_units, sold) = stock(&t, options[2][0]).await;
    assert_eq!(held_units + sold, units, "the last unit is the winner's");
}

// The page caches on, as in production: the bundle section sits in cached product pages.
both!(bundles, bundles_on_sqlite, bundles_on_postgres, |c| c
    .page_cache_ms =
    60_000);

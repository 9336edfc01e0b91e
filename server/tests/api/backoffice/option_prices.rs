//! An option with its own price and picture (coverage P9): made through the back-office
//! form (refusals save nothing), shown by the options call and the product page, and
//! charged by the cart.
use reqwest::Method;
use serde_json::json;

use super::*;
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

fn euros(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn png() -> Vec<u8> {
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(300, 300, |x, y| {
        image::Rgb([x as u8, 40, y as u8])
    }))
    .write_to(&mut png, image::ImageFormat::Png)
    .unwrap();
    png.into_inner()
}

async fn an_option_costs_and_looks_as_its_own(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    // A product of the live demo sale 1001 whose options all have the product's prices.
    let (product, price, retail): (i64, i64, i64) = sqlx::query_as(
        "SELECT p.id, p.price_cents, p.retail_price_cents FROM products p
          WHERE p.sale_id = 1001 AND NOT EXISTS (SELECT 1 FROM product_options o
                WHERE o.product_id = p.id AND (o.price_cents IS NOT NULL OR o.image_id IS NOT NULL))
          ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let form = format!("/backoffice/products/{product}/options/new");
    let options_before = t
        .count(&format!(
            "SELECT COUNT(*) FROM product_options WHERE product_id = {product}"
        ))
        .await;

    // Refused, nothing saved: an amount that does not read, and an own price above the
    // product's retail price with no retail price of its own.
    let (status, _, html) = merch
        .post(
            &t,
            &form,
            &[("label", "3XL"), ("stock", "4"), ("price", "12€")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter both prices as amounts"), "{html}");
    let (status, _, html) = merch
        .post(
            &t,
            &form,
            &[
                ("label", "3XL"),
                ("stock", "4"),
                ("price", &euros(retail + 100)),
                ("retail_price", ""),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("The retail price cannot be below the sale price."));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM product_options WHERE product_id = {product}"
        ))
        .await,
        options_before
    );

    // Made: its own price and retail price; then its own picture.
    let (own_price, own_retail) = (price + 1000, retail + 2000);
    let (status, location, _) = merch
        .post(
            &t,
            &form,
            &[
                ("label", "3XL"),
                ("stock", "4"),
                ("price", &euros(own_price).replace('.', ",")),
                ("retail_price", &euros(own_retail)),
            ],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/sales/1001/products?done=option")
    );
    let option = t
        .count(&format!(
            "SELECT MAX(id) FROM product_options WHERE product_id = {product}"
        ))
        .await;
    let summary: String = sqlx::query_scalar(
        "SELECT summary FROM audit_log WHERE action = 'create' AND object_kind = 'option' AND object_id = $1",
    )
    .bind(option.to_string())
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        summary.contains(&format!("price Some({own_price})")),
        "{summary}"
    );
    let upload = |token: &str| {
        let form = reqwest::multipart::Form::new()
            .text("_xsrf", token.to_string())
            .part(
                "picture",
                reqwest::multipart::Part::bytes(png()).file_name("3xl.png"),
            );
        t.client
            .post(t.url(&format!("/backoffice/options/{option}/picture")))
            .header("cookie", &merch.cookie)
            .multipart(form)
            .send()
    };
    assert_eq!(upload("forged").await.unwrap().status(), 403);
    assert_eq!(upload(&merch.xsrf).await.unwrap().status(), 303);
    let picture = t
        .count(&format!(
            "SELECT image_id FROM product_options WHERE id = {option}"
        ))
        .await;
    assert!(picture > 0);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM products WHERE id = {product} AND image_id IS NOT NULL"
        ))
        .await,
        0,
        "the product keeps its own picture"
    );
    assert_eq!(audit_count(&t, "picture", "option").await, 1);
    let (status, html) = merch.get(&t, "/backoffice/sales/1001/products").await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!(r#"data-option-price="{option}""#)));
    assert!(html.contains(&format!(r#"data-option-picture="{option}""#)));
    // An option of another role's reach: customer care may not upload.
    let care = sign_in(&t, CARE).await;
    let res = t
        .client
        .post(t.url(&format!("/backoffice/options/{option}/picture")))
        .header("cookie", &care.cookie)
        .multipart(reqwest::multipart::Form::new().text("_xsrf", care.xsrf.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    // The options call gives each option its price and picture.
    let member = shopper(&t, i64::MAX).await;
    let (status, body) = member
        .call(
            &t,
            Method::GET,
            &format!("/api/catalog/v1/sale/1001/item/{product}/options"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let options = body["options"].as_array().unwrap();
    for o in options {
        let own = o["id"] == option;
        assert_eq!(
            o["price"]["value"],
            if own { own_price } else { price },
            "{o}"
        );
        assert_eq!(
            o["price"]["retailValue"],
            if own { own_retail } else { retail },
            "{o}"
        );
        assert_eq!(
            o["preview"],
            if own {
                json!(format!("/img/p/{picture}"))
            } else {
                json!(null)
            },
            "{o}"
        );
    }

    // The product page: before a choice, the first option in stock (made so here) with the
    // product's price and picture; the chosen option's are the browser's (end2end).
    sqlx::query(&format!(
        "UPDATE product_options SET stock = held + sold + 5 WHERE id = (SELECT MIN(id) FROM product_options WHERE product_id = {product})"
    ))
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let html = t
        .get_with_cookie(&format!("/product/1001/{product}"), &member.cookie)
        .await
        .text()
        .await
        .unwrap();
    let shown = html
        .split(r#"data-testid="product-price""#)
        .nth(1)
        .and_then(|rest| rest.split('>').nth(1))
        .and_then(|rest| rest.split('<').next())
        .expect("a price on the product page");
    assert!(shown.contains(&euros(price).replace('.', ",")), "{shown}");
    assert!(
        html.contains(&format!(r#"src="/img/product/{product}.svg""#)),
        "the product's own picture before a choice"
    );

    // The cart charges the option's own price (the order's lines are the cart's).
    let (status, cart) = member
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(json!({ "product_id": option.to_string(), "quantity": 2, "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["items"][0]["unitPrice"], own_price);
    assert_eq!(
        cart["items"][0]["image"],
        format!("/img/p/{picture}"),
        "the cart shows the chosen option's picture"
    );

    // An option cheaper than every product of the sale: the sale's "from" price is its.
    let (status, _, _) = merch
        .post(
            &t,
            &form,
            &[
                ("label", "Échantillon"),
                ("stock", "1"),
                ("price", "1"),
                ("retail_price", ""),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let sales = app::home::store::live_sales(&t.app.state.db, 1, app::platform::state::now())
        .await
        .unwrap();
    let sale = sales.iter().find(|s| s.id == 1001).unwrap();
    assert_eq!(sale.min_price_cents, Some(100));
    assert_eq!(cart["items"][0]["total"], 2 * own_price);
}
both!(
    an_option_costs_and_looks_as_its_own,
    option_prices_on_sqlite,
    option_prices_on_postgres
);

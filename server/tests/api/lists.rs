//! Brand pages, the favourites list and the product page's server HTML (data sheet
//! sanitised, delivery mode, seller kind, favourite flag), on SQLite and PostgreSQL.
use crate::helpers::{both, cookie_value, json, start, Backend, TestApp};

async fn brand_and_favourites(t: TestApp) {
    let brand_id: i64 = sqlx::query_scalar("SELECT brand_id FROM products WHERE id = 100101")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let live_on_site_1: i64 = t
        .count(&format!(
            "SELECT COUNT(*) FROM products p JOIN sales s ON s.id = p.sale_id
              WHERE p.brand_id = {brand_id} AND s.site_id = 1 AND s.campaign_kind = 'DEFAULT'"
        ))
        .await;
    let (status, page) = json(
        &t,
        &format!("/api/catalog/v1/brands/{brand_id}/items?limit=5&offset=0"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(page["total"].as_i64(), Some(live_on_site_1));
    assert!(live_on_site_1 > 5, "the demo brand spans several sales");
    assert_eq!(page["items"].as_array().unwrap().len(), 5);
    let sales: std::collections::HashSet<i64> = {
        let (_, all) = json(
            &t,
            &format!("/api/catalog/v1/brands/{brand_id}/items?limit=96"),
            "",
        )
        .await;
        all["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["saleId"].as_i64().unwrap())
            .collect()
    };
    assert!(sales.len() > 1, "items come from several live sales");
    assert!(
        sales.iter().all(|s| (1001..2000).contains(s)),
        "site 1 only"
    );
    assert_eq!(
        json(&t, "/api/catalog/v1/brands/999999/items", "").await.0,
        404
    );

    // Favourites list: members only, follows PUT/DELETE.
    assert_eq!(json(&t, "/api/catalog/v1/favorites", "").await.0, 401);
    let session = t.member_session(1).await;
    let page = t.get_with_cookie("/gr/aboutus", &session).await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let (_, empty) = json(&t, "/api/catalog/v1/favorites", &session).await;
    assert_eq!(empty["items"].as_array().unwrap().len(), 0);
    for item in [100101, 100205] {
        let sale = item / 100;
        let res = t
            .client
            .put(t.url(&format!("/api/catalog/v2/sale/{sale}/item/{item}/favorite")))
            .header(
                "cookie",
                format!("{session}; {}", crate::helpers::xsrf_cookie(&xsrf)),
            )
            .header("X-XSRF-TOKEN", &xsrf)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 204);
    }
    let (_, list) = json(&t, "/api/catalog/v1/favorites", &session).await;
    let ids: Vec<i64> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&100101) && ids.contains(&100205));
    assert!(list["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["favorite"] == true));
    // The favourites page renders them for the member and sends visitors to sign in.
    let html = t
        .get_with_cookie("/postsales/favourites", &session)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(html.matches("data-item-id=").count(), 2);
    assert_eq!(t.get("/postsales/favourites").await.status(), 302);
    // The product page shows the member's flag.
    let product = t
        .get_with_cookie("/product/1001/100101", &session)
        .await
        .text()
        .await
        .unwrap();
    assert!(product.contains("favourite--on"));
}

both!(
    brand_and_favourites,
    brand_items_and_favourites_on_sqlite,
    brand_items_and_favourites_on_postgres
);

#[tokio::test]
async fn product_page_sanitises_the_data_sheet_and_shows_delivery_and_seller() {
    let t = start(Backend::Sqlite).await;
    sqlx::query(
        "UPDATE products SET description_html = $1, delivery_mode = 3, seller_kind = 'marketplace' WHERE id = 100101",
    )
    .bind(r#"<p onclick="steal()">Coton <b>bio</b></p><script>alert('x')</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">lien</a>"#)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let html = t
        .get("/seo-product/x/1001/y/100101")
        .await
        .text()
        .await
        .unwrap();
    let sheet = html
        .split("class=\"datasheet\">")
        .nth(1)
        .unwrap()
        .split("</div>")
        .next()
        .unwrap();
    assert_eq!(sheet, "<p>Coton <b>bio</b></p>lien");
    assert!(!html.contains("alert("));
    assert!(html.contains("Expédié par le fournisseur"));
    assert!(html.contains("Un vendeur partenaire"));
    let options = t
        .count("SELECT COUNT(*) FROM product_options WHERE product_id = 100101")
        .await;
    assert_eq!(
        html.matches("data-testid=\"product-option\"").count() as i64,
        options
    );
    // The brand page is an open-door SEO page, complete in the server HTML.
    let brand_id: i64 = sqlx::query_scalar("SELECT brand_id FROM products WHERE id = 100101")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let res = t.get(&format!("/b/{brand_id}")).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.matches("data-item-id=").count() > 1);
    assert!(html.contains("rel=\"canonical\""));
    assert_eq!(t.get("/b/999999").await.status(), 404);
}

/// The add a visitor began before signing in comes back with them (`PendingAdd`, spec 000
/// §2's `productid`, `quantity` and `type`): the option checked in the server HTML and said
/// by the add button; a stale or edited link shows no choice.
#[tokio::test]
async fn product_page_comes_back_with_the_choice_made_before_sign_in() {
    let t = start(Backend::Sqlite).await;
    let options: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, stock FROM product_options WHERE product_id = 100101 ORDER BY id",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    let (chosen, stock) = *options.iter().find(|(_, stock)| *stock >= 2).unwrap();
    let page = |query: String| {
        let t = &t;
        async move {
            t.get(&format!("/seo-product/x/1001/y/100101?{query}"))
                .await
                .text()
                .await
                .unwrap()
        }
    };
    let checked = |html: &str| {
        html.split("<input type=\"radio\"")
            .skip(1)
            .filter(|input| input.split('>').next().unwrap().contains(" checked"))
            .map(|input| {
                input
                    .split("value=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect::<Vec<_>>()
    };
    let html = page(format!("productid={chosen}&quantity=2&type=fs")).await;
    assert_eq!(checked(&html), [chosen.to_string()]);
    assert!(html.contains("data-testid=\"pending-add\" data-quantity=\"2\""));
    assert!(html.contains("Votre choix vous attend"));
    // A second choice after an older one in the address: the last is read.
    let (other, _) = *options
        .iter()
        .find(|(id, stock)| *id != chosen && *stock >= 1)
        .unwrap();
    let html = page(format!(
        "productid={chosen}&quantity=2&productid={other}&quantity=1&type=fs"
    ))
    .await;
    assert_eq!(checked(&html), [other.to_string()]);
    assert!(html.contains("data-testid=\"pending-add\" data-quantity=\"1\""));
    // Without the link's choice nothing is checked (the product has several options).
    assert!(options.len() > 1);
    let plain = page(String::new()).await;
    assert!(checked(&plain).is_empty());
    assert!(!plain.contains("pending-add"));
    for bad in [
        format!("productid={chosen}&quantity={}", stock + 1),
        format!("productid={chosen}&quantity=0"),
        format!("productid={chosen}&type=marketplace"),
        "productid=999999999".to_string(),
        "productid=%3Cscript%3E&quantity=%00".to_string(),
    ] {
        let html = page(bad.clone()).await;
        assert!(checked(&html).is_empty(), "{bad}");
        assert!(!html.contains("pending-add"), "{bad}");
        assert!(!html.contains("<script>"), "{bad}");
    }
}

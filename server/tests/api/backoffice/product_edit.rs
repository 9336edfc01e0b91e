//! A product edited on its page (name, prices, data sheet, tier, delivery, seller,
//! universe) and a sale's universes and sub-universes: refusals change nothing, an option's
//! own prices are never struck through a lower retail price, and the catalog shows the
//! product in its new universe with its new tier.
use super::*;
use crate::helpers::{both, json, TestApp};

async fn an_operator_edits_a_product_and_the_universes(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let product = t
        .count("SELECT MIN(id) FROM products WHERE sale_id = 1001")
        .await;
    let page = format!("/backoffice/products/{product}");
    let (status, html) = merch.get(&t, &page).await;
    assert_eq!(status, 200);
    assert!(html.contains(r#"<select id="tier" name="tier">"#));
    let (_, products) = merch.get(&t, "/backoffice/sales/1001/products").await;
    assert!(
        products.contains(&format!(r#"href="{page}""#)),
        "linked from the products page"
    );

    // Universes: a top one, a sub-universe under it, renamed; refusals say why.
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/sales/1001/universes",
            &[("title", " "), ("parent", "")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter a title of 1 to 80 characters"));
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/universes",
            &[("title", "Accessoires"), ("parent", "")],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            "/backoffice/sales/1001/products?done=universe#universes"
        )
    );
    let top = t
        .count("SELECT MAX(id) FROM universes WHERE sale_id = 1001")
        .await;
    let (status, _, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/universes",
            &[("title", "Gants"), ("parent", &top.to_string())],
        )
        .await;
    assert_eq!(status, 303);
    let sub = t
        .count("SELECT MAX(id) FROM universes WHERE sale_id = 1001")
        .await;
    assert_eq!(
        t.count(&format!("SELECT parent_id FROM universes WHERE id = {sub}"))
            .await,
        top
    );
    // A sub-universe goes only under a top one of the same sale.
    let (status, _, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/universes",
            &[("title", "Moufles"), ("parent", &sub.to_string())],
        )
        .await;
    assert_eq!(status, 422);
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/universes/{sub}"),
            &[("title", "Gants et moufles")],
        )
        .await;
    assert_eq!(status, 303);
    let (_, products) = merch.get(&t, "/backoffice/sales/1001/products").await;
    assert!(products.contains("Gants et moufles"));

    // The product: a price that does not read, then one its option's own retail price
    // would fall below; nothing changes.
    let form = |price: &'static str, universe: i64| {
        vec![
            ("name", "Caban réversible".to_string()),
            ("brand", String::new()),
            ("color", "bleu".to_string()),
            ("price", price.to_string()),
            ("retail_price", "300".to_string()),
            (
                "description",
                "<p>Laine</p><script>alert(1)</script>".to_string(),
            ),
            ("tier", "SOON".to_string()),
            ("delivery_mode", "2".to_string()),
            ("seller_kind", "marketplace".to_string()),
            ("universe", universe.to_string()),
        ]
    };
    let post = async |fields: Vec<(&str, String)>| {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        merch.post(&t, &page, &pairs).await
    };
    let (status, _, html) = post(form("cheap", sub)).await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter both prices as amounts"), "{html}");
    assert!(
        html.contains(r#"value="Caban réversible""#),
        "what was typed is kept"
    );
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/products/{product}/options/new"),
            &[
                ("label", "3XL"),
                ("stock", "2"),
                ("price", ""),
                ("retail_price", "150"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let (status, _, html) = post(form("160", sub)).await;
    assert_eq!(status, 422);
    assert!(html.contains("change that option first (3XL)"), "{html}");
    let (status, _, _) = post(form("120", 999_999)).await;
    assert_eq!(status, 422, "a universe of another sale");
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM products WHERE id = {product} AND (name = 'Caban réversible' OR delivery_mode = 2 AND seller_kind = 'marketplace')"
        ))
        .await,
        0
    );

    // Saved: every field, the data sheet sanitised, the audit record.
    let (status, location, _) = post(form("120", sub)).await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/backoffice/sales/1001/products?done=product_saved")
    );
    let (name, html, delivery, seller): (String, String, i64, String) = sqlx::query_as(
        "SELECT name, description_html, delivery_mode, seller_kind FROM products WHERE id = $1",
    )
    .bind(product)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (name.as_str(), delivery, seller.as_str()),
        ("Caban réversible", 2, "marketplace")
    );
    assert!(html.contains("Laine") && !html.contains("script"), "{html}");
    assert_eq!(audit_count(&t, "update", "product").await, 1);

    // The catalog: the product in its new sub-universe, with its tier.
    let member = t.member_session(1).await;
    let (status, content) = json(
        &t,
        &format!("/api/catalog/v2/sale/1001/catalogContent/{sub}"),
        &member,
    )
    .await;
    assert_eq!(status, 200, "{content}");
    let items = content["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{content}"));
    let item = items
        .iter()
        .find(|i| i["id"] == product)
        .unwrap_or_else(|| panic!("the product in its universe: {content}"));
    assert_eq!(item["tier"], "SOON");
    assert_eq!(item["sellerKind"], "marketplace");

    // Only an empty universe goes.
    let (status, _, html) = merch
        .post(&t, &format!("/backoffice/universes/{sub}/remove"), &[])
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("only an empty universe goes"));
    let (status, _, _) = merch
        .post(&t, &format!("/backoffice/universes/{top}/remove"), &[])
        .await;
    assert_eq!(status, 422, "it has a sub-universe");
    let first = t
        .count("SELECT MIN(id) FROM universes WHERE sale_id = 1001 AND parent_id IS NULL")
        .await;
    let (status, _, _) = post(form("120", first)).await;
    assert_eq!(status, 303);
    for universe in [sub, top] {
        let (status, _, _) = merch
            .post(&t, &format!("/backoffice/universes/{universe}/remove"), &[])
            .await;
        assert_eq!(status, 303);
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM universes WHERE id IN ({sub}, {top})"
        ))
        .await,
        0
    );
    assert_eq!(audit_count(&t, "remove", "universe").await, 2);

    // A moderator reads the product and changes nothing.
    let moderator = sign_in(&t, MODERATOR).await;
    let (status, html) = moderator.get(&t, &page).await;
    assert_eq!(status, 200);
    assert!(!html.contains("<form method=\"post\" action=\"/backoffice/products/"));
    let (status, _, _) = moderator.post(&t, &page, &[("name", "x")]).await;
    assert_eq!(status, 403);
}
both!(
    an_operator_edits_a_product_and_the_universes,
    product_edit_on_sqlite,
    product_edit_on_postgres
);

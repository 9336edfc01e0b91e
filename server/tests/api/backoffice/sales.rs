//! Sales through the back-office forms: refusals that keep what was typed and save
//! nothing, a new sale with products and options that members then see, edits with their
//! audit summary, a copy to another site, archiving.
use super::*;
use crate::helpers::{both, TestApp};

fn settings<'a>(name: &'a str, starts: &'a str, ends: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("site", "1"),
        ("name", name),
        ("offer_type", "FlashSale"),
        ("starts_at", starts),
        ("ends_at", ends),
        ("description", "Coats for winter"),
        ("legal_merchant", "Maison SAS"),
        ("legal_terms", ""),
        ("with_map", "on"),
    ]
}

async fn a_sale_made_in_the_back_office_reaches_members(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let sales_before = t.count("SELECT COUNT(*) FROM sales").await;
    let now = app::platform::state::now();
    let past = server::backoffice::ui::datetime_value(now - 3600);
    let later = server::backoffice::ui::datetime_value(now + 86_400);

    // Refused: every field says what is wrong, what was typed is kept, nothing is saved.
    let (status, _, html) = merch
        .post(&t, "/backoffice/sales/new", &settings("  ", &later, &past))
        .await;
    assert_eq!(status, 422);
    assert!(
        html.contains("Enter a name (at most 200 characters).")
            && html.contains("The closing time must be after the opening time.")
    );
    assert!(
        html.contains("Coats for winter"),
        "the description typed is kept"
    );
    assert!(html.contains(r#"aria-invalid="true""#));
    let mut bad_site = settings("Coats", &past, &later);
    bad_site[0] = ("site", "5");
    let (status, _, html) = merch.post(&t, "/backoffice/sales/new", &bad_site).await;
    assert_eq!(status, 422);
    assert!(html.contains("Choose one of the 11 sites."));
    assert_eq!(t.count("SELECT COUNT(*) FROM sales").await, sales_before);

    // Made: a new number, one universe, an audit record.
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/sales/new",
            &settings("Manteaux d'hiver ❄", &past, &later),
        )
        .await;
    assert_eq!(status, 303);
    let id: i64 = location
        .strip_prefix("/backoffice/sales/")
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(id >= 1_000_000);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM universes WHERE sale_id = {id}"
        ))
        .await,
        1
    );
    assert_eq!(audit_count(&t, "create", "sale").await, 1);
    let (status, html) = merch.get(&t, &location).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("Sale created.") && html.contains("Manteaux d&#x27;hiver ❄")
            || html.contains("Manteaux d'hiver ❄")
    );

    // Products and options, with refusals first.
    let products = format!("/backoffice/sales/{id}/products/new");
    let (status, _, html) = merch
        .post(
            &t,
            &products,
            &[("name", "Caban"), ("price", "abc"), ("retail_price", "120")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter both prices as amounts") && html.contains(r#"value="Caban""#));
    let (status, _, html) = merch
        .post(
            &t,
            &products,
            &[("name", "Caban"), ("price", "99"), ("retail_price", "50")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("The retail price cannot be below the sale price."));
    for (name, price, retail) in [
        ("Caban", "89,90", "179"),
        ("Parka <b>chaude</b>", "120", "240.50"),
    ] {
        let (status, location, _) = merch
            .post(
                &t,
                &products,
                &[
                    ("name", name),
                    ("brand", "1"),
                    ("color", "bleu"),
                    ("price", price),
                    ("retail_price", retail),
                    ("description", "<p>Laine</p><script>alert(1)</script>"),
                ],
            )
            .await;
        assert_eq!(
            (status, location.as_str()),
            (
                303,
                format!("/backoffice/sales/{id}/products?done=product").as_str()
            )
        );
    }
    let sheet: String = sqlx::query_scalar(&format!(
        "SELECT description_html FROM products WHERE sale_id = {id} ORDER BY id LIMIT 1"
    ))
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        sheet.contains("<p>Laine</p>") && !sheet.contains("script"),
        "{sheet}"
    );
    let product: i64 = t
        .count(&format!(
            "SELECT MIN(id) FROM products WHERE sale_id = {id}"
        ))
        .await;
    let (status, _, html) = merch
        .post(
            &t,
            &format!("/backoffice/products/{product}/options/new"),
            &[("label", "M"), ("stock", "-1")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter the stock as a whole number"));
    for (label, stock) in [("S", "5"), ("M", "3")] {
        let (status, _, _) = merch
            .post(
                &t,
                &format!("/backoffice/products/{product}/options/new"),
                &[("label", label), ("stock", stock)],
            )
            .await;
        assert_eq!(status, 303);
    }
    let (status, html) = merch
        .get(&t, &format!("/backoffice/sales/{id}/products"))
        .await;
    assert_eq!(status, 200);
    assert!(
        html.contains("Caban") && html.contains("Parka &lt;b&gt;chaude&lt;/b&gt;"),
        "names are escaped"
    );
    assert_eq!(t.count(&format!("SELECT COUNT(*) FROM stock_history h JOIN product_options o ON o.id = h.option_id WHERE o.product_id = {product}")).await, 2);

    // A member of site 1 sees the sale and its products.
    let member = t.member_session(1).await;
    let mut res = t
        .get_with_cookie(&format!("/catalog/{id}?site=1"), &member)
        .await;
    if res.status().is_redirection() {
        // To the catalog's address with its first universe.
        let to = res.headers()["location"].to_str().unwrap().to_string();
        assert!(to.contains(&id.to_string()), "{to}");
        res = t.get_with_cookie(&to, &member).await;
    }
    assert_eq!(res.status(), 200);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("Caban"),
        "the member's catalog lists the new product"
    );

    // Edit: the audit summary says what changed.
    let (status, location, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/save"),
            &settings("Manteaux", &past, &later),
        )
        .await;
    assert_eq!(
        (status, location),
        (303, format!("/backoffice/sales/{id}?done=saved"))
    );
    let summary: String = sqlx::query_scalar(
        "SELECT summary FROM audit_log WHERE action = 'update' AND object_kind = 'sale'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        summary.contains(r#"name: "Manteaux d'hiver ❄" → "Manteaux""#),
        "{summary}"
    );

    // Copy to Violeta's site 66: closed, same products and options, nothing held or sold.
    let (status, location, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/duplicate"),
            &[("site", "66")],
        )
        .await;
    assert_eq!(status, 303);
    let copy: i64 = location
        .strip_prefix("/backoffice/sales/")
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        t.count(&format!("SELECT site_id FROM sales WHERE id = {copy}"))
            .await,
        66
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM products WHERE sale_id = {copy}"
        ))
        .await,
        2
    );
    assert_eq!(t.count(&format!("SELECT CAST(COALESCE(SUM(o.stock), 0) AS BIGINT) FROM product_options o JOIN products p ON p.id = o.product_id WHERE p.sale_id = {copy}")).await, 8);
    assert!(
        t.count(&format!("SELECT ends_at FROM sales WHERE id = {copy}"))
            .await
            <= app::platform::state::now()
    );

    // Archive: asked first, then closed for members and out of the default lists.
    let (_, html) = merch
        .get(&t, &format!("/backoffice/sales/{id}?confirm=archive"))
        .await;
    assert!(html.contains("<dialog") && html.contains("It closes at once for every member."));
    let (status, _, _) = merch
        .post(&t, &format!("/backoffice/sales/{id}/archive"), &[])
        .await;
    assert_eq!(status, 303);
    assert!(
        t.count(&format!("SELECT ends_at FROM sales WHERE id = {id}"))
            .await
            <= app::platform::state::now()
    );
    let (_, list) = merch.get(&t, "/backoffice/sales?q=manteaux").await;
    assert!(
        !list.contains(&format!("/backoffice/sales/{id}\"")),
        "archived sales leave the default list"
    );
    let (_, list) = merch
        .get(&t, "/backoffice/sales?q=manteaux&state=archived")
        .await;
    assert!(list.contains(&format!("/backoffice/sales/{id}\"")));
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/save"),
            &settings("Again", &past, &later),
        )
        .await;
    assert_eq!(status, 409, "an archived sale does not change");
    // The demo's start-up refresh leaves it closed.
    server::demo::refresh_dates(&t.app.state.db, app::platform::state::now())
        .await
        .unwrap();
    assert!(
        t.count(&format!("SELECT ends_at FROM sales WHERE id = {id}"))
            .await
            <= app::platform::state::now()
    );
}
both!(
    a_sale_made_in_the_back_office_reaches_members,
    sales_on_sqlite,
    sales_on_postgres
);

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

    // A picture: the type is read from the bytes; the shop serves it in its widths.
    let send_picture = |token: String, bytes: Vec<u8>, name: &'static str| {
        let form = reqwest::multipart::Form::new().text("_xsrf", token).part(
            "picture",
            reqwest::multipart::Part::bytes(bytes)
                .file_name(name)
                .mime_str("image/png")
                .unwrap(),
        );
        t.client
            .post(t.url(&format!("/backoffice/products/{product}/picture")))
            .header("cookie", &merch.cookie)
            .multipart(form)
            .send()
    };
    let res = send_picture(
        merch.xsrf.clone(),
        b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
        "evil.png",
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("This file is not a JPEG, PNG or WebP picture."));
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(400, 300, |x, y| {
        image::Rgb([x as u8, y as u8, 120])
    }))
    .write_to(&mut png, image::ImageFormat::Png)
    .unwrap();
    let res = send_picture("forged".into(), png.get_ref().clone(), "caban.png")
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM product_images").await,
        0,
        "nothing stored without the token"
    );
    let res = send_picture(merch.xsrf.clone(), png.into_inner(), "caban.png")
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let picture = t
        .count(&format!(
            "SELECT image_id FROM products WHERE id = {product}"
        ))
        .await;
    for (accept, kind) in [
        ("image/avif,image/webp,*/*", "image/webp"),
        ("image/png,*/*", "image/jpeg"),
    ] {
        let res = t
            .client
            .get(t.url(&format!("/img/p/{picture}?w=285")))
            .header("accept", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], kind);
        assert!(res.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable"));
        let img = image::load_from_memory(&res.bytes().await.unwrap()).unwrap();
        assert_eq!((img.width(), img.height()), (285, 214), "{kind}");
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM product_image_variants WHERE image_id = {picture}"
        ))
        .await,
        2,
        "each made once, then kept"
    );
    assert_eq!(t.get("/img/p/999999?w=285").await.status(), 404);

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

    // On a home: the sale's tile is placed on a module of its site's homes, shows on that
    // home while the sale is live, and comes off again.
    let (status, html) = merch
        .get(&t, &format!("/backoffice/sales/{id}/homes"))
        .await;
    assert_eq!(status, 200);
    assert!(html.contains("This sale has no tile on a home yet."));
    let module: i64 = html
        .split(r#"name="module""#)
        .nth(1)
        .unwrap()
        .split(r#"<option value=""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let (status, _, html) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/homes/place"),
            &[
                ("module", &module.to_string()),
                ("tile", "GIANT"),
                ("position", "0"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Choose a module of this site"));
    let foreign: i64 = t.count("SELECT MIN(m.id) FROM home_modules m JOIN homes h ON h.id = m.home_id WHERE h.site_id = 66").await;
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/homes/place"),
            &[
                ("module", &foreign.to_string()),
                ("tile", "XL"),
                ("position", "0"),
            ],
        )
        .await;
    assert_eq!(status, 422, "a module of another site's home is refused");
    let (status, location, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/homes/place"),
            &[
                ("module", &module.to_string()),
                ("tile", "XL"),
                ("position", "0"),
            ],
        )
        .await;
    assert_eq!(
        (status, location),
        (303, format!("/backoffice/sales/{id}/homes?done=placed"))
    );
    let home: i64 = t
        .count(&format!(
            "SELECT home_id FROM home_modules WHERE id = {module}"
        ))
        .await;
    let (status, body) =
        crate::helpers::json(&t, &format!("/api/content/v1/homes/{home}?site=1"), "").await;
    assert_eq!(status, 200);
    let tiles: Vec<&serde_json::Value> = body["modules"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["banners"].as_array().unwrap())
        .filter(|b| b["saleId"] == id)
        .collect();
    assert_eq!(tiles.len(), 1, "the tile shows on the home");
    assert_eq!(
        (tiles[0]["tileSize"].as_str(), tiles[0]["kind"].as_str()),
        (Some("XL"), Some("SaleBanner"))
    );
    let banner = tiles[0]["id"].as_i64().unwrap().to_string();
    let (status, _, _) = merch
        .post(
            &t,
            "/backoffice/sales/1001/homes/remove",
            &[("banner", &banner)],
        )
        .await;
    assert_eq!(status, 404, "another sale's form cannot take this tile off");
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{id}/homes/remove"),
            &[("banner", &banner)],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM banners WHERE sale_id = {id}"
        ))
        .await,
        0
    );
    assert_eq!(
        audit_count(&t, "place", "sale").await + audit_count(&t, "unplace", "sale").await,
        2
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

// Two operators adding at the same moment both get a new row: on PostgreSQL the new ids
// were read as MAX + 1 by both, and one write failed on the key (the error page).
async fn operators_adding_at_once_all_get_their_rows(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let admin = sign_in(&t, ADMIN).await;
    let before = t
        .count("SELECT COUNT(*) FROM products WHERE sale_id = 1001")
        .await;
    let add = |desk: &Desk, name: String| {
        let t = &t;
        let cookie = desk.cookie.clone();
        let xsrf = desk.xsrf.clone();
        async move {
            t.client
                .post(t.url("/backoffice/sales/1001/products/new"))
                .header("cookie", cookie)
                .form(&[
                    ("_xsrf", xsrf.as_str()),
                    ("name", name.as_str()),
                    ("price", "10"),
                    ("retail_price", "20"),
                ])
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let mut all = Vec::new();
    for round in 0..4 {
        let (a, b, c) = tokio::join!(
            add(&merch, format!("Gilet {round}a")),
            add(&admin, format!("Gilet {round}b")),
            add(&merch, format!("Gilet {round}c")),
        );
        all.extend([a, b, c]);
    }
    assert!(all.iter().all(|s| *s == 303), "{all:?}");
    assert_eq!(
        t.count("SELECT COUNT(*) FROM products WHERE sale_id = 1001")
            .await,
        before + 12
    );
}
both!(
    operators_adding_at_once_all_get_their_rows,
    concurrent_adds_on_sqlite,
    concurrent_adds_on_postgres
);

//! Operation links (cookie and landing, unknown and expired codes, per site, the REST
//! call), the catalog by id (302 to the sale's catalog, 404 for anything else) and the
//! travel catalog by slug.
use super::{no_site, page};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

fn set_cookie(res: &reqwest::Response) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("operationcode="))
        .map(str::to_string)
}

/// The first live sale of `site`: its id and its members' catalog `/catalog/{sale}/{u}`.
async fn first_sale_catalog(t: &TestApp, site: i64) -> (i64, String) {
    let (sale, catalog, _) = first_sale_landings(t, site).await;
    (sale, catalog)
}

/// The first live sale of `site`: its id, its members' catalog and its open-door catalog
/// `/c/{slug}/{sale}/{u}`.
async fn first_sale_landings(t: &TestApp, site: i64) -> (i64, String, String) {
    let now = app::platform::state::now();
    let sale: i64 = sqlx::query_scalar(&format!(
        "SELECT s.id FROM sales s WHERE {} ORDER BY s.position, s.id LIMIT 1",
        app::platform::sql::LIVE_SALE
    ))
    .bind(site)
    .bind(now)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let u: i64 = sqlx::query_scalar(
        "SELECT MIN(id) FROM universes WHERE sale_id = $1 AND parent_id IS NULL",
    )
    .bind(sale)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let slug: String = sqlx::query_scalar("SELECT slug FROM sales WHERE id = $1")
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(!slug.trim().is_empty(), "sale {sale} has a slug");
    (
        sale,
        format!("/catalog/{sale}/{u}"),
        format!("/c/{slug}/{sale}/{u}"),
    )
}

async fn operation_links(t: TestApp) {
    // A home operation: 302 to the home page with the cookie (lower case works too).
    for path in ["/operation/BIENVENUE", "/gr/operation/bienvenue"] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 302, "{path}");
        assert_eq!(no_site(res.headers()["location"].to_str().unwrap()), "/");
        let cookie = set_cookie(&res).expect("the operation cookie");
        assert!(cookie.starts_with("operationcode=BIENVENUE;"), "{cookie}");
        assert!(cookie.contains("Path=/") && cookie.contains("Max-Age=2592000"));
    }
    // A sale operation lands a visitor on the sale's open-door catalog (no sign-in wall),
    // with the cookie; the page opens to them.
    let (_, catalog, open_door) = first_sale_landings(&t, 1).await;
    let res = t.get("/operation/VENTE-FLASH").await;
    assert_eq!(res.status(), 302);
    let landing = no_site(res.headers()["location"].to_str().unwrap());
    assert_eq!(landing, open_door);
    let cookie = set_cookie(&res).expect("the operation cookie");
    assert!(cookie.starts_with("operationcode=VENTE-FLASH;"), "{cookie}");
    let (status, _, html) = page(&t, None, &landing).await;
    assert_eq!(status, 200, "{landing} opens to a visitor");
    assert!(
        html.contains("data-testid=\"catalog-count\""),
        "{landing}: the catalog"
    );
    // A member keeps the members' catalog, with the cookie too.
    let member = shopper(&t, 2).await;
    let res = t
        .client
        .get(t.url("/operation/VENTE-FLASH"))
        .header("cookie", &member.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302);
    assert_eq!(
        no_site(res.headers()["location"].to_str().unwrap()),
        catalog.as_str()
    );
    assert!(set_cookie(&res)
        .unwrap()
        .starts_with("operationcode=VENTE-FLASH;"));
    // Another site has its own operations (its own sale).
    let (_, _, other) = first_sale_landings(&t, 4).await;
    let res = t.get("/operation/VENTE-FLASH?site=4").await;
    assert_eq!(res.status(), 302);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with(&other));
    // A travel-home operation: the open-door `/voyages` for a visitor, `/home/travel` for a
    // member (members only).
    sqlx::query(
        "INSERT INTO operations (site_id, code, target_kind, target, starts_at, ends_at)
         VALUES (1, 'EVASION', 'home', 'travel', 0, $1)",
    )
    .bind(app::platform::state::now() + 86_400)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let res = t.get("/operation/EVASION").await;
    assert_eq!(res.status(), 302);
    assert_eq!(
        no_site(res.headers()["location"].to_str().unwrap()),
        "/voyages"
    );
    assert!(set_cookie(&res).is_some());
    let (status, _, _) = page(&t, None, "/voyages").await;
    assert_eq!(status, 200, "/voyages opens to a visitor");
    let (status, location, _) = page(&t, Some(&member), "/operation/EVASION").await;
    assert_eq!((status, location.as_str()), (302, "/home/travel"));

    // Over, unknown, not a code: the explaining page, no cookie, never a 500.
    for (path, location) in [
        (
            "/operation/ETE2019",
            "/operation?error=operation.expired&code=ETE2019",
        ),
        (
            "/operation/NOPE",
            "/operation?error=operation.unknown&code=NOPE",
        ),
        (
            "/operation/%3Cb%3E",
            "/operation?error=operation.unknown&code=",
        ),
    ] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 303, "{path}");
        assert_eq!(
            no_site(res.headers()["location"].to_str().unwrap()),
            location
        );
        assert!(set_cookie(&res).is_none());
    }
    // A running operation whose sale is over is over too (the sale then reopens).
    let (sale, _) = first_sale_catalog(&t, 1).await;
    let ends_at: i64 = sqlx::query_scalar("SELECT ends_at FROM sales WHERE id = $1")
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE sales SET ends_at = 1 WHERE id = (SELECT CAST(target AS BIGINT) FROM operations WHERE site_id = 1 AND code = 'VENTE-FLASH')")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let res = t.get("/operation/VENTE-FLASH").await;
    assert_eq!(
        no_site(res.headers()["location"].to_str().unwrap()),
        "/operation?error=operation.expired&code=VENTE-FLASH"
    );
    sqlx::query("UPDATE sales SET ends_at = $1 WHERE id = $2")
        .bind(ends_at)
        .bind(sale)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();

    // The page says why, in the site's language, and takes another code.
    let (status, _, html) = page(&t, None, "/operation?error=operation.expired&code=ETE2019").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("L&#x27;offre ETE2019 est terminée.")
            || html.contains("L'offre ETE2019 est terminée."),
        "{html}"
    );
    assert!(html.contains("action=\"/operation/form\""));
    let (_, _, html) = page(&t, None, "/operation?error=operation.unknown&site=2").await;
    assert!(html.contains("Dieser Aktionscode existiert auf dieser Seite nicht."));
    // Only our messages: another key or free text shows nothing.
    let (_, _, html) = page(&t, None, "/operation?error=hacked&code=%3Cb%3Ex").await;
    assert!(!html.contains("data-testid=\"operation-error\""));
    assert!(!html.contains("<b>x"));

    // The page's form: to the code's link; a non-code stays on the page.
    let xsrf = t.xsrf().await;
    let post = |code: &'static str| {
        let xsrf = xsrf.clone();
        let t = &t;
        async move {
            t.client
                .post(t.url("/operation/form"))
                .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
                .form(&[("_xsrf", xsrf.as_str()), ("code", code)])
                .send()
                .await
                .unwrap()
        }
    };
    let res = post(" bienvenue ").await;
    assert_eq!(res.status(), 303);
    assert_eq!(
        no_site(res.headers()["location"].to_str().unwrap()),
        "/operation/BIENVENUE"
    );
    assert_eq!(
        no_site(post("a b").await.headers()["location"].to_str().unwrap()),
        "/operation?error=operation.unknown"
    );
    let res = t
        .client
        .post(t.url("/operation/form"))
        .form(&[("code", "BIENVENUE")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "the form needs its token");

    // The enter-operation call: the landing and the cookie; 404 unknown, 410 over.
    let call = |code: &'static str| {
        let xsrf = xsrf.clone();
        let t = &t;
        async move {
            t.client
                .post(t.url(&format!("/api/content/v1/operations/{code}")))
                .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
                .header("X-XSRF-TOKEN", &xsrf)
                .send()
                .await
                .unwrap()
        }
    };
    let res = call("BIENVENUE").await;
    assert_eq!(res.status(), 200);
    assert!(set_cookie(&res).is_some());
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        (body["code"].as_str(), body["url"].as_str()),
        (Some("BIENVENUE"), Some("/"))
    );
    // A visitor's call lands on the open-door catalog; a member's on the members' one.
    let body: serde_json::Value = call("vente-flash").await.json().await.unwrap();
    assert_eq!(body["url"], open_door.as_str());
    let res = t
        .client
        .post(t.url("/api/content/v1/operations/VENTE-FLASH"))
        .header("cookie", &member.cookie)
        .header("X-XSRF-TOKEN", &member.xsrf)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(set_cookie(&res).is_some());
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["url"], catalog.as_str());
    assert_eq!(call("NOPE").await.status(), 404);
    let res = call("ETE2019").await;
    assert_eq!(res.status(), 410);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["error_code"], "operation_expired", "{body}");
}
both!(
    operation_links,
    operation_links_on_sqlite,
    operation_links_on_postgres
);

async fn catalog_by_id(t: TestApp) {
    let s = shopper(&t, 2).await;
    let (sale, catalog) = first_sale_catalog(&t, 1).await;
    for path in [format!("/gr/catalog/{sale}"), format!("/catalog/{sale}")] {
        let (status, location, _) = page(&t, Some(&s), &path).await;
        assert_eq!(status, 302, "{path}");
        assert_eq!(location, catalog);
    }
    let (_, location, _) = page(&t, Some(&s), &format!("/gr/catalog/{sale}?page=2")).await;
    assert_eq!(location, format!("{catalog}?page=2"), "the query is kept");
    // Unknown sale, another site's, one that is over: the 404 page.
    let (other, _) = first_sale_catalog(&t, 4).await;
    for id in [999_999_i64, other] {
        let (status, _, html) = page(&t, Some(&s), &format!("/gr/catalog/{id}")).await;
        assert_eq!(status, 404, "{id}");
        assert!(html.contains("data-testid=\"not-found\""));
    }
    sqlx::query("UPDATE sales SET ends_at = 1 WHERE id = $1")
        .bind(sale)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _, _) = page(&t, Some(&s), &format!("/gr/catalog/{sale}")).await;
    assert_eq!(status, 404);
    // A visitor signs in first (members-only), coming back here.
    let (status, location, _) = page(&t, None, &format!("/gr/catalog/{sale}")).await;
    assert!((300..400).contains(&status));
    assert!(location.contains("authentication"), "{location}");
}
both!(
    catalog_by_id,
    catalog_by_id_on_sqlite,
    catalog_by_id_on_postgres
);

/// The travel catalog link (spec 001 §2): the travel home links each live travel sale by
/// its slug, `/catalog/{slug}`, which answers 302 to the sale's catalog `/t/c/{id}` (query
/// kept); a slug of no live travel sale of the site (unknown, another site's, a fashion
/// sale's, one over) is the 404 page, and a visitor signs in first.
async fn travel_catalog_by_slug(t: TestApp) {
    let s = shopper(&t, 2).await;
    let sales: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, slug FROM sales WHERE site_id = 1 AND campaign_kind = 'TRAVEL' AND starts_at <= $1 AND ends_at > $1 ORDER BY id",
    )
    .bind(app::platform::state::now())
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(sales.len() >= 2, "demo travel sales");
    let (_, _, home) = page(&t, Some(&s), "/home/travel").await;
    for (id, slug) in &sales {
        assert!(
            home.contains(&format!(r#"href="/catalog/{slug}""#)),
            "{slug} on the travel home"
        );
        assert!(
            !home.contains(&format!(r#"href="/t/c/{id}""#)),
            "{id} linked by id"
        );
        let (status, location, _) = page(&t, Some(&s), &format!("/catalog/{slug}")).await;
        assert_eq!(
            (status, location.as_str()),
            (302, format!("/t/c/{id}").as_str())
        );
        let (status, _, html) = page(&t, Some(&s), &location).await;
        assert_eq!(status, 200);
        assert!(html.contains(&format!(
            r#"data-campaign-id="{id}" data-testid="travel-catalog""#
        )));
    }
    let (id, slug) = &sales[0];
    let (_, location, _) = page(&t, Some(&s), &format!("/gr/catalog/{slug}?sort=price_asc")).await;
    assert_eq!(
        location,
        format!("/t/c/{id}?sort=price_asc"),
        "the query is kept"
    );
    let other_site: String = sqlx::query_scalar(
        "SELECT slug FROM sales WHERE site_id = 2 AND campaign_kind = 'TRAVEL' ORDER BY id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let fashion: String = sqlx::query_scalar(
        "SELECT slug FROM sales WHERE site_id = 1 AND campaign_kind = 'DEFAULT' ORDER BY id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    for unknown in ["no-such-trip", other_site.as_str(), fashion.as_str()] {
        let (status, _, html) = page(&t, Some(&s), &format!("/catalog/{unknown}")).await;
        assert_eq!(status, 404, "{unknown}");
        assert!(html.contains("data-testid=\"not-found\""));
    }
    // Not a slug the routes take: the 404 page, never a catalog.
    for bad in ["Hotel-Mira", "h%C3%B4tel", "a%20b"] {
        let (status, _, _) = page(&t, Some(&s), &format!("/catalog/{bad}")).await;
        assert_eq!(status, 404, "{bad}");
    }
    sqlx::query("UPDATE sales SET ends_at = 1 WHERE id = $1")
        .bind(id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _, _) = page(&t, Some(&s), &format!("/catalog/{slug}")).await;
    assert_eq!(status, 404, "a sale over");
    let (status, location, _) = page(&t, None, &format!("/catalog/{}", sales[1].1)).await;
    assert!((300..400).contains(&status));
    assert!(location.contains("authentication"), "{location}");
}
both!(
    travel_catalog_by_slug,
    travel_catalog_by_slug_on_sqlite,
    travel_catalog_by_slug_on_postgres
);

/// `/gr/product/{id}`, where a campaign link's `productid` leads once the member is signed
/// in: the product's page in its sale; an unknown product, another site's, one taken down
/// or whose sale is over, the 404 page; a visitor signs in first and comes back here.
async fn product_by_id(t: TestApp) {
    let s = shopper(&t, 2).await;
    let (sale, product): (i64, i64) = sqlx::query_as(
        "SELECT p.sale_id, MIN(p.id) FROM products p JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = 1 AND s.id = 1001 GROUP BY p.sale_id",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    for path in [
        format!("/gr/product/{product}"),
        format!("/product/{product}"),
    ] {
        let (status, location, _) = page(&t, Some(&s), &path).await;
        assert_eq!(status, 302, "{path}");
        assert_eq!(location, format!("/product/{sale}/{product}"));
    }
    // The page it leads to is the product's.
    let (status, _, html) = page(&t, Some(&s), &format!("/product/{sale}/{product}")).await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("data-product-id=\"{product}\"")));
    let other: i64 = sqlx::query_scalar(
        "SELECT MIN(p.id) FROM products p JOIN sales s ON s.id = p.sale_id WHERE s.site_id = 4",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    for id in [999_999_i64, other] {
        let (status, _, html) = page(&t, Some(&s), &format!("/gr/product/{id}")).await;
        assert_eq!(status, 404, "{id}");
        assert!(html.contains("data-testid=\"not-found\""));
    }
    sqlx::query("UPDATE products SET moderation = 'removed' WHERE id = $1")
        .bind(product)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _, _) = page(&t, Some(&s), &format!("/gr/product/{product}")).await;
    assert_eq!(status, 404, "a product taken down");
    sqlx::query("UPDATE products SET moderation = '' WHERE id = $1")
        .bind(product)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE sales SET ends_at = 1 WHERE id = $1")
        .bind(sale)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _, _) = page(&t, Some(&s), &format!("/gr/product/{product}")).await;
    assert_eq!(status, 404, "a sale that is over");
    let (status, location, _) = page(&t, None, &format!("/gr/product/{product}")).await;
    assert!((300..400).contains(&status));
    assert!(location.contains("authentication"), "{location}");
}
both!(
    product_by_id,
    product_by_id_on_sqlite,
    product_by_id_on_postgres
);

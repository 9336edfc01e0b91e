//! A sale of campaign kind EMAIL (spec 000 §3 campaign kinds DEFAULT, TRAVEL, ROSEDEAL,
//! EMAIL): made in the back office as "reached by its link only", it is not listed on the
//! home, in the header's menu or in the sitemap, and its catalog is there for whoever
//! follows the link or an operation code that names it. SQLite and PostgreSQL.
use super::*;
use crate::helpers::{both, TestApp};

async fn body(t: &TestApp, path: &str, cookie: &str) -> String {
    let res = t.get_with_cookie(path, cookie).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

async fn email_sale(t: TestApp) {
    let merch = sign_in(&t, "merch@rosace.test").await;
    // An unknown kind is refused and nothing is made.
    let before = t.count("SELECT COUNT(*) FROM sales").await;
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/sales/new",
            &[("site", "1"), ("kind", "newsletter"), ("name", "X")],
        )
        .await;
    assert_ne!(status, 303);
    assert!(
        html.contains("data-error-for=\"kind\""),
        "the kind field says why"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM sales").await, before);

    let sale = merch
        .sale_made(&t, "email", "Vente réservée emailing")
        .await;
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sales WHERE id = {sale} AND campaign_kind = 'EMAIL'"
        ))
        .await,
        1
    );
    let (_, edit) = merch.get(&t, &format!("/backoffice/sales/{sale}")).await;
    assert!(edit.contains("Vente réservée emailing"));
    merch
        .product_added(&t, sale, ("Foulard de l'emailing", "19.90", "39.90"))
        .await;

    let member = t.member_session(1).await;
    // Its link leads to its catalog.
    let catalog = body(&t, &format!("/catalog/{sale}/0"), &member).await;
    assert!(catalog.contains("Vente réservée emailing"));
    // Off the lists, where an ordinary sale of the site is.
    let home = body(&t, "/", &member).await;
    assert!(
        home.contains("/catalog/1001/"),
        "the home lists the site's sales"
    );
    assert!(
        !home.contains(&format!("/catalog/{sale}/")),
        "not on the home"
    );
    let header = body(&t, "/api/content/v1/header", &member).await;
    assert!(header.contains("1001"));
    assert!(
        !header.contains(&sale.to_string()),
        "not in the header's menu"
    );
    // An operation code of the emailing lands a member on it.
    sqlx::query(
        "INSERT INTO operations (site_id, code, target_kind, target, starts_at, ends_at)
         VALUES (1, 'EMAILING', 'sale', $1, 0, $2)",
    )
    .bind(sale.to_string())
    .bind(app::platform::state::now() + 86_400)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let res = t.get_with_cookie("/operation/EMAILING", &member).await;
    assert_eq!(res.status(), 302);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains(&format!("/{sale}/")), "{location}");
    let sitemap = body(&t, "/sitemap.xml", "").await;
    assert!(sitemap.contains("/1001/"));
    assert!(
        !sitemap.contains(&format!("/{sale}/")),
        "not in the sitemap"
    );
}

both!(email_sale, email_sale_on_sqlite, email_sale_on_postgres);

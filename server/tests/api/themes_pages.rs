//! Themes on product pages and homes (spec 000 §3, §9) on SQLite and
//! PostgreSQL: a product of a themed sale wears its sale's theme as the catalog page does;
//! a home asks for a theme (`homes.theme`, migration 0026) and a home module for one in its
//! settings; the demo's summer home is green "recycle" with a black-and-white module on
//! every site; an editor's choice survives the demo data being ensured again.
use crate::helpers::{both, json, TestApp};

/// The opening tag (`<... marker ...>`) of the first element whose attributes hold `marker`.
fn tag_with<'a>(html: &'a str, marker: &str) -> &'a str {
    let at = html
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} on the page"));
    let start = html[..at].rfind('<').unwrap();
    let end = at + html[at..].find('>').unwrap();
    &html[start..=end]
}

async fn page(t: &TestApp, path: &str, cookie: &str) -> String {
    let res = t.get_with_cookie(path, cookie).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

async fn themed_product_pages(t: TestApp) {
    for (site, sale, theme) in [
        (1u16, 1003i64, Some("recycle")),
        (1, 1006, Some("bw")),
        (1, 1001, None),
        (66, 6003, Some("recycle")),
        (66, 6006, Some("bw")),
    ] {
        let member = t.member_session(site).await;
        let path = format!("/product/{sale}/{sale}01?site={site}");
        let html = page(&t, &path, &member).await;
        let article = tag_with(&html, &format!("data-product-id=\"{sale}01\""));
        assert!(article.starts_with("<article"), "{path}: {article}");
        match theme {
            Some(theme) => {
                assert!(
                    article.contains(&format!("class=\"product product--themed theme-{theme}\""))
                        && article.contains(&format!("data-theme=\"{theme}\"")),
                    "{path}: {article}"
                );
                let sheet = tag_with(&html, "aria-labelledby=\"datasheet-title\"");
                assert!(
                    sheet.contains(&format!("class=\"product__datasheet theme-{theme}\"")),
                    "{sheet}"
                );
            }
            None => {
                assert!(!html.contains("product--themed"), "{path}");
                assert!(
                    article.contains("class=\"product\"")
                        && article.contains("data-theme=\"theme-rosace\""),
                    "{article}"
                );
            }
        }
    }
}
both!(
    themed_product_pages,
    themed_product_pages_on_sqlite,
    themed_product_pages_on_postgres
);

async fn themed_homes_and_modules(t: TestApp) {
    // Every site's summer home asks for recycle; the others for nothing.
    assert_eq!(
        t.count("SELECT COUNT(*) FROM homes WHERE name = 'summer' AND theme = 'recycle'")
            .await,
        11
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM homes WHERE theme <> ''")
            .await,
        11
    );
    for site in [1u16, 66, 70] {
        let html = page(&t, &format!("/gr/home/summer?site={site}"), "").await;
        let home = tag_with(&html, "data-home=\"summer\"");
        assert!(
            home.contains("class=\"home home--themed theme-recycle home--bg-sand\"")
                && home.contains("data-theme=\"recycle\""),
            "summer home on {site}: {home}"
        );
        let module = tag_with(&html, "data-module=\"summer-categories\"");
        assert!(
            module.contains("home-module--themed theme-bw") && module.contains("data-theme=\"bw\""),
            "the bw module on {site}: {module}"
        );
        // The default home keeps the site's palette.
        let html = page(&t, &format!("/?site={site}"), "").await;
        assert!(!html.contains("home--themed") && !html.contains("home-module--themed"));
        let (palette, colour) = match site {
            66 => ("theme-violeta", "#6f2dbd"),
            // The second retail brand's theme (spec 000 §9): the Belgian sites'.
            70 => ("theme-retail", "#0b6e8a"),
            _ => ("theme-rosace", "#d6336c"),
        };
        let home = tag_with(&html, "data-testid=\"home\"");
        assert!(
            home.contains(&format!("data-theme=\"{palette}\"")),
            "{site}: {home}"
        );
        let root = tag_with(&html, "data-ctx=");
        assert!(
            root.contains(&format!("class=\"{palette}\"")),
            "{site}: {root}"
        );
        assert!(
            html.contains(&format!("<meta name=\"theme-color\" content=\"{colour}\"")),
            "{site}: theme colour"
        );
    }
    // The homes call answers the theme of the home and of its module.
    let (status, summer) = json(&t, "/api/content/v1/homes/summer?siteId=1", "").await;
    assert_eq!(status, 200, "{summer}");
    assert_eq!(summer["theme"], "recycle");
    let module = summer["modules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "summer-categories")
        .expect("the themed module");
    assert_eq!(module["theme"], "bw");
    let (_, default) = json(&t, "/api/content/v1/homes/default?siteId=1", "").await;
    assert_eq!(default["theme"], "");

    // An editor's choice is kept when the demo data is ensured again; an unknown name
    // falls back to the site's palette.
    let db = &t.app.state.db;
    sqlx::query("UPDATE homes SET theme = 'bw' WHERE id = 1002")
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE homes SET theme = 'neon' WHERE id = 1000")
        .execute(&db.pool)
        .await
        .unwrap();
    server::demo::ensure(db, app::platform::state::now())
        .await
        .unwrap();
    assert_eq!(
        t.count("SELECT COUNT(*) FROM homes WHERE id = 1002 AND theme = 'bw'")
            .await,
        1
    );
    let (_, summer) = json(&t, "/api/content/v1/homes/1002?siteId=1", "").await;
    assert_eq!(summer["theme"], "bw");
    let (_, default) = json(&t, "/api/content/v1/homes/1000?siteId=1", "").await;
    assert_eq!(default["theme"], "", "unknown: the brand's");
}
both!(
    themed_homes_and_modules,
    themed_homes_and_modules_on_sqlite,
    themed_homes_and_modules_on_postgres
);

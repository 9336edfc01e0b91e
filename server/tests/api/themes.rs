//! Themes and the brand cookie (spec 000 §3, §9) on SQLite and PostgreSQL: the
//! demo's recycle (#0BA100) and black-and-white sales carry their theme in the sale call
//! and paint their catalog page with it; other sales keep the site's; pages set `appBrand`
//! (the site's brand, one day) when it is missing or names the other brand, calls never.
use crate::helpers::TestApp;
use crate::helpers::{both, cookie_value, json};

fn set_cookie_line(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

async fn themed_sales(t: TestApp) {
    // Site 1: the third sale is green "recycle", the sixth black and white, the first its brand's.
    for (sale, theme) in [(1003, "recycle"), (1006, "bw"), (1001, "")] {
        let (status, body) = json(&t, &format!("/api/catalog/v2/sale/{sale}"), "").await;
        assert_eq!(status, 200, "{sale}");
        assert_eq!(body["theme"], theme, "{sale}");
    }
    // Every site has one of each (Violeta's sites too).
    let sql = "SELECT COUNT(*) FROM sales WHERE theme = 'recycle'";
    assert_eq!(t.count(sql).await, 11);
    let sql = "SELECT COUNT(*) FROM sales WHERE theme = 'bw'";
    assert_eq!(t.count(sql).await, 11);

    // The catalog page wears the theme's class; another sale the site's palette only.
    let html = t.get("/c/vente/1003/0").await.text().await.unwrap();
    assert!(
        html.contains("class=\"catalog catalog--classic catalog--themed theme-recycle\"")
            && html.contains("data-theme=\"recycle\""),
        "recycle page"
    );
    let html = t.get("/c/vente/6006/0?site=66").await.text().await.unwrap();
    assert!(
        html.contains("theme-bw") && html.contains("data-theme=\"bw\""),
        "bw page on 66"
    );
    let html = t.get("/c/vente/1001/0").await.text().await.unwrap();
    assert!(!html.contains("catalog--themed"), "an ordinary sale");
    assert!(html.contains("data-theme=\"theme-rosace\""));

    // A theme an editor set is kept when the demo data is ensured again.
    let db = &t.app.state.db;
    sqlx::query("UPDATE sales SET theme = 'bw' WHERE id = 1003")
        .execute(&db.pool)
        .await
        .unwrap();
    server::demo::ensure(db, app::platform::state::now())
        .await
        .unwrap();
    let (_, body) = json(&t, "/api/catalog/v2/sale/1003", "").await;
    assert_eq!(body["theme"], "bw");
}
both!(
    themed_sales,
    themed_sales_on_sqlite,
    themed_sales_on_postgres
);

async fn app_brand_cookie(t: TestApp) {
    // A first page on each brand's site: the cookie names the brand, for one day.
    let res = t.get("/?site=66").await;
    assert_eq!(res.status(), 200);
    let line = set_cookie_line(&res, "appBrand").expect("appBrand set");
    assert!(line.starts_with("appBrand=Violeta;"), "{line}");
    assert!(
        line.contains("Max-Age=86400") && line.contains("Path=/"),
        "{line}"
    );
    let res = t.get("/?site=1").await;
    assert_eq!(cookie_value(&res, "appBrand").as_deref(), Some("Rosace"));

    // Already right: not set again; naming the other brand: set to this site's.
    let res = t
        .get_with_cookie("/gr/aboutus?site=69", "appBrand=Violeta")
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(set_cookie_line(&res, "appBrand"), None);
    let res = t
        .get_with_cookie("/gr/aboutus?site=4", "appBrand=Violeta")
        .await;
    assert_eq!(cookie_value(&res, "appBrand").as_deref(), Some("Rosace"));

    // Calls and static files do not touch it.
    let res = t.get("/api/catalog/v2/sale/1001").await;
    assert_eq!(res.status(), 200);
    assert_eq!(set_cookie_line(&res, "appBrand"), None);
    let res = t.get("/health").await;
    assert_eq!(set_cookie_line(&res, "appBrand"), None);
}
both!(
    app_brand_cookie,
    app_brand_cookie_on_sqlite,
    app_brand_cookie_on_postgres
);

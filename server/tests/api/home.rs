//! Homes on SQLite and PostgreSQL: the REST call by name (case-insensitive) or id, 404,
//! preview dates, the banner filter, the reduced home; and the server-rendered home pages.
use app::site::format::{civil_from_unix, DISPLAY_OFFSET_SECS};
use serde_json::Value;

use crate::helpers::{both, TestApp};

async fn json(t: &TestApp, path: &str) -> (u16, Value) {
    let res = t.get(path).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn day(unix: i64) -> String {
    let c = civil_from_unix(unix, DISPLAY_OFFSET_SECS);
    format!("{:04}-{:02}-{:02}", c.year, c.month, c.day)
}

fn module<'a>(home: &'a Value, name: &str) -> &'a Value {
    home["modules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("module {name}"))
}

fn ids(list: &Value, field: &str) -> Vec<i64> {
    list.as_array()
        .map(|a| a.iter().filter_map(|v| v[field].as_i64()).collect())
        .unwrap_or_default()
}

/// A sale of site 1 starting tomorrow at noon, with a sale banner in the highlights.
async fn sale_starting_tomorrow(t: &TestApp, now: i64) -> String {
    let tomorrow = day(now + 86_400);
    let start = app::home::rules::parse_preview_date(&tomorrow).unwrap() + 12 * 3600;
    sqlx::query(
        "INSERT INTO sales (id, site_id, name, slug, offer_type, description, starts_at, ends_at, position)
         VALUES (1999, 1, 'Demain', 'demain', 'FlashSale', 'Bientôt', $1, $2, 99)",
    )
    .bind(start)
    .bind(start + 3 * 86_400)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO banners (id, module_id, kind, sale_id, image_url, mobile_image_url, tile_size, layout, position)
         VALUES (99999, 10000, 'SaleBanner', 1999, '/img/sale/1999/banner.svg', '/img/sale/1999/mobile.svg', 'M', '1x1', 50)",
    )
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    tomorrow
}

async fn home_calls(t: TestApp) {
    let now = app::platform::state::now();
    let tomorrow = sale_starting_tomorrow(&t, now).await;

    // By name, whatever the case.
    let (status, home) = json(&t, "/api/content/v1/homes/DeFaUlT").await;
    assert_eq!(status, 200);
    assert_eq!(
        (
            home["id"].as_i64(),
            home["name"].as_str(),
            home["type"].as_str()
        ),
        (Some(1000), Some("default"), Some("DEFAULT"))
    );
    assert_eq!(home["isReduced"], false);
    let kinds: Vec<&str> = home["modules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "highlight",
            "pedagogical",
            "universe",
            "group",
            "deal",
            "text"
        ]
    );
    // The group of live sales lists every live sale; tomorrow's is not live yet.
    let sales = ids(&module(&home, "sales")["sales"], "id");
    assert_eq!(sales.len(), server::demo::SALES_PER_SITE as usize);
    assert!(!sales.contains(&1999));
    // Highlights: every tile size and layout; the split banner without a mobile image and
    // the banner of tomorrow's sale are gone; sale banners carry their end date.
    let highlights = &module(&home, "highlights")["banners"];
    let banner_ids = ids(highlights, "id");
    assert!(!banner_ids.contains(&1_000_004), "no mobile image: dropped");
    assert!(!banner_ids.contains(&99_999), "not live yet: dropped");
    assert_eq!(banner_ids.len(), 7);
    // The tiles fill whole rows of a phone's 2, a tablet's 3 and a desktop's 4 columns.
    let cells: u32 = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (w, h) = b["layout"].as_str().unwrap().split_once('x').unwrap();
            w.parse::<u32>().unwrap() * h.parse::<u32>().unwrap()
        })
        .sum();
    assert_eq!(cells, 12, "{highlights}");
    let mut sizes: Vec<&str> = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["tileSize"].as_str().unwrap())
        .collect();
    sizes.sort();
    sizes.dedup();
    assert_eq!(sizes, ["M", "MEGAFAT", "XL", "XXL"]);
    let mut layouts: Vec<&str> = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["layout"].as_str().unwrap())
        .collect();
    layouts.sort();
    layouts.dedup();
    assert_eq!(layouts, ["1x1", "1x2", "2x1", "2x2"]);
    for b in highlights.as_array().unwrap() {
        assert!(b["endDate"].as_i64().unwrap() > now, "{b}");
        assert!(b["link"].as_str().unwrap().starts_with("/c/"), "{b}");
        assert!(!b["title"].as_str().unwrap().is_empty());
    }
    let pedagogy = module(&home, "pedagogy");
    assert_eq!(pedagogy["webTextColor"], "#FFFFFF");
    assert_eq!(pedagogy["twoPerPage"], true);
    assert_eq!(pedagogy["banners"].as_array().unwrap().len(), 3);
    assert!(module(&home, "deals")["banners"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["kind"] == "MediaAdsBanner"));

    // Told to skip the mobile-image check, the split banner stays.
    let (_, all) = json(
        &t,
        "/api/content/v1/homes/default?skipMobileImageCheck=true",
    )
    .await;
    assert!(ids(&module(&all, "highlights")["banners"], "id").contains(&1_000_004));

    // By id; other sites by siteId or header.
    let (status, summer) = json(&t, "/api/content/v1/homes/1002").await;
    assert_eq!((status, summer["name"].as_str()), (200, Some("summer")));
    assert_eq!(summer["displayName"], "Spécial été");
    let (_, summer) = json(&t, "/api/content/v1/homes/SUMMER").await;
    assert_eq!(summer["id"], 1002);
    let (status, de) = json(&t, "/api/content/v1/homes/default?siteId=2").await;
    assert_eq!((status, de["id"].as_i64()), (200, Some(2000)));
    let res = t
        .client
        .get(t.url("/api/content/v1/homes/summer"))
        .header("x-vp-siteid", "2")
        .send()
        .await
        .unwrap();
    let de: Value = res.json().await.unwrap();
    assert_eq!(de["displayName"], "Sommer-Special");
    // Site 1 cannot read site 2's home by id.
    assert_eq!(json(&t, "/api/content/v1/homes/2000").await.0, 404);

    // Absent: 404 with the error body.
    let (status, body) = json(&t, "/api/content/v1/homes/nowhere").await;
    assert_eq!(status, 404);
    assert_eq!(body["error_code"], "not_found");
    assert_eq!(body["error_description"], "errors.not_found");

    // Previewed for tomorrow: tomorrow's sale and its banner appear; sales over by then go.
    let (status, preview) = json(
        &t,
        &format!("/api/content/v1/homes/default?previewDate={tomorrow}"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(preview["previewDate"], tomorrow.as_str());
    let previewed = ids(&module(&preview, "sales")["sales"], "id");
    assert!(previewed.contains(&1999));
    assert!(ids(&module(&preview, "highlights")["banners"], "id").contains(&99_999));
    let day_start = app::home::rules::parse_preview_date(&tomorrow).unwrap();
    let over_by_tomorrow: Vec<i64> = module(&home, "sales")["sales"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["endDate"].as_i64().unwrap() <= day_start)
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    assert!(over_by_tomorrow.iter().all(|id| !previewed.contains(id)));
    assert_eq!(
        previewed.len(),
        sales.len() + 1 - over_by_tomorrow.len(),
        "the rest stay"
    );
    // Today's preview is today's home.
    let (_, today) = json(
        &t,
        &format!("/api/content/v1/homes/default?previewDate={}", day(now)),
    )
    .await;
    assert!(!ids(&module(&today, "sales")["sales"], "id").contains(&1999));

    let (status, body) = json(&t, "/api/content/v1/homes/%7Bname%7D").await;
    assert_eq!(
        (status, body["error_code"].as_str()),
        (400, Some("invalid_home_name"))
    );

    // A bad preview date: 400 with a message in the site's language.
    let (status, body) = json(&t, "/api/content/v1/homes/default?previewDate=2026-02-30").await;
    assert_eq!(status, 400);
    assert_eq!(body["error_code"], "invalid_preview_date");
    assert!(body["message"].as_str().unwrap().contains("AAAA-MM-JJ"));
    let (status, body) = json(
        &t,
        "/api/content/v1/homes/default?previewDate=tomorrow&siteId=2",
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("JJJJ-MM-TT"));

    // Reduced: the first four modules, no media ads.
    let (_, reduced) = json(&t, "/api/content/v1/homes/default?isHomeReduced=true").await;
    assert_eq!(reduced["isReduced"], true);
    let modules = reduced["modules"].as_array().unwrap();
    assert_eq!(modules.len(), app::home::rules::REDUCED_MODULES);
    assert!(modules
        .iter()
        .flat_map(|m| m["banners"].as_array().unwrap())
        .all(|b| b["kind"] != "MediaAdsBanner"));
    assert_eq!(
        module(&reduced, "sales")["sales"].as_array().unwrap().len(),
        sales.len()
    );
}

// Previews are for editors: these servers allow them (`ROSACE_HOME_PREVIEW`).
both!(
    home_calls,
    home_calls_on_sqlite,
    home_calls_on_postgres,
    |c: &mut server::config::Config| c.settings.home.preview_dates = true
);

async fn home_pages(t: TestApp) {
    for path in [
        "/?site=1",
        "/home/default?site=1",
        "/h/default?site=1",
        "/gr/home/default",
    ] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        let html = res.text().await.unwrap();
        assert!(html.contains("data-testid=\"sale-grid\""), "{path}");
        assert!(html.contains("data-testid=\"pedagogical\""), "{path}");
        assert!(
            html.contains("class=\"tile tile--megafat tile--2x2\""),
            "{path}"
        );
        assert!(
            html.contains("class=\"tile tile--xxl tile--1x2\""),
            "{path}"
        );
        assert!(html.contains("Se termine dans"), "{path}: countdown");
        // White text: transparent button; links of the module carry home id 1.
        assert!(html.contains("button button--transparent"), "{path}");
        assert!(html.contains("/gr/home/summer?homeId=1"), "{path}");
        // Three highlights, two per page: two pages.
        assert_eq!(html.matches("data-testid=\"pedagogical-page\"").count(), 2);
    }
    // A named home in German; one highlight: one per page; secondary button → primary.
    let html = t.get("/gr/home/Summer?site=2").await.text().await.unwrap();
    assert!(html.contains("Sommer-Special") && html.contains("Endet in"));
    assert!(html.contains("pedagogical__page--1"));
    assert!(html.contains("button button--primary") && html.contains("/gr/sponsorship?homeId=1"));
    assert!(html.contains("class=\"tile tile--megafat tile--2x2\""));
    // ?part= shows one module.
    let html = t.get("/?site=1&part=PEDAGOGY").await.text().await.unwrap();
    assert!(
        html.contains("data-testid=\"pedagogical\"") && !html.contains("data-testid=\"sale-grid\"")
    );
    assert!(html.contains("data-testid=\"home-part\""));
    // Reduced: no deals module.
    let html = t
        .get("/?site=1&isHomeReduced=true")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("home--reduced") && !html.contains("data-module=\"deals\""));
    let html = t.get("/?site=1").await.text().await.unwrap();
    assert!(html.contains("data-module=\"deals\"") && html.contains("Publicité"));
    // Preview and its refusal, localized.
    let res = t.get("/?site=1&previewDate=2026-13-01").await;
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("AAAA-MM-JJ"));
    // Unknown home: localized 404.
    let res = t.get("/gr/home/nowhere?site=4").await;
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().contains("Pagina non trovata"));
}

both!(
    home_pages,
    home_pages_on_sqlite,
    home_pages_on_postgres,
    |c: &mut server::config::Config| c.settings.home.preview_dates = true
);

/// Review L6: by default (`ROSACE_HOME_PREVIEW` unset) `previewDate` is ignored, on the
/// homes call and on the page: nobody sees a sale before it starts, and a date that does
/// not parse is no error.
#[tokio::test]
async fn preview_dates_are_ignored_unless_allowed() {
    let t = crate::helpers::start(crate::helpers::Backend::Sqlite).await;
    let now = app::platform::state::now();
    let tomorrow = sale_starting_tomorrow(&t, now).await;
    let (status, home) = json(
        &t,
        &format!("/api/content/v1/homes/default?previewDate={tomorrow}"),
    )
    .await;
    assert_eq!(status, 200);
    assert!(home["previewDate"].is_null());
    assert!(!ids(&module(&home, "sales")["sales"], "id").contains(&1999));
    assert!(!ids(&module(&home, "highlights")["banners"], "id").contains(&99_999));
    let (status, _) = json(&t, "/api/content/v1/homes/default?previewDate=2026-02-30").await;
    assert_eq!(status, 200);
    let res = t.get(&format!("/?site=1&previewDate={tomorrow}")).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(!html.contains("data-testid=\"home-preview\""));
    assert!(!html.contains("/img/sale/1999/"));
    let res = t.get("/?site=1&previewDate=2026-13-01").await;
    assert_eq!(res.status(), 200);
}

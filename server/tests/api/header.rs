//! Navigation (issue #15) on SQLite and PostgreSQL: the header calls (content, home
//! headers, menu config) within the header limits, loggedIn filtering, the bell's newest
//! messages, the server-rendered header and `/menu` without scripts, and every entry of the
//! lateral and account menus answering a real page for a member.
use serde_json::Value;

use crate::helpers::{both, json, TestApp};

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array")
}

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    (res.status().as_u16(), res.text().await.unwrap_or_default())
}

async fn header_calls_menus_and_pages(t: TestApp) {
    // A visitor: home tabs (the default home first), categories within the limits.
    let (status, h) = json(&t, "/api/content/v1/header?siteId=1&userparam=x", "").await;
    assert_eq!(status, 200);
    assert_eq!(h["siteId"], 1);
    assert!(h["memberId"].is_null());
    assert_eq!(h["unreadCount"], 0);
    assert!(arr(&h["messages"]).is_empty());
    let tabs = arr(&h["homeTabs"]);
    assert!(tabs.len() >= 2);
    assert_eq!(tabs[0]["href"], "/");
    let cats = arr(&h["categories"]);
    assert!(
        !cats.is_empty() && cats.len() <= 8,
        "{} categories",
        cats.len()
    );
    for c in cats {
        assert!(!arr(&c["items"]).is_empty() && arr(&c["items"]).len() <= 5);
        assert!(!arr(&c["sales"]).is_empty() && arr(&c["sales"]).len() <= 4);
        assert!(c["href"].as_str().unwrap().starts_with("/catalog/"));
    }
    // The site from the header when the query has none; another site, other homes.
    let res = t
        .client
        .get(t.url("/api/content/v1/header"))
        .header("x-vp-siteid", "66")
        .header("x-vp-device", "web")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let other: Value = res.json().await.unwrap();
    assert_eq!(other["siteId"], 66);
    assert_ne!(other["categories"], h["categories"]);
    // Previews are off here: a bad date is ignored, not an error.
    let (status, _) = json(&t, "/api/content/v1/header?siteId=1&previewDate=nope", "").await;
    assert_eq!(status, 200);

    let (status, homes) = json(&t, "/api/content/v1/homes/headers?siteId=1", "").await;
    assert_eq!(status, 200);
    assert!(arr(&homes).iter().any(|h| h["type"] == "TRAVEL"));
    assert!(arr(&homes).iter().all(|h| arr(&h["modules"]).len() <= 7));
    assert!(arr(&homes)
        .iter()
        .flat_map(|h| arr(&h["modules"]).iter())
        .all(|m| m["href"].as_str().unwrap().contains("?part=")));

    // The menu config: a visitor has no loggedIn item; a member has all, and the account.
    let (status, menu) = json(&t, "/api/content/v1/menu/10?site=1", "").await;
    assert_eq!(status, 200);
    assert!(arr(&menu["items"]).iter().all(|i| i["loggedIn"] == false));
    assert!(arr(&menu["account"]).is_empty());
    assert_eq!(json(&t, "/api/content/v1/menu/9", "").await.0, 404);
    let member = t.member_session(1).await;
    let (_, menu) = json(&t, "/api/content/v1/menu/10?site=1", &member).await;
    let ids: Vec<&str> = arr(&menu["items"])
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"account") && ids.contains(&"disconnect") && ids.contains(&"offers"));
    let (_, mh) = json(&t, "/api/content/v1/header?siteId=1", &member).await;
    assert!(mh["memberId"].is_i64());

    // Every entry of the member's menus answers a real page (no placeholder, no 404).
    let mut hrefs: Vec<String> = Vec::new();
    for list in [&menu["items"], &menu["account"]] {
        for i in arr(list) {
            hrefs.push(i["href"].as_str().unwrap().to_string());
            for c in arr(&i["children"]) {
                hrefs.push(c["href"].as_str().unwrap().to_string());
            }
        }
    }
    for href in hrefs
        .iter()
        .filter(|h| !h.starts_with('#') && !h.contains("logout"))
    {
        let (status, html) = page(
            &t,
            &format!("{href}{}site=1", if href.contains('?') { '&' } else { '?' }),
            &member,
        )
        .await;
        assert_eq!(status, 200, "{href}");
        assert!(
            !html.contains("class=\"placeholder\""),
            "{href} is a placeholder"
        );
    }

    // The server-rendered header and /menu, complete without scripts.
    let (status, html) = page(&t, "/?site=1", "").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-testid=\"home-tab\"")
            && html.contains("data-testid=\"header-category\"")
    );
    assert!(html.contains("href=\"/menu\"") && html.contains("/js/header.js"));
    assert!(
        !html.contains("data-item=\"account\""),
        "loggedIn item for a visitor"
    );
    let (status, html) = page(&t, "/menu?site=1", "").await;
    assert_eq!(status, 200, "/menu is open to visitors");
    assert!(
        html.contains("data-testid=\"mobile-menu\"")
            && html.contains("data-testid=\"mobile-menu-categories\"")
    );
    assert!(!html.contains("data-testid=\"mobile-menu-account\""));
    let (_, html) = page(&t, "/menu?site=1", &member).await;
    assert!(
        html.contains("data-testid=\"mobile-menu-account\"")
            && html.contains("data-item=\"account\"")
    );
    let (_, html) = page(&t, "/?site=1", &member).await;
    assert!(
        html.contains("data-testid=\"account-menu\"")
            && html.contains("data-testid=\"bell-panel\"")
    );
}

both!(
    header_calls_menus_and_pages,
    header_on_sqlite,
    header_on_postgres
);

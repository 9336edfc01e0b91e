//! The lateral menu's gifts entry on SQLite and PostgreSQL: `/gr/gifts` (and
//! `/gifts`) redirects to the site's gift ideas landing page (translation key `gifts`), in
//! the site's language, whose canonical address stays `/l/{slug}`; the page shows the site's
//! live premium sales and is in the sitemap; a site without such a page answers 404.
use serde_json::Value;

use crate::helpers::{both, json, TestApp};

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    (res.status().as_u16(), res.text().await.unwrap_or_default())
}

/// The status and `Location` of a request (the test client follows no redirect).
async fn redirect(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    let location = res
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string())
        .unwrap_or_default();
    (res.status().as_u16(), location)
}

/// The ids of the site's live sales of one offer type.
async fn live_sales(t: &TestApp, site: i64, offer_type: &str, same: bool) -> Vec<i64> {
    let now = app::platform::state::now();
    let sql = if same {
        "SELECT id FROM sales WHERE site_id = $1 AND offer_type = $2 AND campaign_kind = 'DEFAULT'
            AND starts_at <= $3 AND ends_at > $3 ORDER BY id"
    } else {
        "SELECT id FROM sales WHERE site_id = $1 AND offer_type <> $2 AND campaign_kind = 'DEFAULT'
            AND starts_at <= $3 AND ends_at > $3 ORDER BY id"
    };
    sqlx::query_scalar(sql)
        .bind(site)
        .bind(offer_type)
        .bind(now)
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn gifts_entry_leads_to_the_sites_gift_landing(t: TestApp) {
    let member = t.member_session(1).await;
    // Two sites of different languages (and the sister brand's Italian site), visitor and
    // member, with or without the site base prefix: a temporary redirect to the page's
    // canonical address in the site's language, the query kept.
    for (site, slug, heading, title) in [
        (
            1,
            "idees-cadeaux",
            "Idées cadeaux",
            "Idées cadeaux : des marques premium au prix membre",
        ),
        (
            2,
            "geschenkideen",
            "Geschenkideen",
            "Geschenkideen: Premium-Marken zu Mitgliederpreisen",
        ),
        (
            69,
            "idee-regalo",
            "Idee regalo",
            "Idee regalo: marchi premium a prezzo soci",
        ),
    ] {
        for path in ["/gr/gifts", "/gifts"] {
            let (status, location) = redirect(&t, &format!("{path}?site={site}"), "").await;
            assert_eq!(status, 302, "{path} site {site}");
            assert_eq!(location, format!("/l/{slug}?site={site}"));
        }
        if site == 1 {
            let (status, location) = redirect(&t, "/gr/gifts?site=1", &member).await;
            assert_eq!(
                (status, location.as_str()),
                (302, "/l/idees-cadeaux?site=1")
            );
        }

        // The landing: its heading, SEO title, canonical, blocks and footer, and the site's
        // live premium sales (and only those), each to its open-door catalog.
        let (status, html) = page(&t, &format!("/l/{slug}?site={site}"), "").await;
        assert_eq!(status, 200, "{slug}");
        assert!(html.contains(&format!(">{heading}</h1>")), "{slug} heading");
        assert!(html.contains(&format!("<title>{title} | ")), "{slug} title");
        assert!(html.contains("rel=\"canonical\""));
        let canonical = html
            .split("<link ")
            .find(|l| l.contains("rel=\"canonical\""))
            .unwrap();
        // (The test server names the site in the query; a real host needs none.)
        assert!(
            canonical.contains(&format!("/l/{slug}\""))
                || canonical.contains(&format!("/l/{slug}?site={site}\"")),
            "{canonical}"
        );
        assert_eq!(html.matches("class=\"landing__block\"").count(), 2);
        assert!(html.contains("data-testid=\"landing-seo-footer\""));
        assert!(html.contains("data-testid=\"landing-sales\""), "{slug}");
        assert!(!html.contains("noindex"), "{slug} is indexable");
        // (The header's categories link sales too: only the landing's list counts.)
        let start = html.find("data-testid=\"landing-sales\"").unwrap();
        let list = &html[start..start + html[start..].find("</ul>").unwrap()];
        let premium = live_sales(&t, site, "Premium", true).await;
        assert!(!premium.is_empty(), "site {site} has premium sales");
        for id in &premium {
            assert!(list.contains(&format!("/{id}/")), "{slug} lacks sale {id}");
        }
        for id in live_sales(&t, site, "Premium", false).await {
            assert!(
                !list.contains(&format!("/{id}/")),
                "{slug} shows non-premium sale {id}"
            );
        }
        // Its first sale's catalog answers a visitor.
        let first = list
            .split("href=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap()
            .to_string();
        assert!(first.starts_with("/c/"), "{first}");
        let (status, _) = page(&t, &format!("{first}?site={site}"), "").await;
        assert_eq!(status, 200, "{first}");

        // The sitemap lists the landing (its canonical address), not the redirect.
        let xml = t
            .get(&format!("/sitemap.xml?site={site}"))
            .await
            .text()
            .await
            .unwrap();
        let listed = |path: &str| {
            xml.contains(&format!("{path}</loc>")) || xml.contains(&format!("{path}?site="))
        };
        assert!(listed(&format!("/l/{slug}")), "sitemap {site} lacks {slug}");
        assert!(!listed("/gifts"), "sitemap {site} lists the redirect");
    }

    // The French and German pages are each other's translations (hreflang).
    let (_, html) = page(&t, "/l/idees-cadeaux?site=1", "").await;
    assert!(html.contains("hreflang=\"de") && html.contains("/l/geschenkideen"));

    // The menu config offers the entry to visitors, to the stable address.
    let (status, menu) = json(&t, "/api/content/v1/menu/10?site=2", "").await;
    assert_eq!(status, 200);
    let gifts: Vec<&Value> = menu["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["id"] == "gifts")
        .collect();
    assert_eq!(gifts.len(), 1);
    assert_eq!(gifts[0]["href"], "/gr/gifts");
    assert_eq!(gifts[0]["loggedIn"], false);
    // The server-rendered menu has it, labelled in the site's language.
    let (_, html) = page(&t, "/menu?site=2", "").await;
    assert!(html.contains("href=\"/gr/gifts\"") && html.contains("Geschenkideen"));

    // A site without a gift ideas page: the 404 page, no redirect.
    sqlx::query("DELETE FROM landing_pages WHERE site_id = $1 AND translation_key = $2")
        .bind(3i64)
        .bind("gifts")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, html) = page(&t, "/gr/gifts?site=3", "").await;
    assert_eq!(status, 404);
    assert!(html.contains("data-testid=\"not-found\""));
    let (status, location) = redirect(&t, "/gr/gifts?site=1", "").await;
    assert_eq!(
        (status, location.as_str()),
        (302, "/l/idees-cadeaux?site=1")
    );
}

both!(
    gifts_entry_leads_to_the_sites_gift_landing,
    gifts_on_sqlite,
    gifts_on_postgres
);

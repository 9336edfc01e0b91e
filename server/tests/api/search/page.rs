//! The `/find` page.
use super::{pick_product, urlencode, with_typo, with_xsrf};
use crate::helpers::{cookie_value, start, Backend};

/// `/find` is complete in the server HTML: results with links, filters, the count; the
/// member's recent queries with delete forms that work without scripts.
#[tokio::test]
async fn find_page_is_server_rendered() {
    let t = start(Backend::Sqlite).await;
    let (product, word, brand) = pick_product(&t, 1, 1001).await;
    let q = urlencode(&format!("{} {brand}", with_typo(&word)));
    // Open door: visitors see results, with SEO product links; a plain query is a landing
    // page under its folded URL, its filtered variants are not indexed.
    let res = t.get(&format!("/find?q={q}")).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    let html_first = html.clone();
    assert!(html.contains("data-testid=\"search-results\""));
    assert!(html.contains(&format!("data-item-id=\"{product}\"")));
    assert!(html.contains("data-testid=\"search-count\""));
    assert!(html.contains("href=\"/seo-product/"));
    assert!(html.contains("data-filter=\"brand\""));
    assert!(!html.contains("noindex"));
    let canonical = html
        .split("<link ")
        .find(|l| l.contains("rel=\"canonical\""))
        .unwrap();
    assert!(
        canonical.starts_with("href=\"http://shop.test/find?q="),
        "{canonical}"
    );
    let filtered = t
        .get(&format!(
            "/find?q={q}&brand={}",
            urlencode(&app::text::slug::slug(&brand))
        ))
        .await
        .text()
        .await
        .unwrap();
    assert!(filtered.contains("noindex"));
    // Under a ticked brand, the colours and sizes count that brand's results only (each
    // item has one colour: they add up to the results), while the brands still count
    // without it, so the other brands keep their numbers.
    let counts = |html: &str, facet: &str| -> Vec<(String, i64)> {
        html.split(&format!("data-filter=\"{facet}\" data-slug=\""))
            .skip(1)
            .map(|rest| {
                let slug = rest.split('"').next().unwrap().to_string();
                let text = rest.split('>').nth(1).unwrap().split("</a").next().unwrap();
                let n = text.rsplit('(').next().unwrap().trim_end_matches(')');
                (slug, n.parse().unwrap_or_else(|_| panic!("{text}")))
            })
            .collect()
    };
    let results: i64 = filtered
        .split("data-testid=\"search-results\" data-count=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|n| n.parse().ok())
        .expect("the filtered page says its count");
    assert!(results > 0, "the product's brand has results");
    let colours: i64 = counts(&filtered, "color").iter().map(|(_, n)| n).sum();
    assert_eq!(colours, results, "colours counted under the brand");
    assert_eq!(counts(&filtered, "brand"), counts(&html_first, "brand"));
    assert!(html.contains("data-testid=\"search-input\""));
    // Nothing found: a friendly message.
    let html = t.get("/find?q=zzzzqqqq").await.text().await.unwrap();
    assert!(html.contains("data-count=\"0\""));
    assert!(html.contains("Aucun résultat"));
    // Too long: refused with the localized message.
    let html = t
        .get(&format!("/find?q={}", "a".repeat(201)))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"search-error\""));

    // A member's search is recorded and listed under the empty box.
    let session = t.member_session(1).await;
    let html = t
        .get_with_cookie(&format!("/find?q={q}"), &session)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains(&format!("href=\"/product/1001/{product}\"")));
    let page = t.get_with_cookie("/find", &session).await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN");
    let html = page.text().await.unwrap();
    assert_eq!(html.matches("data-testid=\"recent-query\"").count(), 1);
    assert!(html.contains("data-testid=\"recent-delete\""));
    let id: i64 = sqlx::query_scalar("SELECT id FROM search_queries")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(html.contains(&format!("action=\"/find/recent/{id}/delete\"")));
    let (cookie, xsrf) = match xsrf {
        Some(x) => (format!("{session}; {}", crate::helpers::xsrf_cookie(&x)), x),
        None => with_xsrf(&t, &session).await,
    };
    // The delete form: refused without the token, then Post/Redirect/Get to /find.
    let post = |token: String| {
        let t = &t;
        let cookie = cookie.clone();
        async move {
            t.client
                .post(t.url(&format!("/find/recent/{id}/delete")))
                .header("cookie", cookie)
                .form(&[("_xsrf", token)])
                .send()
                .await
                .unwrap()
        }
    };
    assert_eq!(post("forged".into()).await.status(), 403);
    let res = post(xsrf.clone()).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/find");
    assert_eq!(t.count("SELECT COUNT(*) FROM search_queries").await, 0);
    let html = t
        .get_with_cookie("/find", &session)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(html.matches("data-testid=\"recent-query\"").count(), 0);
}

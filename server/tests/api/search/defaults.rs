//! What the search field offers before anything is typed (spec 000 §3 defaultLists): the
//! member's recent queries, popular searches (only those three members made),
//! else the brands with the most products on sale, then the sales on now.
use serde_json::Value;

use super::urlencode;
use crate::helpers::{both, json, TestApp};

/// A new member of a site with a session cookie.
async fn member(t: &TestApp, site_id: u16, n: usize) -> String {
    let now = app::platform::state::now();
    let email = format!("defaults-{site_id}-{n}@rosace.test");
    sqlx::query(
        "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status, created_at)
         VALUES ($1, $2, 'x', 0, 'Search', 'Member', 1, $3)",
    )
    .bind(i64::from(site_id))
    .bind(&email)
    .bind(now)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let id: i64 = sqlx::query_scalar("SELECT id FROM members WHERE email = $1")
        .bind(&email)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let token = app::platform::session::create(&t.app.state.db, id, false, now)
        .await
        .unwrap();
    format!("{}={token}", app::platform::session::COOKIE)
}

async fn empty_box(t: &TestApp, site: u16, session: &str) -> Vec<(String, String)> {
    let (status, body) = json(
        t,
        &format!("/api/catalog/v1/search/suggestions?query=&siteId={site}"),
        session,
    )
    .await;
    assert_eq!(status, 200);
    body["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s: &Value| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["label"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn labels<'a>(list: &'a [(String, String)], kind: &str) -> Vec<&'a str> {
    list.iter()
        .filter(|(k, _)| k == kind)
        .map(|(_, l)| l.as_str())
        .collect()
}

async fn search(t: &TestApp, q: &str, session: &str) {
    let (status, _) = json(
        t,
        &format!("/api/catalog/v8/search/items?q={}", urlencode(q)),
        session,
    )
    .await;
    assert_eq!(status, 200);
}

async fn lists_before_typing(t: TestApp) {
    // A visitor on a site nobody searched yet: the brands most on sale, then three sales.
    let visitor = empty_box(&t, 1, "").await;
    let popular = labels(&visitor, "popular");
    assert_eq!(popular.len(), 5, "{visitor:?}");
    let brand_names: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT b.name FROM brands b JOIN products p ON p.brand_id = b.id JOIN sales s ON s.id = p.sale_id WHERE s.site_id = 1")
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    assert!(
        popular.iter().all(|p| brand_names.iter().any(|b| b == p)),
        "{popular:?}"
    );
    let sales: Vec<&(String, String)> =
        visitor.iter().filter(|(k, _)| k == "salesbanner").collect();
    assert_eq!(sales.len(), 3, "{visitor:?}");
    assert_eq!(visitor.last().unwrap().0, "salesbanner", "sales come last");
    assert!(labels(&visitor, "history").is_empty());

    // A query two members made stays theirs; once a third makes it, it is popular, first.
    let members = [
        member(&t, 1, 1).await,
        member(&t, 1, 2).await,
        member(&t, 1, 3).await,
    ];
    for m in &members[..2] {
        search(&t, "Trench camel", m).await;
    }
    assert!(!labels(&empty_box(&t, 1, "").await, "popular").contains(&"Trench camel"));
    search(&t, "trench CAMEL", &members[2]).await;
    let after = empty_box(&t, 1, "").await;
    assert_eq!(
        labels(&after, "popular")[0].to_lowercase(),
        "trench camel",
        "{after:?}"
    );
    assert_eq!(labels(&after, "popular").len(), 5);

    // A member who made it sees it once, as their own recent query.
    let own = empty_box(&t, 1, &members[0]).await;
    assert_eq!(own[0], ("history".to_string(), "Trench camel".to_string()));
    assert!(
        !labels(&own, "popular")
            .iter()
            .any(|p| p.eq_ignore_ascii_case("trench camel")),
        "{own:?}"
    );

    // Another site: its own sales and brands, none of site 1's searches.
    let es = empty_box(&t, 3, "").await;
    assert!(!labels(&es, "popular")
        .iter()
        .any(|p| p.eq_ignore_ascii_case("trench camel")));
    let (_, body) = json(&t, "/api/catalog/v1/search/suggestions?query=&siteId=3", "").await;
    for s in body["suggestions"].as_array().unwrap() {
        if s["kind"] == "salesbanner" {
            assert_eq!(s["id"].as_i64().unwrap() / 1000, 3, "{s}");
        }
    }
}

both!(
    lists_before_typing,
    lists_before_typing_on_sqlite,
    lists_before_typing_on_postgres,
);

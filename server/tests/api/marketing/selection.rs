//! An operation's own selection (spec 000 §3 "Operation: code, products, universes with
//! subUniverses"): the link lands a member on its page while any of its products is on
//! sale, the page and the REST call give its products across sales and their universes,
//! a universe narrows them; a visitor is asked to sign in; another site has its own;
//! once everything is over the link lands on its target and the page says so; unknown,
//! selection-less and malformed codes are 404.
use serde_json::Value;

use super::page;
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

/// The demo selection's product ids on `site`, in order, on sale now.
async fn chosen(t: &TestApp, site: i64) -> Vec<i64> {
    sqlx::query_scalar(&format!(
        "SELECT pr.id FROM operation_products op JOIN operations o ON o.id = op.operation_id
           JOIN products pr ON pr.id = op.product_id JOIN sales s ON s.id = pr.sale_id
          WHERE o.code = 'SELECTION' AND {} ORDER BY op.position",
        app::platform::sql::LIVE_SALE
    ))
    .bind(site)
    .bind(app::platform::state::now())
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn json(t: &TestApp, cookie: Option<&str>, path: &str) -> (u16, Value) {
    let mut req = t.client.get(t.url(path));
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    let res = req.send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap_or_default())
}

fn ids(v: &Value) -> Vec<i64> {
    v["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

async fn operation_selection(t: TestApp) {
    let expected = chosen(&t, 1).await;
    assert_eq!(expected.len(), 6, "two products of three sales");
    let member = shopper(&t, 2).await;

    // The link lands a member, and a visitor, on the selection; the visitor signs in first.
    let (status, location, _) = page(&t, Some(&member), "/operation/selection").await;
    assert_eq!(
        (status, location.as_str()),
        (302, "/operation/SELECTION/selection")
    );
    let (status, location, _) = page(&t, None, "/operation/SELECTION").await;
    assert_eq!(
        (status, location.as_str()),
        (302, "/operation/SELECTION/selection")
    );
    let (status, location, _) = page(&t, None, "/operation/SELECTION/selection").await;
    assert!(status == 302 || status == 303, "{status}");
    assert!(location.contains("authentication"), "{location}");

    // The page: its title, the products of three sales, the universes to narrow them.
    let (status, _, html) = page(&t, Some(&member), "/operation/SELECTION/selection").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<h1>La sélection de la semaine</h1>"),
        "{html}"
    );
    for id in &expected {
        assert!(
            html.contains(&format!("/{id}\"")),
            "product {id} on the page"
        );
    }
    assert!(html.contains("data-testid=\"selection-universes\""));
    assert!(
        html.contains("aria-current=\"page\" data-universe=\"\""),
        "all, by default"
    );

    // The REST call: the spec's shape, for members only.
    let (status, op) = json(
        &t,
        Some(&member.cookie),
        "/api/content/v1/operations/selection",
    )
    .await;
    assert_eq!(status, 200, "{op}");
    assert_eq!(op["code"], "SELECTION");
    assert_eq!(op["title"], "La sélection de la semaine");
    assert_eq!(ids(&op), expected);
    let universes = op["universes"].as_array().unwrap().clone();
    assert!(!universes.is_empty());
    let sales: std::collections::HashSet<i64> = op["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["saleId"].as_i64().unwrap_or_default())
        .collect();
    assert_eq!(sales.len(), 3, "across three sales: {sales:?}");
    // A universe narrows the products, never the universes.
    let first = universes[0]["id"].as_str().unwrap().to_string();
    let (_, narrowed) = json(
        &t,
        Some(&member.cookie),
        &format!("/api/content/v1/operations/SELECTION?universe={first}"),
    )
    .await;
    let some = ids(&narrowed);
    assert!(!some.is_empty() && some.iter().all(|id| expected.contains(id)));
    assert_eq!(narrowed["universes"], op["universes"]);
    let (status, none) = json(
        &t,
        Some(&member.cookie),
        "/api/content/v1/operations/SELECTION?universe=%3Cscript%3E",
    )
    .await;
    assert_eq!((status, ids(&none).len()), (200, 0));
    let (_, _, html) = page(
        &t,
        Some(&member),
        &format!("/operation/SELECTION/selection?universe={first}"),
    )
    .await;
    assert!(html.contains(&format!("aria-current=\"page\" data-universe=\"{first}\"")));
    let (status, _) = json(&t, None, "/api/content/v1/operations/SELECTION").await;
    assert_eq!(status, 401, "members only");

    // Unknown, selection-less and malformed codes.
    for code in ["NOPE", "VENTE-FLASH", "BIENVENUE", "x%3By", "ETE2019"] {
        let (status, _) = json(
            &t,
            Some(&member.cookie),
            &format!("/api/content/v1/operations/{code}"),
        )
        .await;
        assert_eq!(status, 404, "{code}");
    }
    let (status, _, html) = page(&t, Some(&member), "/operation/VENTE-FLASH/selection").await;
    assert_eq!(status, 404, "{html}");

    // Another site has its own selection, in its language.
    let other = chosen(&t, 4).await;
    assert!(!other.is_empty() && other.iter().all(|id| !expected.contains(id)));

    // Everything of it over: the link lands on its target, the page says nothing is left.
    sqlx::query(
        "UPDATE sales SET ends_at = 1 WHERE id IN (SELECT pr.sale_id FROM operation_products op
           JOIN operations o ON o.id = op.operation_id JOIN products pr ON pr.id = op.product_id
          WHERE o.code = 'SELECTION' AND o.site_id = 1)",
    )
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let (status, location, _) = page(&t, Some(&member), "/operation/SELECTION").await;
    assert_eq!((status, location.as_str()), (302, "/"));
    let (status, _, html) = page(&t, Some(&member), "/operation/SELECTION/selection").await;
    assert_eq!(status, 200);
    assert!(html.contains("data-testid=\"selection-empty\""), "{html}");
}

both!(
    operation_selection,
    operation_selection_on_sqlite,
    operation_selection_on_postgres
);

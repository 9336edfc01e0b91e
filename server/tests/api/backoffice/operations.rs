//! Marketing operations in the back office: a bad form names every field and changes
//! nothing; a code is one per site; a sale of another site is refused; the selection takes
//! only products of the operation's site, once each; the shop's link then lands on the
//! selection, and on the sale again once the selection is emptied; each write is audited;
//! customer care has no access.
use super::*;
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn live_products(t: &TestApp, site: i64, n: i64) -> Vec<(i64, i64)> {
    sqlx::query_as(&format!(
        "SELECT pr.id, s.id FROM products pr JOIN sales s ON s.id = pr.sale_id
          WHERE {} AND pr.moderation = '' AND COALESCE(pr.item_type, 1) = 1
          ORDER BY s.position, s.id, pr.position, pr.id LIMIT {n}",
        app::platform::sql::LIVE_SALE
    ))
    .bind(site)
    .bind(app::platform::state::now())
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

fn form<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut f = vec![
        ("site", "1"),
        ("code", "noel-test"),
        ("title", "Noël en avance"),
        ("target_kind", "home"),
        ("target", "default"),
        ("starts_at", "2020-01-01T00:00"),
        ("ends_at", "2099-01-01T00:00"),
    ];
    for (k, v) in extra {
        f.retain(|(n, _)| n != k);
        f.push((k, v));
    }
    f
}

async fn merchandisers_run_operations(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch.get(&t, "/backoffice/operations").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-operation=\"SELECTION\" data-site=\"1\""),
        "{html}"
    );
    let count = "SELECT COUNT(*) FROM operations WHERE code = 'NOEL-TEST'";

    // Every bad field at once, nothing made.
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/operations",
            &form(&[
                ("site", "99"),
                ("code", "noël test"),
                ("target_kind", "sale"),
                ("target", "abc"),
                ("ends_at", "2019-01-01T00:00"),
            ]),
        )
        .await;
    assert_eq!(status, 422);
    for field in ["site", "code", "target", "ends_at"] {
        assert!(
            html.contains(&format!("data-error-for=\"{field}\"")),
            "{field}"
        );
    }
    assert!(html.contains("value=\"noël test\""), "what was typed stays");
    assert_eq!(t.count(count).await, 0);
    // A sale of another site.
    let other_sale = live_products(&t, 4, 1).await[0].1.to_string();
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/operations",
            &form(&[("target_kind", "sale"), ("target", &other_sale)]),
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("data-error-for=\"target\""));

    // Made, landing on a sale of its site.
    let ours = live_products(&t, 1, 1).await;
    let sale = ours[0].1.to_string();
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/operations",
            &form(&[("target_kind", "sale"), ("target", &sale)]),
        )
        .await;
    assert_eq!(status, 303);
    assert!(location.ends_with("?done=created"), "{location}");
    let page_path = location.split('?').next().unwrap().to_string();
    assert_eq!(t.count(count).await, 1);
    assert_eq!(audit_count(&t, "create", "operation").await, 1);
    let (status, _, _) = merch.post(&t, "/backoffice/operations", &form(&[])).await;
    assert_eq!(status, 409, "one code per site");
    let (status, _, _) = merch
        .post(&t, "/backoffice/operations", &form(&[("site", "2")]))
        .await;
    assert_eq!(status, 303, "another site may use it");

    // Its selection: another site's product, a word and a repeat are refused.
    let (_, html) = merch.get(&t, &page_path).await;
    assert!(html.contains("data-testid=\"selection-none\""));
    let add = format!("{page_path}/products");
    let theirs = live_products(&t, 4, 1).await[0].0.to_string();
    for bad in [theirs.as_str(), "abc", "-3", ""] {
        let (status, _, html) = merch.post(&t, &add, &[("product_id", bad)]).await;
        assert_eq!(status, 422, "{bad}");
        assert!(html.contains("data-error-for=\"product_id\""), "{bad}");
    }
    // Two products of two sales of the site.
    let first = ours[0].0;
    // The demo selection spans three sales: one of its products of another sale.
    let second: i64 = sqlx::query_scalar(
        "SELECT op.product_id FROM operation_products op JOIN operations o ON o.id = op.operation_id
           JOIN products pr ON pr.id = op.product_id
          WHERE o.code = 'SELECTION' AND o.site_id = 1 AND pr.sale_id <> $1 ORDER BY op.position LIMIT 1",
    )
    .bind(ours[0].1)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    for p in [first, second] {
        let (status, location, _) = merch
            .post(&t, &add, &[("product_id", &p.to_string())])
            .await;
        assert_eq!(status, 303);
        assert!(location.ends_with("?done=added"));
    }
    let (status, _, html) = merch
        .post(&t, &add, &[("product_id", &first.to_string())])
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("data-error-for=\"product_id\""));
    assert_eq!(audit_count(&t, "add_product", "operation").await, 2);
    let (_, html) = merch.get(&t, &page_path).await;
    for p in [first, second] {
        assert!(html.contains(&format!("data-product=\"{p}\"")));
    }

    // The shop: the link lands a member on the selection, with the two products.
    let member = shopper(&t, 2).await;
    let get = |path: String| {
        let cookie = member.cookie.clone();
        let client = t.client.clone();
        let url = t.url(&path);
        async move {
            let res = client
                .get(url)
                .header("cookie", cookie)
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            let location = res
                .headers()
                .get("location")
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default();
            (status, location, res.text().await.unwrap())
        }
    };
    let (status, location, _) = get("/operation/noel-test".into()).await;
    assert_eq!(status, 302);
    assert!(
        location.starts_with("/operation/NOEL-TEST/selection"),
        "{location}"
    );
    let (status, _, html) = get("/operation/NOEL-TEST/selection".into()).await;
    assert_eq!(status, 200);
    assert!(html.contains("<h1>Noël en avance</h1>"), "{html}");
    for p in [first, second] {
        assert!(html.contains(&format!("/{p}\"")), "product {p}");
    }

    // Emptied, the link lands on its sale again.
    for p in [first, second] {
        let (status, location, _) = merch
            .post(&t, &format!("{page_path}/products/{p}/remove"), &[])
            .await;
        assert_eq!(status, 303);
        assert!(location.ends_with("?done=removed"));
    }
    assert_eq!(audit_count(&t, "remove_product", "operation").await, 2);
    let (status, location, _) = get("/operation/noel-test".into()).await;
    assert_eq!(status, 302);
    assert!(
        location.starts_with(&format!("/catalog/{sale}/")),
        "{location}"
    );

    // A home the site does not have is refused, at creation and in a change.
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/operations",
            &form(&[("code", "autre-test"), ("target", "nulle-part")]),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        html.contains("This site has no home of that name."),
        "{html}"
    );

    // Changed: the form shows the stored values; the site and code stay whatever is posted.
    let edit = format!("{page_path}/edit");
    let (status, html) = merch.get(&t, &edit).await;
    assert_eq!(status, 200);
    assert!(html.contains("<code>NOEL-TEST</code>") && !html.contains("name=\"code\""));
    assert!(html.contains("value=\"Noël en avance\""));
    let change = |extra: &[(&'static str, &'static str)]| {
        let mut f = form(&[
            ("title", "Noël, deuxième semaine"),
            ("site", "66"),
            ("code", "PIRATE"),
        ]);
        for (k, v) in extra {
            f.retain(|(n, _)| n != k);
            f.push((k, v));
        }
        f
    };
    let (status, _, html) = merch
        .post(&t, &edit, &change(&[("target", "nulle-part")]))
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("This site has no home of that name."));
    assert!(
        html.contains("value=\"Noël, deuxième semaine\""),
        "what was typed stays"
    );
    let (status, _, html) = merch
        .post(&t, &edit, &change(&[("ends_at", "2020-01-01T00:00")]))
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("data-error-for=\"ends_at\""));
    assert_eq!(
        audit_count(&t, "update", "operation").await,
        0,
        "nothing saved yet"
    );
    let (status, location, _) = merch.post(&t, &edit, &change(&[])).await;
    assert_eq!(status, 303);
    assert!(location.ends_with("?done=saved"), "{location}");
    let stored: (i64, String, String, String) = sqlx::query_as(
        "SELECT site_id, code, title, target FROM operations WHERE code = 'NOEL-TEST' AND site_id = 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        stored,
        (
            1,
            "NOEL-TEST".into(),
            "Noël, deuxième semaine".into(),
            "default".into()
        )
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM operations WHERE code = 'PIRATE'")
            .await,
        0
    );
    assert_eq!(audit_count(&t, "update", "operation").await, 1);
    let (status, location, _) = get("/operation/noel-test".into()).await;
    assert_eq!(status, 302);
    assert!(
        !location.starts_with("/catalog/"),
        "it lands on the home now: {location}"
    );

    // Ended now: the link lands nowhere; ending again is harmless and not audited twice.
    for _ in 0..2 {
        let (status, location, _) = merch.post(&t, &format!("{page_path}/end"), &[]).await;
        assert_eq!(status, 303);
        assert!(location.ends_with("?done=ended"));
    }
    assert_eq!(audit_count(&t, "end", "operation").await, 1);
    let (_, html) = merch.get(&t, &page_path).await;
    assert!(
        !html.contains("/end\""),
        "no end button on an ended operation"
    );
    let (_, location, _) = get("/operation/noel-test".into()).await;
    assert!(
        !location.contains("selection") && !location.starts_with("/catalog/"),
        "{location}"
    );

    // Customer care does not run marketing.
    let care = sign_in(&t, CARE).await;
    let (status, _, _) = care.post(&t, &edit, &change(&[])).await;
    assert_eq!(status, 403);
    let (status, _, _) = care.post(&t, &format!("{page_path}/end"), &[]).await;
    assert_eq!(status, 403);
    let (status, _) = care.get(&t, "/backoffice/operations").await;
    assert_eq!(status, 403);
    let (status, _, _) = care
        .post(&t, &add, &[("product_id", &first.to_string())])
        .await;
    assert_eq!(status, 403);
}

both!(
    merchandisers_run_operations,
    merchandisers_run_operations_sqlite,
    merchandisers_run_operations_postgres
);

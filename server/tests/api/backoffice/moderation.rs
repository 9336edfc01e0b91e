//! Notices of illegal content: the notifier's acknowledgement, the moderators' queue and
//! files, a decision with its statement of reasons (emailed and kept, in the notifier's
//! language), the product gone from catalog, search, cart and its page (410) at once, even
//! with the page cache on; a second moderator told the notice was decided; a refused
//! decision changes nothing; the transparency report and its CSV; roles.
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use super::*;
use crate::account::mails_to;
use crate::helpers::{both, json as get_json, TestApp};

const PRODUCT: i64 = 100101;
const NOTIFIER: &str = "legal@acme.example";

async fn notice_sent(t: &TestApp, product: Option<i64>) -> i64 {
    let xsrf = t.xsrf().await;
    let body = json!({
        "siteId": 1, "saleId": 1001, "productId": product, "selectedMadeAs": 3,
        "selectedConcerns": ["COPYRIGHT_TRADEMARK", "HATRED"],
        "description": "The product page copies our registered trademark logo.",
        "lastName": "", "denomination": "ACME SA", "copyrightRegNumber": "EUTM-018000001",
        "copyrightReportNumber": "", "selectedRegOffice": "Belgique", "email": NOTIFIER,
        "agreementSellerPartner": true, "isNotificationSubmitChecked": true
    });
    let pdf = Part::bytes(b"%PDF-1.4\n% proof <script>alert(1)</script>\n".to_vec())
        .file_name("preuve <1>.pdf")
        .mime_str("application/pdf")
        .unwrap();
    let res = t
        .client
        .post(t.url("/api/postsale/v1/help/dsacontactform"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("X-XSRF-TOKEN", &xsrf)
        .multipart(
            Form::new()
                .text("payload", body.to_string())
                .part("files", pdf),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// Whether the product shows in its sale's catalog and in a search for its name.
async fn listed(t: &TestApp, name: &str) -> (bool, bool) {
    let (_, content) = get_json(t, "/api/catalog/v2/sale/1001/catalogContent/0?limit=96", "").await;
    let in_catalog = content["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["id"].as_i64() == Some(PRODUCT));
    let q = serde_urlencoded::to_string([("q", name)]).unwrap();
    let (_, found) = get_json(
        t,
        &format!("/api/catalog/v8/search/items?{q}&siteId=1&limit=96"),
        "",
    )
    .await;
    let in_search = found["products"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["id"].as_i64() == Some(PRODUCT));
    (in_catalog, in_search)
}

async fn a_notice_is_decided_and_the_product_leaves_the_shop(t: TestApp) {
    let name: String = sqlx::query_scalar("SELECT name FROM products WHERE id = $1")
        .bind(PRODUCT)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    // A member's product page comes from a template the page cache keeps.
    let shopper = crate::helpers::cart::shopper(&t, 2).await;
    let page = "/product/1001/100101";
    assert_eq!(t.get_with_cookie(page, &shopper.cookie).await.status(), 200);
    assert_eq!(
        t.get_with_cookie(page, &shopper.cookie).await.status(),
        200,
        "cached copy"
    );
    assert_eq!(listed(&t, &name).await, (true, true));

    // The notifier is acknowledged by email, in the site's language.
    let id = notice_sent(&t, Some(PRODUCT)).await;
    let mails = mails_to(&t, NOTIFIER);
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains(&format!(
        "Subject: Nous avons bien reçu votre signalement n° {id}"
    )));
    assert!(
        mails[0].contains(&format!("« {name} » (n° {PRODUCT})")),
        "{}",
        mails[0]
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM dsa_reports WHERE id = {id} AND acknowledged_at IS NOT NULL"
        ))
        .await,
        1
    );

    // The queue lists it with its age; its page shows the file as a download only.
    let moderator = sign_in(&t, MODERATOR).await;
    let (status, queue) = moderator.get(&t, "/backoffice/moderation").await;
    assert_eq!(status, 200);
    assert!(queue.contains(&format!(r#"<tr data-notice="{id}">"#)));
    assert!(queue.contains("Waiting for a decision: 1"));
    let (_, notice) = moderator
        .get(&t, &format!("/backoffice/moderation/{id}"))
        .await;
    assert!(notice.contains("ACME SA") && notice.contains("Trademark infringement, Hateful"));
    let file_id = t
        .count(&format!(
            "SELECT id FROM dsa_report_files WHERE report_id = {id}"
        ))
        .await;
    let file = t
        .get_with_cookie(
            &format!("/backoffice/moderation/{id}/files/{file_id}"),
            &moderator.cookie,
        )
        .await;
    assert_eq!(file.status(), 200);
    let h = file.headers();
    assert_eq!(h["content-type"], "application/octet-stream");
    assert!(h["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"preuve__1_.pdf\""));
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert!(h["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("sandbox"));
    let other = t
        .get_with_cookie(
            &format!("/backoffice/moderation/{}/files/{file_id}", id + 1),
            &moderator.cookie,
        )
        .await;
    assert_eq!(
        other.status(),
        404,
        "a file is read through its own notice only"
    );

    // A decision without its reasons is refused; nothing changes.
    let (status, _, html) = moderator
        .post(
            &t,
            &format!("/backoffice/moderation/{id}"),
            &[
                ("decision", "remove"),
                ("ground", "illegal"),
                ("facts", " "),
                ("explanation", "Art. 9 EUTMR"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        html.contains("Write the facts") && html.contains("Art. 9 EUTMR"),
        "what was typed stays"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM dsa_decisions").await, 0);
    assert_eq!(listed(&t, &name).await, (true, true));

    // Removed: gone from catalog, search, cart and its page at once.
    let fields = [
        ("decision", "remove"),
        ("ground", "illegal"),
        (
            "facts",
            "The logo on the bag is the notifier's registered mark.",
        ),
        ("explanation", "Art. 9 of the EU trade mark regulation."),
    ];
    let (status, location, _) = moderator
        .post(&t, &format!("/backoffice/moderation/{id}"), &fields)
        .await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/moderation/{id}?done=decided").as_str()
        )
    );
    assert_eq!(listed(&t, &name).await, (false, false));
    let gone = t.get_with_cookie(page, &shopper.cookie).await;
    assert_eq!(gone.status(), 410);
    assert!(gone
        .text()
        .await
        .unwrap()
        .contains("Ce produit a été retiré de la boutique."));
    let option = t
        .count(&format!(
            "SELECT MIN(id) FROM product_options WHERE product_id = {PRODUCT}"
        ))
        .await;
    let add = json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" });
    let (status, body) = shopper
        .call(
            &t,
            reqwest::Method::POST,
            "/api/cartproxy/v1/item",
            Some(add),
        )
        .await;
    assert_eq!(
        status, 400,
        "a removed product's option cannot be added: {body}"
    );

    // The statement of reasons: emailed in French, kept word for word, audited.
    let mails = mails_to(&t, NOTIFIER);
    assert_eq!(mails.len(), 2);
    let statement: String =
        sqlx::query_scalar("SELECT statement FROM dsa_decisions WHERE report_id = $1")
            .bind(id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    let sent = mails
        .iter()
        .find(|m| m.contains(&format!("Subject: Décision sur votre signalement n° {id}")))
        .expect("the statement was emailed");
    assert!(sent.contains(&statement));
    for part in [
        "le produit est retiré de la boutique",
        "The logo on the bag",
        "Art. 9",
        "article 21",
        "Voies de recours",
    ] {
        assert!(statement.contains(part), "{part}");
    }
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'notice' AND object_id = '{id}' AND action = 'decide'")).await,
        1
    );

    // A second moderator deciding the same notice is told, and nothing of theirs is kept.
    let admin = sign_in(&t, ADMIN).await;
    let (status, _, html) = admin
        .post(
            &t,
            &format!("/backoffice/moderation/{id}"),
            &[
                ("decision", "none"),
                ("ground", "terms"),
                ("facts", "x"),
                ("explanation", "y"),
            ],
        )
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("Another moderator decided this notice first"));
    assert_eq!(t.count("SELECT COUNT(*) FROM dsa_decisions").await, 1);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM products WHERE id = {PRODUCT} AND moderation = 'removed'"
        ))
        .await,
        1
    );

    // The transparency report counts it under both reasons, and its CSV says the same.
    let (status, report) = moderator.get(&t, "/backoffice/transparency").await;
    assert_eq!(status, 200);
    assert!(report.contains(r#"<tr data-reason="HATRED">"#));
    let csv = t
        .get_with_cookie("/backoffice/transparency.csv", &moderator.cookie)
        .await;
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = csv.text().await.unwrap();
    assert!(
        csv.contains(",COPYRIGHT_TRADEMARK,1,0,0,0,0,1,\r\n"),
        "{csv}"
    );
    assert!(csv.contains(",HATRED,1,0,0,0,0,1,\r\n"), "{csv}");
    let (status, _) = moderator
        .get(&t, "/backoffice/transparency?period=2026-13")
        .await;
    assert_eq!(status, 422);

    // A notice naming no product can only be closed with no action.
    let general = notice_sent(&t, None).await;
    let (status, _, html) = moderator
        .post(&t, &format!("/backoffice/moderation/{general}"), &fields)
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("This notice names no product"));

    // Roles: customer care and merchandisers neither read nor decide notices.
    for who in [CARE, MERCH] {
        let desk = sign_in(&t, who).await;
        assert_eq!(desk.get(&t, "/backoffice/moderation").await.0, 403, "{who}");
        assert_eq!(
            desk.get(&t, &format!("/backoffice/moderation/{id}"))
                .await
                .0,
            403,
            "{who}"
        );
        let (status, _, _) = desk
            .post(&t, &format!("/backoffice/moderation/{general}"), &fields)
            .await;
        assert_eq!(status, 403, "{who}");
        let file = t
            .get_with_cookie(
                &format!("/backoffice/moderation/{id}/files/{file_id}"),
                &desk.cookie,
            )
            .await;
        assert_eq!(file.status(), 403, "{who}");
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM dsa_decisions WHERE report_id = {general}"
        ))
        .await,
        0
    );
}
both!(
    a_notice_is_decided_and_the_product_leaves_the_shop,
    moderation_on_sqlite,
    moderation_on_postgres,
    |c: &mut server::config::Config| c.page_cache_ms = 60_000
);

/// A disabled product comes back when a complaint is upheld; a restricted one leaves
/// search only.
async fn a_disabled_product_can_be_restored(t: TestApp) {
    let name: String = sqlx::query_scalar("SELECT name FROM products WHERE id = $1")
        .bind(PRODUCT)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let moderator = sign_in(&t, MODERATOR).await;
    let first = notice_sent(&t, Some(PRODUCT)).await;
    let fields = |decision: &'static str| {
        [
            ("decision", decision),
            ("ground", "terms"),
            ("facts", "Facts."),
            ("explanation", "Clause 4."),
        ]
    };
    let (status, _, _) = moderator
        .post(
            &t,
            &format!("/backoffice/moderation/{first}"),
            &fields("restrict"),
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        listed(&t, &name).await,
        (true, false),
        "restricted: in its sale, out of search"
    );
    let shopper = crate::helpers::cart::shopper(&t, 2).await;
    let page = "/product/1001/100101";
    assert_eq!(t.get_with_cookie(page, &shopper.cookie).await.status(), 200);

    let second = notice_sent(&t, Some(PRODUCT)).await;
    let (status, _, _) = moderator
        .post(
            &t,
            &format!("/backoffice/moderation/{second}"),
            &fields("disable"),
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(listed(&t, &name).await, (false, false));
    assert_eq!(
        t.get_with_cookie(page, &shopper.cookie).await.status(),
        404,
        "disabled: it may come back"
    );

    let (status, location, _) = moderator
        .post(
            &t,
            &format!("/backoffice/moderation/{second}/restore"),
            &[] as &[(&str, &str)],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/moderation/{second}?done=restored").as_str()
        )
    );
    assert_eq!(listed(&t, &name).await, (true, true));
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'product' AND object_id = '{PRODUCT}' AND action = 'restore'")).await,
        1
    );
}
both!(
    a_disabled_product_can_be_restored,
    restore_on_sqlite,
    restore_on_postgres
);

/// A product a moderator took out no longer makes its sale's "from" price and best
/// discount (home tiles, travel home) nor shows in a member's last-viewed trips.
async fn taken_out_products_leave_prices_and_last_viewed(t: TestApp) {
    let db = &t.app.state.db;
    let now = app::platform::state::now();
    let pool = &t.app.state.db.pool;
    let run = |sql: String| async move {
        sqlx::query(&sql).execute(pool).await.unwrap();
    };
    // The product is the sale's cheapest and deepest cut.
    run(format!(
        "UPDATE products SET price_cents = 1, retail_price_cents = 100000 WHERE id = {PRODUCT}"
    ))
    .await;
    run(format!(
        "UPDATE product_options SET price_cents = NULL WHERE product_id = {PRODUCT}"
    ))
    .await;
    let tile = || async {
        let sales = app::home::store::live_sales(db, 1, now).await.unwrap();
        let s = sales.into_iter().find(|s| s.id == 1001).unwrap();
        (s.min_price_cents, s.max_discount_percent)
    };
    assert_eq!(tile().await, (Some(1), Some(99)));

    // A trip of the site's travel sale, the cheapest of it, viewed by a member.
    let (trip, travel_sale): (i64, i64) = sqlx::query_as(
        "SELECT p.id, p.sale_id FROM products p JOIN sales s ON s.id = p.sale_id
           JOIN travel_offers o ON o.product_id = p.id
          WHERE s.site_id = 1 AND s.campaign_kind = 'TRAVEL' AND s.starts_at <= $1 AND s.ends_at > $1
          ORDER BY p.id LIMIT 1",
    )
    .bind(now)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    // Its "from" price, which the travel lists read (app/src/travel/store/from_price.rs).
    run(format!(
        "UPDATE travel_offers SET from_price_cents = 1 WHERE product_id = {trip}"
    ))
    .await;
    let member = crate::helpers::cart::shopper(&t, 2).await.member_id;
    run(format!("INSERT INTO travel_last_viewed (member_id, product_id, viewed_at) VALUES ({member}, {trip}, {now})")).await;
    let travel = || async {
        let sales = app::travel::store::destinations::travel_sales(db, 1, now)
            .await
            .unwrap();
        let cheapest = sales
            .into_iter()
            .find(|s| s.id == travel_sale)
            .unwrap()
            .min_price_cents;
        let viewed = app::travel::store::last_viewed::list(db, 1, member, now, 10)
            .await
            .unwrap();
        (cheapest, viewed.iter().any(|o| o.id == trip))
    };
    assert_eq!(travel().await, (Some(1), true));

    for decision in ["disabled", "removed"] {
        run(format!(
            "UPDATE products SET moderation = '{decision}' WHERE id IN ({PRODUCT}, {trip})"
        ))
        .await;
        let (min, discount) = tile().await;
        assert!(
            min > Some(1) && discount < Some(99),
            "{decision}: {min:?} {discount:?}"
        );
        let (cheapest, viewed) = travel().await;
        assert!(cheapest > Some(1) && !viewed, "{decision}");
    }
    // Restricted stays in its sale, so it still makes the price.
    run(format!(
        "UPDATE products SET moderation = 'restricted' WHERE id IN ({PRODUCT}, {trip})"
    ))
    .await;
    assert_eq!(tile().await, (Some(1), Some(99)));
    assert_eq!(travel().await, (Some(1), true));
}
both!(
    taken_out_products_leave_prices_and_last_viewed,
    taken_out_products_leave_prices_on_sqlite,
    taken_out_products_leave_prices_on_postgres
);

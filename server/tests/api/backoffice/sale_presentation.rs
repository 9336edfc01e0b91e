//! A sale's catalog layout and marketing messages (spec 000 §3 `catalog_type`, `marketing`)
//! set by an operator: the sale form offers them, refuses what does not fit with what was
//! typed kept, and the catalog page shows what was saved; a feed sets them with
//! `catalogType` and `marketing`, and a feed that does not say leaves them as they are.
use serde_json::json;

use super::feed::import_from;
use super::*;
use crate::helpers::{both, TestApp};

fn with_presentation<'a>(
    name: &'a str,
    starts: &'a str,
    ends: &'a str,
    presentation: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("name", name),
        ("offer_type", "FlashSale"),
        ("starts_at", starts),
        ("ends_at", ends),
        ("description", "Une vente"),
    ];
    fields.extend_from_slice(presentation);
    fields
}

async fn operators_set_a_sales_layout_and_marketing(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let sale = 1003_i64;
    let (status, html) = merch.get(&t, &format!("/backoffice/sales/{sale}")).await;
    assert_eq!(status, 200);
    // The form shows what the sale has: the demo's banner and insert, the classic layout.
    assert!(
        html.contains("Livraison offerte dès 2 articles"),
        "the banner's title"
    );
    assert!(
        html.contains(r#"<option value="1" selected"#),
        "the classic layout"
    );
    let (starts, ends) = {
        let row = server::backoffice::sales::store::by_id(&t.app.state.db, sale)
            .await
            .unwrap()
            .unwrap();
        (
            server::backoffice::ui::datetime_value(row.starts_at),
            server::backoffice::ui::datetime_value(row.ends_at),
        )
    };
    let save = format!("/backoffice/sales/{sale}/save");
    let stored = |t: &TestApp| {
        let pool = t.app.state.db.pool.clone();
        async move {
            sqlx::query_as::<_, (i64, String, String, String, String)>(
                "SELECT catalog_type, marketing_banner_title, marketing_banner_text, marketing_insert_title, marketing_insert_text FROM sales WHERE id = $1",
            )
            .bind(sale)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    let before = stored(&t).await;

    // Refused, each with its message, what was typed kept, nothing saved: a layout that is
    // not one of the four, a line without its title, a title too long.
    let long_title = "É".repeat(81);
    let (status, _, html) = merch
        .post(
            &t,
            &save,
            &with_presentation(
                "Vente 3",
                &starts,
                &ends,
                &[
                    ("catalog_type", "9"),
                    ("banner_title", ""),
                    ("banner_text", "Un texte sans titre"),
                    ("insert_title", &long_title),
                    ("insert_text", ""),
                ],
            ),
        )
        .await;
    assert_eq!(status, 422);
    for message in [
        "Choose one of the four layouts.",
        "A line of text needs its title.",
        "80 characters at most.",
    ] {
        assert!(html.contains(message), "{message}");
    }
    assert!(
        html.contains("Un texte sans titre"),
        "what was typed is kept"
    );
    assert_eq!(stored(&t).await, before);

    // Saved: a one-page layout, a new banner, no insert. Text is escaped on the page.
    let (status, _, _) = merch
        .post(
            &t,
            &save,
            &with_presentation(
                "Vente 3",
                &starts,
                &ends,
                &[
                    ("catalog_type", "2"),
                    ("banner_title", "  Soldes <b>d'hiver</b>\n "),
                    ("banner_text", "Jusqu'à -70 %"),
                    ("insert_title", ""),
                    ("insert_text", ""),
                ],
            ),
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        stored(&t).await,
        (
            2,
            "Soldes <b>d'hiver</b>".to_string(),
            "Jusqu'à -70 %".to_string(),
            String::new(),
            String::new()
        )
    );
    let member = t.member_session(1).await;
    let page = t
        .get_with_cookie(&format!("/catalog/{sale}/0"), &member)
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("data-catalog-type=\"2\""), "one page");
    assert!(
        page.contains("Soldes &lt;b&gt;d&#x27;hiver&lt;/b&gt;")
            || page.contains("Soldes &lt;b&gt;d'hiver&lt;/b&gt;")
    );
    assert!(!page.contains("data-testid=\"marketing-insert\""));
    let (_, call) =
        crate::helpers::json(&t, &format!("/api/catalog/v2/sale/{sale}"), &member).await;
    assert_eq!(call["catalogType"], 2);
    assert_eq!(call["marketing"]["banner"]["text"], "Jusqu'à -70 %");
    assert!(call["marketing"]["insert"].is_null());
    // The audit log says what changed.
    let summary: String = sqlx::query_scalar(
        "SELECT summary FROM audit_log WHERE action = 'update' AND object_kind = 'sale' ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        summary.contains("catalog_type: \"1\" → \"2\"") && summary.contains("marketing changed"),
        "{summary}"
    );
}
both!(
    operators_set_a_sales_layout_and_marketing,
    operators_set_a_sales_layout_and_marketing_on_sqlite,
    operators_set_a_sales_layout_and_marketing_on_postgres
);

async fn a_feed_sets_them_and_a_feed_that_does_not_say_keeps_them(t: TestApp) {
    let example: serde_json::Value =
        serde_json::from_str(include_str!("../../../../docs/feed-example.json")).unwrap();
    let import = |feed: &serde_json::Value| {
        let feed = feed.clone();
        let t = &t;
        async move {
            let no_pictures = server::backoffice::feed::PictureFiles::Sent(Default::default());
            import_from(t, &feed, no_pictures, false).await
        }
    };
    let mut feed = example.clone();
    feed["sales"][0]["catalogType"] = json!(3);
    feed["sales"][0]["marketing"] = json!({
        "banner": { "title": "Livraison offerte", "text": "Dès 2 articles" },
        "insert": { "title": "Nouveautés" }
    });
    let out = import(&feed).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let read = || async {
        sqlx::query_as::<_, (i64, String, String, String)>(
            "SELECT catalog_type, marketing_banner_title, marketing_banner_text, marketing_insert_title FROM sales WHERE name = $1",
        )
        .bind(example["sales"][0]["name"].as_str().unwrap())
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
    };
    let set = (
        3,
        "Livraison offerte".to_string(),
        "Dès 2 articles".to_string(),
        "Nouveautés".to_string(),
    );
    assert_eq!(read().await, set);
    // The same feed again changes nothing; the example (which does not say) keeps them.
    let again = import(&feed).await;
    assert_eq!(again.updated.sales, 0, "{}", again.summary());
    let silent = import(&example).await;
    assert!(silent.errors.is_empty(), "{:?}", silent.errors);
    assert_eq!(read().await, set);

    // Refused with its path: a fifth layout, a line without a title.
    let mut bad = feed.clone();
    bad["sales"][0]["catalogType"] = json!(5);
    bad["sales"][0]["marketing"]["insert"] = json!({ "title": "", "text": "Seul" });
    let refused = import(&bad).await;
    assert!(!refused.applied);
    let errors = refused.errors.join("\n");
    assert!(errors.contains("sales[0].catalogType"), "{errors}");
    assert!(
        errors.contains("sales[0].marketing.insert.title"),
        "{errors}"
    );
    assert_eq!(read().await, set);
}
both!(
    a_feed_sets_them_and_a_feed_that_does_not_say_keeps_them,
    a_feed_sets_them_and_a_feed_that_does_not_say_keeps_them_on_sqlite,
    a_feed_sets_them_and_a_feed_that_does_not_say_keeps_them_on_postgres
);

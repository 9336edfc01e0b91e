//! A sale catalog's SEO settings (spec 000 §3 `seoConfig {title, description,
//! footerParagraphs}`; coverage F15) set by an operator: the sale form offers them and
//! refuses a title or description too long with what was typed kept; the catalog page's
//! title, description and paragraphs, and the sale call's `seoConfig`, are what was saved;
//! emptied, the generated title and description come back.
use super::*;
use crate::helpers::{both, TestApp};

async fn operators_set_a_sales_seo(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let sale = 1003_i64;
    let (status, html) = merch.get(&t, &format!("/backoffice/sales/{sale}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("name=\"seo_title\"") && html.contains("name=\"seo_footer\""));
    let row = server::backoffice::sales::store::by_id(&t.app.state.db, sale)
        .await
        .unwrap()
        .unwrap();
    let (starts, ends) = (
        server::backoffice::ui::datetime_value(row.starts_at),
        server::backoffice::ui::datetime_value(row.ends_at),
    );
    let save = format!("/backoffice/sales/{sale}/save");
    let fields = |title: &'static str, description: String, footer: &'static str| {
        vec![
            ("name".to_string(), row.name.clone()),
            ("offer_type".to_string(), row.offer_type.clone()),
            ("starts_at".to_string(), starts.clone()),
            ("ends_at".to_string(), ends.clone()),
            ("seo_title".to_string(), title.to_string()),
            ("seo_description".to_string(), description),
            ("seo_footer".to_string(), footer.to_string()),
        ]
    };
    let post = |f: Vec<(String, String)>| {
        let (merch, t, save) = (&merch, &t, &save);
        async move {
            let f: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            merch.post(t, save, &f).await
        }
    };
    let stored = || async {
        sqlx::query_as::<_, (String, String, String)>(
            "SELECT seo_title, seo_description, seo_footer FROM sales WHERE id = $1",
        )
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
    };

    // Refused: a description past its length; what was typed is kept, nothing saved.
    let (status, _, html) = post(fields("Robes d'été", "d".repeat(321), "Un.")).await;
    assert_eq!(status, 422);
    assert!(html.contains("320 characters at most."));
    assert!(html.contains("Robes d&#x27;été") || html.contains("Robes d'été"));
    assert_eq!(
        stored().await,
        (String::new(), String::new(), String::new())
    );

    // Saved; the member's catalog page and the sale call say it.
    let (status, _, _) = post(fields(
        "Robes d'été à petits prix",
        "Toutes les robes de la vente, jusqu'à -70 %.".into(),
        "Des robes pour chaque jour.\r\n\r\nLivrées en 5 jours.",
    ))
    .await;
    assert_eq!(status, 303);
    let member = t.member_session(1).await;
    let page = t
        .get_with_cookie(&format!("/catalog/{sale}/0"), &member)
        .await
        .text()
        .await
        .unwrap();
    let title = page[page.find("<title>").unwrap()..page.find("</title>").unwrap()].to_string();
    assert!(
        title.contains("Robes d") && title.contains("à petits prix"),
        "{title}"
    );
    assert!(page.contains("jusqu&#x27;à -70 %.") || page.contains("jusqu'à -70 %."));
    assert!(page.contains("<p>Des robes pour chaque jour.</p><p>Livrées en 5 jours.</p>"));
    let (_, call) =
        crate::helpers::json(&t, &format!("/api/catalog/v2/sale/{sale}"), &member).await;
    assert_eq!(call["seoConfig"]["title"], "Robes d'été à petits prix");
    assert_eq!(
        call["seoConfig"]["footerParagraphs"],
        serde_json::json!(["Des robes pour chaque jour.", "Livrées en 5 jours."])
    );
    let summary: String = sqlx::query_scalar(
        "SELECT summary FROM audit_log WHERE action = 'update' AND object_kind = 'sale' ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(summary.contains("SEO settings changed"), "{summary}");

    // Emptied: the sale's name is the title again, and no paragraph.
    let (status, _, _) = post(fields("", String::new(), "")).await;
    assert_eq!(status, 303);
    let page = t
        .get_with_cookie(&format!("/catalog/{sale}/0"), &member)
        .await
        .text()
        .await
        .unwrap();
    assert!(!page.contains("data-testid=\"catalog-seo\""));
    assert!(!page.contains("petits prix"));
}
both!(
    operators_set_a_sales_seo,
    operators_set_a_sales_seo_on_sqlite,
    operators_set_a_sales_seo_on_postgres
);

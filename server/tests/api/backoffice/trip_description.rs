//! A trip's description edited in the back office (themes, instalments, renowned brand,
//! perk, tabs, lowest price of 30 days), checked by the rule the feed uses: refusals say
//! why and change nothing.
use super::*;
use crate::helpers::{both, TestApp};

const TRIP: i64 = 102_501;

async fn stored(t: &TestApp) -> String {
    sqlx::query_scalar(&format!(
        "SELECT thematics || '|' || payment_facilities || '|' || CAST(notorious_brand AS TEXT)
                || '|' || COALESCE(benefit, '-') || '|' || tabs_json || '|' || CAST(lowest_30d_cents AS TEXT)
           FROM travel_offers WHERE product_id = {TRIP}"
    ))
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn an_operator_describes_a_trip(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let page = format!("/backoffice/products/{TRIP}/travel/description");
    let (status, html) = merch.get(&t, &page).await;
    assert_eq!(status, 200);
    let before = stored(&t).await;
    let first_theme = before.split(['|', ',']).next().unwrap().to_string();
    assert!(
        html.contains(&format!(
            r#"id="theme-{first_theme}" name="theme" value="{first_theme}" checked"#
        )),
        "the stored themes are ticked: {before}"
    );
    let (_, inventory) = merch
        .get(&t, &format!("/backoffice/products/{TRIP}/travel"))
        .await;
    assert!(inventory.contains(&format!(r#"href="{page}""#)));

    // Refused, each field said, nothing changed.
    let (status, _, html) = merch
        .post(
            &t,
            &page,
            &[
                ("theme", "mountain"),
                ("tab_title", "L'hôtel"),
                ("tab_text", ""),
                ("lowest_price", "cheap"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        html.contains("Themes (the catalog's filter) is not one of the values offered"),
        "{html}"
    );
    assert!(html.contains("Tabs: needs a text within its length"));
    assert!(html.contains("(empty: the product's price) is not an amount, such as 1290.00"));
    assert!(html.contains(r#"value="L'hôtel""#), "what was typed stays");
    assert_eq!(stored(&t).await, before);

    // Saved: the catalog's filter, the card's perk, the page's tabs and the price.
    let (status, location, _) = merch
        .post(
            &t,
            &page,
            &[
                ("theme", "spa"),
                ("theme", "beach"),
                ("payment", "4x"),
                ("renowned", "on"),
                ("perk", "  Spa offert "),
                ("tab_title", "L'hôtel"),
                ("tab_text", "Vue mer & patio"),
                ("tab_title", ""),
                ("tab_text", ""),
                ("lowest_price", "1234,50"),
            ],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/products/{TRIP}/travel?done=1").as_str()
        )
    );
    assert_eq!(
        stored(&t).await,
        r#"spa,beach|4x|1|Spa offert|[{"content":"Vue mer & patio","title":"L'hôtel"}]|123450"#
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE object_kind = 'trip' AND object_id = '{TRIP}' AND action = 'update'"
        ))
        .await,
        1
    );
    // Empty: no perk, no tab, the product's price as the lowest.
    let (status, _, _) = merch.post(&t, &page, &[("lowest_price", "")]).await;
    assert_eq!(status, 303);
    let price = t
        .count(&format!(
            "SELECT price_cents FROM products WHERE id = {TRIP}"
        ))
        .await;
    assert_eq!(stored(&t).await, format!("||0|-|[]|{price}"));

    // Not a trip: not found; a care operator: not allowed.
    let (status, _) = merch
        .get(&t, "/backoffice/products/100101/travel/description")
        .await;
    assert_eq!(status, 404);
    let care = sign_in(&t, CARE).await;
    let (status, _, _) = care.post(&t, &page, &[("perk", "x")]).await;
    assert_eq!(status, 403);
}
both!(
    an_operator_describes_a_trip,
    trip_description_on_sqlite,
    trip_description_on_postgres
);

//! A sale's offer type (spec 000 §1, M2M included): second-hand, member-to-member and a
//! partner seller's sales are named on the home's tiles and the catalog's header, in the
//! site's language; a flash sale says nothing; the sale call gives the type; the back
//! office takes M2M and refuses a type that is none. SQLite and PostgreSQL.
use crate::helpers::{both, json, TestApp};

async fn page(t: &TestApp, session: &str, path: &str) -> String {
    let res = t.get_with_cookie(path, session).await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

async fn sale_of(t: &TestApp, site: i64, offer_type: &str) -> i64 {
    let id: i64 =
        sqlx::query_scalar("SELECT MIN(id) FROM sales WHERE site_id = $1 AND offer_type = $2")
            .bind(site)
            .bind(offer_type)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    id
}

async fn offers_are_named(t: TestApp) {
    for (site, m2m, second_hand) in [
        (1_u16, "Entre membres", "Seconde main"),
        (2, "Von Mitglied zu Mitglied", "Second Hand"),
    ] {
        let session = format!("{}; site={site}", t.member_session(site).await);
        let home = page(&t, &session, "/").await;
        assert!(
            home.contains(&format!(
                "data-offer=\"M2M\" class=\"offer-badge\">{m2m}</span>"
            )),
            "site {site}: the M2M sale's tile is named"
        );
        assert!(home.contains(&format!(
            "data-offer=\"SecondHand\" class=\"offer-badge\">{second_hand}</span>"
        )));
        assert!(
            !home.contains("data-offer=\"FlashSale\""),
            "a flash sale says nothing"
        );
        let sale = sale_of(&t, i64::from(site), "M2M").await;
        let (status, body) = json(&t, &format!("/api/catalog/v2/sale/{sale}"), &session).await;
        assert_eq!(status, 200);
        assert_eq!(body["offerType"], "M2M");
        let catalog = page(&t, &session, &format!("/catalog/{sale}/0")).await;
        assert!(
            catalog.contains(&format!(
                "data-offer=\"M2M\" class=\"offer-badge\">{m2m}</p>"
            )),
            "site {site}: the catalog's header"
        );
        let flash = sale_of(&t, i64::from(site), "FlashSale").await;
        let catalog = page(&t, &session, &format!("/catalog/{flash}/0")).await;
        assert!(!catalog.contains("class=\"offer-badge\""));
    }
    // The back office takes M2M; a type that is none is refused by its field.
    let merch = crate::backoffice::sign_in(&t, crate::backoffice::MERCH).await;
    let now = app::platform::state::now();
    let starts = server::backoffice::ui::datetime_value(now - 3600);
    let ends = server::backoffice::ui::datetime_value(now + 86_400);
    for (offer_type, status) in [("M2M", 303), ("m2m", 422), ("Dropship", 422)] {
        let fields = [
            ("site", "1"),
            ("name", "Vestiaire des membres"),
            ("offer_type", offer_type),
            ("starts_at", starts.as_str()),
            ("ends_at", ends.as_str()),
            ("description", "Pièces vendues par des membres"),
            ("legal_merchant", "Rosace SAS"),
            ("legal_terms", ""),
        ];
        let (got, _, html) = merch.post(&t, "/backoffice/sales/new", &fields).await;
        assert_eq!(got, status, "{offer_type}: {html}");
    }
}

both!(
    offers_are_named,
    offers_are_named_sqlite,
    offers_are_named_postgres
);

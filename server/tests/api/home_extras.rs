//! A home's extras (spec 000 §3 "Home"; issue #33 D15): the information toast, the new
//! member's overlay, the background, the members' line and the scroll-depth setting, in
//! the homes call and on the page, on SQLite and PostgreSQL. The overlay is a new member's
//! only, once, never beside a popin, and never leaks into another member's page (member
//! pages come from shared templates).
use crate::helpers::cart::shopper;
use crate::helpers::{both, json, TestApp};

const SUMMER: &str = "/gr/home/summer?site=1";

/// Cookies answered: while they are not, the consent banner is the only interruption.
const CONSENT: &str = "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0";

async fn page(t: &TestApp, cookie: &str) -> String {
    let res = t
        .get_with_cookie(SUMMER, &format!("{cookie}; {CONSENT}"))
        .await;
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

/// Marks every modal popin as answered, so that none takes the page view.
async fn answer_popins(t: &TestApp, member_id: i64) {
    for (kind, version) in app::onboarding::rules::MODAL_POPINS {
        sqlx::query(
            "INSERT INTO member_popins (member_id, popin_type, version, action, answered_at)
             VALUES ($1, $2, $3, 'close', 0)",
        )
        .bind(member_id)
        .bind(kind as i64)
        .bind(version)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    }
}

async fn home_extras(t: TestApp) {
    // The call: the summer home has them all, the travel home reports no scroll depth.
    let (status, home) = json(&t, "/api/content/v1/homes/summer?siteId=1", "").await;
    assert_eq!(status, 200);
    assert_eq!(
        home["informationSectionToast"],
        "Les commandes du week-end partent lundi."
    );
    assert_eq!(
        home["newMemberOverlay"]["title"],
        "Bienvenue parmi nos membres"
    );
    assert_eq!(home["backgroundTheme"], "sand");
    assert_eq!(
        home["memberInformation"],
        "vos ventes d'été vous attendent."
    );
    assert_eq!(home["scrollDepth"], true);
    let (_, travel) = json(&t, "/api/content/v1/homes/travel?siteId=1", "").await;
    assert_eq!(travel["scrollDepth"], false);
    let (_, default) = json(&t, "/api/content/v1/homes/default?siteId=1", "").await;
    assert!(default["informationSectionToast"].is_null());
    assert!(default["newMemberOverlay"].is_null());
    assert_eq!(default["backgroundTheme"], "");
    // Every site's summer home has them, in its own language.
    let (_, german) = json(&t, "/api/content/v1/homes/summer?siteId=2", "").await;
    assert_eq!(german["newMemberOverlay"]["title"], "Willkommen bei uns");

    // A visitor: the toast and the background, no members' line, no overlay.
    let html = page(&t, "").await;
    assert!(html.contains("data-testid=\"home-toast\""));
    assert!(html.contains("Les commandes du week-end partent lundi."));
    assert!(html.contains("home--bg-sand"));
    assert!(!html.contains("home-member-information"));
    assert!(!html.contains("new-member-overlay"));

    // A member of long standing: their line with their name, no overlay.
    let old = shopper(&t, 2).await;
    answer_popins(&t, old.member_id).await;
    let html = page(&t, &old.cookie).await;
    assert!(html.contains("data-testid=\"home-member-information\""));
    assert!(
        html.contains("<strong>Test</strong>") && html.contains("vos ventes d'été vous attendent.")
    );
    assert!(!html.contains("new-member-overlay"));

    // A member of two days with a popin still to answer: the popin, not the overlay.
    let new = shopper(&t, 2).await;
    sqlx::query("UPDATE members SET created_at = $1, first_name = 'Zoé' WHERE id = $2")
        .bind(app::platform::state::now() - 2 * 86_400)
        .bind(new.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let html = page(&t, &new.cookie).await;
    assert!(html.contains("data-testid=\"popin\""));
    assert!(!html.contains("new-member-overlay"));
    // Popins answered, the advertising banner not yet: the banner, not the overlay (its
    // backdrop would cover the banner).
    answer_popins(&t, new.member_id).await;
    let html = page(&t, &new.cookie).await;
    assert!(html.contains("data-testid=\"adot-banner\""));
    assert!(!html.contains("new-member-overlay"));
    // The banner answered: the overlay, on the summer home only (the default has none).
    sqlx::query("UPDATE members SET adot_optin = 0 WHERE id = $1")
        .bind(new.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let html = page(&t, &new.cookie).await;
    assert!(html.contains("data-testid=\"new-member-overlay\""));
    assert!(html.contains("Bienvenue parmi nos membres"));
    assert!(html.contains("<strong>Zoé</strong>"));
    let default_page = t
        .get_with_cookie("/gr/home?site=1", &format!("{}; {CONSENT}", new.cookie))
        .await;
    assert!(!default_page
        .text()
        .await
        .unwrap()
        .contains("new-member-overlay"));
    // Interleaved with the member of long standing: neither gets the other's page.
    for _ in 0..3 {
        let mine = page(&t, &new.cookie).await;
        let theirs = page(&t, &old.cookie).await;
        assert!(mine.contains("new-member-overlay") && mine.contains("<strong>Zoé</strong>"));
        assert!(!theirs.contains("new-member-overlay") && !theirs.contains("Zoé"));
    }

    // Closed: recorded as its popin type, and not shown again.
    let res = new
        .client
        .post(t.url("/onboarding/form/popin"))
        .header("cookie", &new.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "_xsrf={}&back=%2Fgr%2Fhome%2Fsummer&popinType=7&version=1&action=close",
            new.xsrf
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM member_popins WHERE member_id = {} AND popin_type = 7",
            new.member_id
        ))
        .await,
        1
    );
    let html = page(&t, &new.cookie).await;
    assert!(!html.contains("new-member-overlay"));

    // What a home stores is text, and a background the shop does not have is none (on a
    // site whose home was not read yet: homes are kept a short while).
    sqlx::query(
        "UPDATE homes SET information_toast = '<b>Grève</b>', background_theme = 'url(x)'
          WHERE site_id = 3 AND name = 'summer'",
    )
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let (_, home) = json(&t, "/api/content/v1/homes/summer?siteId=3", "").await;
    assert_eq!(home["backgroundTheme"], "");
    let res = t.get("/gr/home/summer?site=3").await;
    let html = res.text().await.unwrap();
    assert!(html.contains("&lt;b&gt;Grève&lt;/b&gt;") && !html.contains("<b>Grève</b>"));
    assert!(!html.contains("home--bg-"));
}

both!(home_extras, home_extras_on_sqlite, home_extras_on_postgres);

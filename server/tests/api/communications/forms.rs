//! The communications page's forms without scripts.
use super::{member_flag, on_site};
use crate::helpers::{both, TestApp};

/// Without scripts: NONE comes back with the survey open; the survey posts the reason.
async fn forms_without_scripts(t: TestApp) {
    let a = on_site(&t, 2).await;
    // Each action has its own route; `action` names it and is not sent.
    let post = |f: Vec<(&'static str, String)>| {
        let action = f.iter().find(|(k, _)| *k == "action").unwrap().1.clone();
        let fields: Vec<_> = f.into_iter().filter(|(k, _)| *k != "action").collect();
        a.client
            .post(t.url(&format!("/communications/form/{action}?site=2")))
            .header("cookie", &a.cookie)
            .form(&fields)
            .send()
    };
    let base = |action: &str| vec![("_xsrf", a.xsrf.clone()), ("action", action.to_string())];
    let mut f = base("preferences");
    f.extend([
        ("communicationChannel", "ALL".to_string()),
        ("communicationModel", "ALL".to_string()),
    ]);
    let res = post(f).await.unwrap();
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("notice=communications.notice.saved"));
    let mut f = base("preferences");
    f.extend([
        ("communicationChannel", "ALL".to_string()),
        ("communicationModel", "NONE".to_string()),
    ]);
    let res = post(f).await.unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with("/communications?survey=1"),
        "{location}"
    );
    let page = t
        .get_with_cookie(&location, &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("data-testid=\"cancel-survey\"") && page.contains(" open"),
        "the survey shows open"
    );
    assert!(page.contains("Warum möchten Sie unsere Newsletter nicht mehr erhalten?"));
    let sub: i64 = sqlx::query_scalar("SELECT id FROM member_subscriptions WHERE member_id = $1")
        .bind(a.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let mut f = base("cancel");
    f.extend([
        ("cancelReasonId", "3".to_string()),
        ("subscriptionId", sub.to_string()),
    ]);
    let res = post(f).await.unwrap();
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("notice=communications.notice.cancelled"));
    // A partner form with every box unticked withdraws them all.
    let mut f = base("partners");
    f.extend([
        ("partnerIds", "1".to_string()),
        ("partnerIds", "2".to_string()),
        ("partnerOn", "2".to_string()),
    ]);
    post(f).await.unwrap();
    let on: i64 = t
        .count(&format!(
            "SELECT COUNT(*) FROM member_commercial_partners WHERE member_id = {} AND status = 1",
            a.member_id
        ))
        .await;
    assert_eq!(on, 1);
    // The optins form unticked withdraws both.
    sqlx::query("UPDATE members SET perso_gdpr = 1, optin_partner = 1 WHERE id = $1")
        .bind(a.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    post(base("optins")).await.unwrap();
    assert_eq!(member_flag(&t, a.member_id, "perso_gdpr").await, Some(0));
    assert_eq!(member_flag(&t, a.member_id, "optin_partner").await, Some(0));
    // An unknown action has no route: nothing changes.
    let res = post(base("drop_tables")).await.unwrap();
    assert!(
        [404, 405].contains(&res.status().as_u16()),
        "{}",
        res.status()
    );
    assert_eq!(member_flag(&t, a.member_id, "optin_partner").await, Some(0));
}

both!(
    forms_without_scripts,
    forms_without_scripts_on_sqlite,
    forms_without_scripts_on_postgres
);

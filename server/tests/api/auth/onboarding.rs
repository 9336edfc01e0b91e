//! Onboarding for visitors and members: consent, popins, banners.
use serde_json::json;

use super::post_json;
use crate::helpers::{cookie_value, start, Backend};

/// Onboarding: consent stored for a returning visitor and scripts gated by category;
/// popins in order, once per member and version; the data-partner banner; the app banner.
#[tokio::test]
async fn consent_popins_and_banners() {
    let t = start(Backend::Sqlite).await;
    let page = t.get("/").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"consent-banner\""));
    assert!(
        !html.contains("/widgets/diagnostics.js"),
        "no performance script before consent"
    );
    assert!(
        !html.contains("data-testid=\"popin\""),
        "popins are for members only"
    );

    // Each kind of form has its own route; the body's `kind` names it.
    let post_form = |cookies: String, body: String| {
        let t = &t;
        let kind = body
            .split('&')
            .find_map(|p| p.strip_prefix("kind="))
            .unwrap_or("none")
            .to_string();
        async move {
            t.client
                .post(t.url(&format!("/onboarding/form/{kind}")))
                .header("cookie", cookies)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    // Custom choice: performance only.
    let res = post_form(
        crate::helpers::xsrf_cookie(&xsrf),
        format!("_xsrf={xsrf}&kind=consent&back=%2F&choice=custom&categories=C0002"),
    )
    .await;
    assert_eq!(res.status(), 303);
    let consent = cookie_value(&res, "OptanonConsent").unwrap();
    assert_eq!(consent, "groups=C0001:1,C0002:1,C0003:0,C0004:0,C0005:0");
    let html = t
        .get_with_cookie("/", &format!("OptanonConsent={consent}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !html.contains("consent-banner"),
        "a returning visitor is not asked again"
    );
    assert!(
        html.contains("/widgets/diagnostics.js"),
        "accepted category's script runs"
    );
    // Without the token: refused.
    let res = post_form(String::new(), "kind=consent&choice=all".into()).await;
    assert_eq!(res.status(), 403);

    // A member: welcome first, then personalisation, birthdate, terms, optin; then the banner.
    let signed_in = t.member_session(1).await;
    // While the cookies are unanswered the consent banner is the page view's one
    // interruption: no popin beside it (on a phone it covered the popin's buttons).
    let html = t
        .get_with_cookie("/", &signed_in)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-testid=\"consent-banner\""));
    assert!(!html.contains("data-testid=\"popin\""));
    assert!(!html.contains("adot-banner"));
    let session = format!("{signed_in}; OptanonConsent={consent}");
    let member_page = t.get_with_cookie("/", &session).await;
    let member_xsrf = cookie_value(&member_page, "XSRF-TOKEN").unwrap();
    let html = member_page.text().await.unwrap();
    assert!(html.contains("data-popin-type=\"welcome\""));
    // The welcome popin says what it gives (spec 000 §3 voucherData) with its picture.
    assert!(
        html.contains("data-testid=\"popin-reward\""),
        "the welcome voucher is announced"
    );
    assert!(html.contains("10,00"), "its amount");
    assert!(html.contains("src=\"/img/popin/welcome.svg\""));
    assert_eq!(t.get("/img/popin/welcome.svg").await.status(), 200);
    assert_eq!(t.get("/img/popin/other.svg").await.status(), 404);
    let cookies = format!("{session}; {}", crate::helpers::xsrf_cookie(&member_xsrf));
    for (code, version, name, extra) in [
        (0, 1, "personalisation", ""),
        (1, 1, "birthdate", ""),
        (2, 1, "birthdate", "&birthDate=31%2F02%2F1990"),
        (2, 1, "terms", "&birthDate=14%2F07%2F1989"),
        (5, 2, "optin", ""),
    ] {
        let res = post_form(cookies.clone(), format!("_xsrf={member_xsrf}&kind=popin&back=%2F&popinType={code}&version={version}&action=accept{extra}")).await;
        assert_eq!(res.status(), 303);
        if extra.contains("31%2F02") {
            // A date that does not exist: the popin comes back with it as typed and why.
            let to = res.headers()["location"].to_str().unwrap().to_string();
            assert!(to.starts_with("/?retry=1"), "{to}");
            let draft = cookie_value(&res, "rosace_popin_form").expect("the refused date's draft");
            let html = t
                .get_with_cookie(&to, &format!("{session}; rosace_popin_form={draft}"))
                .await
                .text()
                .await
                .unwrap();
            assert!(html.contains("data-popin-type=\"birthdate\""));
            assert!(
                html.contains("value=\"31/02/1990\""),
                "the date typed is kept"
            );
            assert!(
                html.contains("Saisissez une date qui existe, au format JJ/MM/AAAA."),
                "the reason, in the site's language"
            );
            assert!(html.contains("aria-describedby=\"popin-birthdate-error\""));
        }
        let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
        assert!(
            html.contains(&format!("data-popin-type=\"{name}\"")),
            "after {code}: expected {name}"
        );
        assert!(!html.contains("adot-banner"), "no banner under a popin");
    }
    let res = post_form(
        cookies.clone(),
        format!("_xsrf={member_xsrf}&kind=popin&back=%2F&popinType=6&version=1&action=close"),
    )
    .await;
    assert_eq!(res.status(), 303);
    let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
    assert!(!html.contains("data-testid=\"popin\""), "each popin once");
    assert!(html.contains("adot-banner"));
    assert_eq!(t.count("SELECT COUNT(*) FROM member_popins").await, 5);
    // The rewards (spec 000 §3 reward kinds): the welcome voucher, the CRM opt-in's for the
    // accepted personalisation; none for the email opt-in put off. Personal vouchers of the
    // member, valid 30 days.
    let given: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT v.code, v.value, v.valid_until - v.valid_from FROM onboarding_rewards r
           JOIN vouchers v ON v.id = r.voucher_id
           JOIN voucher_participations p ON p.voucher_id = v.id AND p.member_id = r.member_id
          WHERE v.personal = 1 ORDER BY r.kind",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(given.len(), 2, "{given:?}");
    assert!(
        given[0].0.starts_with("WELCOME-") && given[0].1 == 1000,
        "{given:?}"
    );
    assert!(
        given[1].0.starts_with("FORYOU-") && given[1].1 == 500,
        "{given:?}"
    );
    assert!(given.iter().all(|g| g.2 == 30 * 86_400));
    // Answering the welcome popin again (an older tab) gives nothing more.
    let res = post_form(
        cookies.clone(),
        format!("_xsrf={member_xsrf}&kind=popin&back=%2F&popinType=0&version=1&action=close"),
    )
    .await;
    assert_eq!(res.status(), 303);
    assert_eq!(t.count("SELECT COUNT(*) FROM onboarding_rewards").await, 2);
    // The member finds them among their vouchers.
    let (_, vouchers) = crate::helpers::json(&t, "/api/postsales/v1/vouchers", &session).await;
    let text = vouchers.to_string();
    assert!(
        text.contains(&given[0].0) && text.contains(&given[1].0),
        "{text}"
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM members WHERE site_id = 1 AND birth_date = '1989-07-14' AND perso_gdpr = 1 AND terms_version = 2").await, 1);

    // Accepting the data-partner opt-in (REST, with IsAdotOptinAccepted) hides the banner.
    let res = post_json(
        &t,
        "/api/partner/v1/adot-optin",
        json!({"IsAdotOptinAccepted": true}),
        &session,
        &member_xsrf,
    )
    .await;
    assert_eq!(res.status(), 204);
    let html = t.get_with_cookie("/", &session).await.text().await.unwrap();
    assert!(!html.contains("adot-banner"));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM members WHERE adot_optin = 1")
            .await,
        1
    );

    // App banner: home page, phones, members; closing hides it for a month.
    let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari/537.36";
    let get_ua = |cookie: String| {
        let t = &t;
        async move {
            t.client
                .get(t.url("/"))
                .header("cookie", cookie)
                .header("user-agent", phone)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    assert!(get_ua(session.clone()).await.contains("app-banner"));
    assert!(
        !t.get_with_cookie("/", &session)
            .await
            .text()
            .await
            .unwrap()
            .contains("app-banner"),
        "not on desktop"
    );
    let res = post_form(cookies, format!("_xsrf={member_xsrf}&kind=app&back=%2F")).await;
    let set: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(set
        .iter()
        .any(|c| c.starts_with("appDownloadBannerClosed=1") && c.contains("Max-Age=2592000")));
    assert!(!get_ua(format!("{session}; appDownloadBannerClosed=1"))
        .await
        .contains("app-banner"));
}

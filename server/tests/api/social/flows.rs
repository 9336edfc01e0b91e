//! The flows that end signed in: each provider (code 13 then 1), association (code 12),
//! unlink with its last-way-in rule, the buttons shown only for configured providers.
use super::*;

const CALLBACK_OK: &str = "/gr/cart";

/// Code 13 on the first visit (registration pre-filled from the ID token, type
/// association 1), then code 1 on the next: for Google, Facebook and Apple.
async fn each_provider_registers_then_signs_in(t: TestApp) {
    // Only configured providers are offered; Klarna (not configured) is not.
    let html = t.get("/gr/authentication").await.text().await.unwrap();
    for p in ["google", "facebook", "apple"] {
        assert!(
            html.contains(&format!("data-testid=\"social-{p}\"")),
            "{p} button"
        );
    }
    assert!(!html.contains("social-klarna"));
    for p in ["google", "facebook", "apple"] {
        let email = format!("new.{p}@example.test");
        let v = visitor(&t).await;
        let authorize = start(&t, &v, p).await;
        assert_eq!(param(&authorize, "client_id"), format!("{p}-test"));
        assert_eq!(param(&authorize, "code_challenge_method"), "S256");
        assert!(!param(&authorize, "nonce").is_empty() && !param(&authorize, "state").is_empty());
        let back = at_provider(&t, &authorize, &email).await;
        let res = get(&t, &v, &back).await;
        assert_eq!(res.status(), 303);
        let next = location(&res);
        assert!(
            next.starts_with("/gr/registration?step=socialregister&ticket="),
            "{next}"
        );
        assert_eq!(param(&next, "info"), "auth.social.code.13");
        assert!(
            member_cookie(&res).is_none(),
            "no session before the registration"
        );
        // The registration is pre-filled from the ID token.
        let page = get(&t, &v, &next).await.text().await.unwrap();
        assert!(page.contains(&email), "{p}: the email is shown");
        assert!(
            page.contains("value=\"Alice\"") && page.contains("value=\"Martin\""),
            "{p}: names pre-filled"
        );
        // Without the general conditions: refused, nothing created.
        let ticket = param(&next, "ticket");
        let res = post_form(
            &t,
            &v,
            "/gr/authentication/social/register",
            &[
                ("ticket", &ticket),
                ("firstName", "Alice"),
                ("lastName", "Martin"),
                ("privacyPolicy", "1"),
            ],
        )
        .await;
        assert_eq!(param(&location(&res), "error"), "auth.cgv.required");
        let res = post_form(
            &t,
            &v,
            "/gr/authentication/social/register",
            &[
                ("ticket", &ticket),
                ("civility", "2"),
                ("firstName", "Alice"),
                ("lastName", "Martin"),
                ("cgv", "1"),
                ("privacyPolicy", "1"),
            ],
        )
        .await;
        assert_eq!(res.status(), 303);
        assert_eq!(location(&res), CALLBACK_OK);
        assert!(
            member_cookie(&res).is_some(),
            "{p}: signed in after the registration"
        );
        let sql = format!("SELECT registration_type FROM members WHERE email = '{email}'");
        assert_eq!(t.count(&sql).await, 1, "registration type association");
        let sql = format!("SELECT status FROM members WHERE email = '{email}'");
        assert_eq!(
            t.count(&sql).await,
            1,
            "active: the provider verified the email"
        );
        // The ticket is used up.
        let res = post_form(
            &t,
            &v,
            "/gr/authentication/social/register",
            &[
                ("ticket", &ticket),
                ("firstName", "Eve"),
                ("lastName", "Martin"),
                ("cgv", "1"),
                ("privacyPolicy", "1"),
            ],
        )
        .await;
        assert_eq!(param(&location(&res), "error"), "auth.social.code.11");
        assert!(member_cookie(&res).is_none());

        // Next time, a fresh browser: the link signs in directly (code 1), token rotated.
        let v2 = visitor(&t).await;
        let authorize = start(&t, &v2, p).await;
        let back = at_provider(&t, &authorize, &email).await;
        let res = get(&t, &v2, &back).await;
        assert_eq!(location(&res), CALLBACK_OK, "{p}: signed in");
        let (cookie, _) = member_cookie(&res).expect("a new session");
        assert!(!cookie.contains(&v2.cookie));
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 3);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM social_login_states").await,
        0,
        "states are single use"
    );
}
both_social!(
    each_provider_registers_then_signs_in,
    each_provider_on_sqlite,
    each_provider_on_postgres
);

/// Code 12: the demo member's email at Google; a wrong password keeps the step, the right
/// one links and signs in; the next Google sign-in is direct. Then unlink (the member has a
/// password, so the last link can go) and the REST answers.
async fn association_after_password_and_unlink(t: TestApp) {
    let email = server::demo::DEMO_EMAIL;
    let v = visitor(&t).await;
    let authorize = start(&t, &v, "google").await;
    let back = at_provider(&t, &authorize, email).await;
    let res = get(&t, &v, &back).await;
    let next = location(&res);
    assert!(
        next.starts_with("/gr/authentication?step=associate&ticket="),
        "{next}"
    );
    assert_eq!(param(&next, "info"), "auth.social.code.12");
    let page = get(&t, &v, &next).await.text().await.unwrap();
    assert!(page.contains("data-testid=\"associate-form\"") && page.contains(email));
    let ticket = param(&next, "ticket");
    let res = post_form(
        &t,
        &v,
        "/gr/authentication/social/associate",
        &[("ticket", &ticket), ("password", "not the password")],
    )
    .await;
    let again = location(&res);
    assert_eq!(param(&again, "error"), "auth.login.error.3");
    assert_eq!(param(&again, "ticket"), ticket, "the step stays");
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 0);
    assert_eq!(t.count("SELECT COUNT(*) FROM sessions").await, 0);
    // Without the CSRF token: refused.
    let res = t
        .client
        .post(t.url("/gr/authentication/social/associate"))
        .header("cookie", &v.cookie)
        .form(&[
            ("ticket", ticket.as_str()),
            ("password", server::demo::DEMO_PASSWORD),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = post_form(
        &t,
        &v,
        "/gr/authentication/social/associate",
        &[
            ("ticket", &ticket),
            ("password", server::demo::DEMO_PASSWORD),
        ],
    )
    .await;
    assert_eq!(location(&res), CALLBACK_OK);
    assert!(member_cookie(&res).is_some());
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 1);

    let v2 = visitor(&t).await;
    let authorize = start(&t, &v2, "google").await;
    let back = at_provider(&t, &authorize, email).await;
    let res = get(&t, &v2, &back).await;
    assert_eq!(location(&res), CALLBACK_OK);
    let (cookie, xsrf) = member_cookie(&res).unwrap();

    // The account page lists the link with its unlink form.
    let page = t
        .get_with_cookie("/myaccount/memberdata", &cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("data-testid=\"unlink-google\""),
        "linked providers on the account page"
    );
    // REST: not linked to Facebook: 404; the unlink form removes Google.
    let res = t
        .client
        .delete(t.url("/api/authentication/v1/thirdparty/facebook"))
        .header("cookie", &cookie)
        .header("X-XSRF-TOKEN", &xsrf)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let m = Visitor {
        cookie: cookie.clone(),
        xsrf: xsrf.clone(),
    };
    let res = post_form(
        &t,
        &m,
        "/gr/authentication/social/unlink",
        &[("provider", "google")],
    )
    .await;
    assert_eq!(param(&location(&res), "social"), "auth.social.unlink.done");
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 0);
}
both_social!(
    association_after_password_and_unlink,
    association_on_sqlite,
    association_on_postgres
);

/// A member registered through a provider has no password: their only link cannot go.
async fn the_last_way_in_stays(t: TestApp) {
    let v = visitor(&t).await;
    let authorize = start(&t, &v, "apple").await;
    let back = at_provider(&t, &authorize, "only.apple@example.test").await;
    let next = location(&get(&t, &v, &back).await);
    let ticket = param(&next, "ticket");
    let res = post_form(
        &t,
        &v,
        "/gr/authentication/social/register",
        &[
            ("ticket", &ticket),
            ("firstName", "Alice"),
            ("lastName", "Martin"),
            ("cgv", "1"),
            ("privacyPolicy", "1"),
        ],
    )
    .await;
    let (cookie, xsrf) = member_cookie(&res).unwrap();
    let res = t
        .client
        .delete(t.url("/api/authentication/v1/thirdparty/apple"))
        .header("cookie", &cookie)
        .header("X-XSRF-TOKEN", &xsrf)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    let m = Visitor { cookie, xsrf };
    let res = post_form(
        &t,
        &m,
        "/gr/authentication/social/unlink",
        &[("provider", "apple")],
    )
    .await;
    assert_eq!(param(&location(&res), "social"), "auth.social.unlink.last");
    assert_eq!(t.count("SELECT COUNT(*) FROM member_social_links").await, 1);
    // Nor does their empty password sign in.
    let res = t
        .client
        .post(t.url("/api/authentication/v1/login"))
        .header("cookie", &v.cookie)
        .header("X-XSRF-TOKEN", &v.xsrf)
        .json(&serde_json::json!({"email": "only.apple@example.test", "password": "", "siteId": 1}))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["result"], 3);
}
both_social!(
    the_last_way_in_stays,
    last_way_in_on_sqlite,
    last_way_in_on_postgres
);

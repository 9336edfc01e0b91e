//! Password recovery, autologin links, session rotation and timeouts.
use serde_json::{json, Value};

use super::{outbox_link, post_json, query_param};
use crate::helpers::{both, cookie_value, TestApp};

async fn recovery_autologin_rotation_and_timeouts(t: TestApp) {
    let xsrf = t.xsrf().await;
    let db = &t.app.state.db;
    // Recovery answers the same for unknown emails and sends nothing for them.
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "ghost@example.com", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/recover",
        json!({"email": "demo@rosace.test", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let link = outbox_link(&t, "updatepassword=1");
    let (cypher, member_id) = (
        query_param(&link, "cypher"),
        query_param(&link, "memberid").parse::<i64>().unwrap(),
    );
    let update =
        |pw: &str| json!({"siteId": 1, "cypher": cypher, "memberId": member_id, "newPassword": pw});
    // A common password is refused without spending the cypher.
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("password123"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("Brand-New-Secret-7"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post_json(
        &t,
        "/api/authentication/v1/password/update",
        update("Another-Secret-8"),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.status(), 400, "single use");
    let res = post_json(
        &t,
        "/api/authentication/v1/login",
        json!({"email": "demo@rosace.test", "password": "Brand-New-Secret-7", "siteId": 1}),
        "",
        &xsrf,
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["result"], 1);

    // An expired cypher is refused.
    let now = app::platform::state::now();
    let expired = app::auth::service::issue_autologin(
        &t.app.state,
        &t.app.settings.auth,
        member_id,
        now - 3 * 86_400,
    )
    .await
    .unwrap();
    let res = t
        .get(&format!(
            "/gr/authentication/autologin?cypher={expired}&returnurl=/gr/cart"
        ))
        .await;
    assert_eq!(res.status(), 302);
    assert!(
        res.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with("/gr/authentication?"),
        "failure shows the page"
    );
    assert!(cookie_value(&res, app::platform::session::COOKIE).is_none());

    // Autologin (review L1): the link only asks "Continue as <first name>?"; the session
    // comes from the confirmed form, with its CSRF token. The old session's token is then
    // replaced.
    let old = app::platform::session::create(db, member_id, false, now)
        .await
        .unwrap();
    let old_cookie = format!("rosace_session={old}");
    let fresh =
        app::auth::service::issue_autologin(&t.app.state, &t.app.settings.auth, member_id, now)
            .await
            .unwrap();
    let res = t
        .get_with_cookie(
            &format!("/gr/authentication/autologin?cypher={fresh}&returnurl=/gr/my-orders"),
            &old_cookie,
        )
        .await;
    assert_eq!(res.status(), 302);
    let confirm = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        confirm.starts_with(&format!(
            "/gr/authentication?step=autologin&cypher={fresh}&returnurl=/gr/my-orders"
        )),
        "{confirm}"
    );
    assert!(
        cookie_value(&res, app::platform::session::COOKIE).is_none(),
        "no session from the link alone"
    );
    let first_name: String = sqlx::query_scalar("SELECT first_name FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let page = t.get_with_cookie(&confirm, &old_cookie).await;
    assert_eq!(page.status(), 200);
    let page_xsrf = cookie_value(&page, "XSRF-TOKEN");
    let html = page.text().await.unwrap();
    assert!(html.contains("data-testid=\"autologin-form\""));
    assert!(html.contains(&format!("Continuer en tant que {first_name}")));
    // The page hands out the visitor's XSRF token with its form.
    let xsrf_old = page_xsrf.expect("the page sets the XSRF cookie");
    let confirm_form = |cypher: &str, returnurl: &str, session: &str, token: &str| {
        let t = &t;
        let body = format!(
            "_xsrf={token}&step=autologin&cypher={cypher}&returnurl={}",
            app::routes::encode_query_value(returnurl)
        );
        let cookies = format!("rosace_session={session}; XSRF-TOKEN={token}");
        async move {
            t.client
                .post(t.url("/gr/authentication/form"))
                .header("cookie", cookies)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    // Without the token (a form on another site): refused, the link stays usable.
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", format!("{old_cookie}; XSRF-TOKEN={xsrf_old}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "step=autologin&cypher={fresh}&returnurl=/gr/my-orders"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert!(cookie_value(&res, app::platform::session::COOKIE).is_none());
    let res = confirm_form(&fresh, "/gr/my-orders", &old, &xsrf_old).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/gr/my-orders");
    let new = cookie_value(&res, app::platform::session::COOKIE).unwrap();
    assert_ne!(new, old, "a new token at sign-in");
    assert!(
        app::platform::session::member_for_token(db, &old, now)
            .await
            .unwrap()
            .is_none(),
        "the old session is gone"
    );
    assert!(app::platform::session::member_for_token(db, &new, now)
        .await
        .unwrap()
        .is_some());
    // Used: the link now shows the sign-in page.
    let res = t
        .get(&format!("/gr/authentication/autologin?cypher={fresh}"))
        .await;
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/gr/authentication?returnurl="));
    // An open redirect is refused.
    let again =
        app::auth::service::issue_autologin(&t.app.state, &t.app.settings.auth, member_id, now)
            .await
            .unwrap();
    let res = t
        .get(&format!(
            "/gr/authentication/autologin?cypher={again}&returnurl=https://evil.example/"
        ))
        .await;
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("&returnurl=/&"));
    let xsrf_new = cookie_value(
        &t.get_with_cookie("/gr/aboutus", &format!("rosace_session={new}"))
            .await,
        "XSRF-TOKEN",
    )
    .unwrap();
    let res = confirm_form(&again, "https://evil.example/", &new, &xsrf_new).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/");

    // Idle timeout (30 min) and absolute timeout (12 h) without "remember me".
    let (idle, absolute) = app::platform::session::lifetimes(false);
    assert!(
        app::platform::session::member_for_token(db, &new, now + idle + 1)
            .await
            .unwrap()
            .is_none(),
        "idle timeout"
    );
    let remembered = app::platform::session::create(db, member_id, true, now)
        .await
        .unwrap();
    assert!(
        app::platform::session::member_for_token(db, &remembered, now + idle + 1)
            .await
            .unwrap()
            .is_some(),
        "remember me outlives the idle timeout"
    );
    let active = app::platform::session::create(db, member_id, false, now)
        .await
        .unwrap();
    let mut t_now = now;
    while t_now < now + absolute - 60 {
        t_now += idle / 2;
        if t_now >= now + absolute {
            break;
        }
        assert!(app::platform::session::member_for_token(db, &active, t_now)
            .await
            .unwrap()
            .is_some());
    }
    assert!(
        app::platform::session::member_for_token(db, &active, now + absolute + 1)
            .await
            .unwrap()
            .is_none(),
        "absolute timeout"
    );
}

both!(
    recovery_autologin_rotation_and_timeouts,
    recovery_autologin_and_sessions_on_sqlite,
    recovery_autologin_and_sessions_on_postgres,
);

/// Login result code 20 (spec 000 §5, member cross login): a members-only page asked with
/// a session of another site sends to sign in with the code's message, in the site's
/// language; a visitor, or a session that ended, gets the sign-in page without it.
async fn a_session_of_another_site_is_said_on_the_sign_in_page(t: TestApp) {
    let of_site_1 = t.member_session(1).await;
    let location = |res: &reqwest::Response| {
        res.headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    // Its own site: the page itself.
    let res = t.get_with_cookie("/my-orders", &of_site_1).await;
    assert_eq!(res.status(), 200);
    // The German site: to sign in, back to the page after, with code 20's message.
    let res = t.get_with_cookie("/my-orders?site=2", &of_site_1).await;
    assert_eq!(res.status(), 302);
    let to = location(&res);
    assert!(to.starts_with("/gr/authentication?ReturnUrl="), "{to}");
    assert!(to.ends_with("&info=auth.social.code.20"), "{to}");
    let page = t
        .get_with_cookie(&to, &format!("{of_site_1}; site=2"))
        .await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    let german = app::site::i18n::t("de", "auth.social.code.20");
    assert!(!german.is_empty() && german != "auth.social.code.20");
    assert!(html.contains(&german), "the message in German");
    // A visitor, and a session that no longer exists: the sign-in page says nothing more.
    for cookie in [
        "site=2",
        "rosace_session=0123456789abcdef0123456789abcdef; site=2",
    ] {
        let res = t.get_with_cookie("/my-orders", cookie).await;
        assert_eq!(res.status(), 302, "{cookie}");
        let to = location(&res);
        assert!(
            to.starts_with("/gr/authentication?ReturnUrl=") && !to.contains("info="),
            "{cookie}: {to}"
        );
    }
}
both!(
    a_session_of_another_site_is_said_on_the_sign_in_page,
    a_session_of_another_site_is_said_on_the_sign_in_page_on_sqlite,
    a_session_of_another_site_is_said_on_the_sign_in_page_on_postgres
);

//! Email change (link to the new address, notice to the old one, only the asking member
//! can confirm, once) and password change (spec codes, other sessions end, session
//! rotated, notice email), both rate-limited like the sign-in.
use reqwest::Method;
use serde_json::json;

use super::{field_keys, link_in, login_result, mails_to, member, row, A, PASSWORD};
use crate::helpers::{both, TestApp};

async fn email_change(t: TestApp) {
    let m = member(&t, 2).await;
    let other_browser = m.another_session(&t).await;
    let post = format!("{A}/email");
    let before = row(&t, m.id).await;

    // Refusals name the field; nothing stored, nothing mailed.
    let taken = super::member(&t, 2).await;
    for (body, field, key) in [
        (
            json!({ "Email": "", "ConfirmEmail": "" }),
            "NEW_MAIL",
            "myprofile.errors.required",
        ),
        (
            json!({ "Email": "nope", "ConfirmEmail": "nope" }),
            "NEW_MAIL",
            "auth.email.invalid",
        ),
        (
            json!({ "Email": "zoé@exemple.de", "ConfirmEmail": "zoé@exemple.de" }),
            "NEW_MAIL",
            "auth.email.invalid",
        ),
        (
            json!({ "Email": m.email.to_uppercase(), "ConfirmEmail": m.email }),
            "NEW_MAIL",
            "myprofile.email.error.same",
        ),
        (
            json!({ "Email": "neu@example.de", "ConfirmEmail": "neu@example.com" }),
            "CONFIRM_EMAIL",
            "myprofile.email.error.not_identical",
        ),
        (
            json!({ "Email": taken.email, "ConfirmEmail": taken.email }),
            "NEW_MAIL",
            "auth.email.taken",
        ),
        (
            json!({ "Email": format!("{}@x.de", "a".repeat(50_000)), "ConfirmEmail": "" }),
            "NEW_MAIL",
            "auth.email.invalid",
        ),
    ] {
        let mut body = body;
        body["currentPassword"] = json!(PASSWORD);
        let (status, err) = m.call(&t, Method::POST, &post, Some(body.clone())).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            err["error_description"],
            "errors.general_retry.notification"
        );
        assert_eq!(
            field_keys(&err),
            [(field.to_string(), key.to_string())],
            "{body}"
        );
    }
    let (status, _) = m.raw(&t, Method::POST, &post, Some("{\"Email\":")).await;
    assert_eq!(status, 400);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_email_changes").await,
        0
    );
    assert!(mails_to(&t, "neu@example.de").is_empty());

    // Asked: a link to the new address, a notice to the old one; the email stays.
    let (status, done) = m
        .call(
            &t,
            Method::POST,
            &post,
            Some(
                json!({ "Email": " Neu@Example.de ", "ConfirmEmail": "neu@example.de", "currentPassword": PASSWORD }),
            ),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["msgKey"], "myprofile.email.notification");
    assert_eq!(done["member"]["pendingEmail"], "neu@example.de");
    assert_eq!(done["member"]["email"], m.email.as_str());
    assert_eq!(row(&t, m.id).await, before);
    let to_new = mails_to(&t, "neu@example.de");
    assert_eq!(to_new.len(), 1);
    assert!(
        to_new[0].contains("Subject: Bestätigen Sie Ihre neue E-Mail-Adresse"),
        "in German on site 2"
    );
    let link = link_in(&to_new[0]);
    assert!(
        link.starts_with("http://shop.test/myaccount/memberdata?confirmemail="),
        "{link}"
    );
    let cypher = link.rsplit('=').next().unwrap().to_string();
    let notice = mails_to(&t, &m.email);
    assert_eq!(notice.len(), 1);
    assert!(notice[0].contains("neu@example.de"));

    // The link is only the asking member's: another member, a wrong or malformed one fail.
    let confirm = format!("{A}/email/confirm");
    for (who, c) in [
        (&taken, cypher.as_str()),
        (&m, "0123456789abcdef0123456789abcdef"),
        (&m, "🌹"),
        (&m, ""),
    ] {
        let (status, err) = who
            .call(&t, Method::POST, &confirm, Some(json!({ "cypher": c })))
            .await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some("link_invalid")),
            "{c}"
        );
        assert_eq!(err["error_description"], "myprofile.email.error.link");
    }
    assert_eq!(row(&t, m.id).await, before);

    // Confirmed: the email changes, the other session ends, this one stays; once only.
    let (status, done) = m
        .call(
            &t,
            Method::POST,
            &confirm,
            Some(json!({ "cypher": cypher })),
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["member"]["email"], "neu@example.de");
    assert_eq!(done["member"]["pendingEmail"], serde_json::Value::Null);
    assert_eq!(m.call(&t, Method::GET, A, None).await.0, 200);
    assert_eq!(other_browser.call(&t, Method::GET, A, None).await.0, 401);
    let (status, _) = m
        .call(
            &t,
            Method::POST,
            &confirm,
            Some(json!({ "cypher": cypher })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(login_result(&t, "neu@example.de", PASSWORD, 2).await, 1);
    assert_eq!(login_result(&t, &m.email, PASSWORD, 2).await, 2);
}
both!(
    email_change,
    email_change_on_sqlite,
    email_change_on_postgres
);

async fn password_change(t: TestApp) {
    let m = member(&t, 4).await;
    let other_browser = m.another_session(&t).await;
    let post = format!("{A}/password");
    let before = row(&t, m.id).await;
    let body = |old: &str, new: &str, confirm: &str| json!({ "oldPassword": old, "newPassword": new, "confirmPassword": confirm });
    for (b, code, fields) in [
        (
            body("", "", ""),
            "MISSING_FIELD",
            vec!["currentPassword", "password", "confirmPassword"],
        ),
        (
            body(PASSWORD, "", ""),
            "MISSING_FIELD",
            vec!["password", "confirmPassword"],
        ),
        (
            json!({}),
            "MISSING_FIELD",
            vec!["currentPassword", "password"],
        ),
        (
            body(PASSWORD, "Nouveau-Jardin-7", "Nouveau-Jardin-8"),
            "NOT_IDENTICAL",
            vec!["confirmPassword"],
        ),
        (
            body(PASSWORD, "short", "short"),
            "NOT_VALID",
            vec!["password"],
        ),
        (
            body(PASSWORD, "password123", "password123"),
            "NOT_VALID",
            vec!["password"],
        ),
        (
            body(PASSWORD, PASSWORD, PASSWORD),
            "NOT_VALID",
            vec!["password"],
        ),
        (
            body("wrong-password", "Nouveau-Jardin-7", "Nouveau-Jardin-7"),
            "NOT_VALID",
            vec!["currentPassword"],
        ),
        (
            body(
                &"x".repeat(20_000),
                &"y".repeat(20_000),
                &"y".repeat(20_000),
            ),
            "NOT_VALID",
            vec!["password"],
        ),
    ] {
        let (status, err) = m.call(&t, Method::POST, &post, Some(b.clone())).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some(code)),
            "{b}"
        );
        let key = format!("myprofile.password.error.{}", code.to_lowercase());
        assert_eq!(err["error_description"], key.as_str());
        let got: Vec<String> = field_keys(&err).into_iter().map(|(f, _)| f).collect();
        assert_eq!(got, fields, "{b}");
    }
    let (status, err) = m.raw(&t, Method::POST, &post, Some("[\"x\"]")).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("bad_request"))
    );
    assert_eq!(row(&t, m.id).await, before, "no hash changed");
    assert_eq!(other_browser.call(&t, Method::GET, A, None).await.0, 200);

    // Changed (with the form's field names): the other browser is signed out, this one
    // gets a new session token, the old token is dead, the new password signs in.
    let res = m
        .send(&t, Method::POST, &post, Some(&json!({ "currentPassword": PASSWORD, "password": "Ωμέγα-🌹-Ρόδο-9", "confirmPassword": "Ωμέγα-🌹-Ρόδο-9" }).to_string()))
        .await;
    assert_eq!(res.status(), 200);
    let rotated = m.rotated(&res);
    let done: serde_json::Value = res.json().await.unwrap();
    assert_eq!(done["msgKey"], "myprofile.password.notification");
    assert_ne!(rotated.token, m.token);
    assert_eq!(other_browser.call(&t, Method::GET, A, None).await.0, 401);
    assert_eq!(m.call(&t, Method::GET, A, None).await.0, 401);
    assert_eq!(rotated.call(&t, Method::GET, A, None).await.0, 200);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sessions WHERE member_id = {}",
            m.id
        ))
        .await,
        1
    );
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM members WHERE id = $1")
        .bind(m.id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert_eq!(login_result(&t, &m.email, PASSWORD, 4).await, 3);
    assert_eq!(login_result(&t, &m.email, "Ωμέγα-🌹-Ρόδο-9", 4).await, 1);
    let notice = mails_to(&t, &m.email);
    assert!(
        notice
            .iter()
            .any(|n| n.contains("Subject: La tua password è stata modificata")),
        "in Italian on site 4"
    );
}
both!(
    password_change,
    password_change_on_sqlite,
    password_change_on_postgres
);

/// A password changed in My account ends every link mailed before it, as a reset does
/// (review N4): a recovery link, an autologin link and a pending email change.
async fn password_change_ends_earlier_links(t: TestApp) {
    let m = member(&t, 1).await;
    let (status, _) = t
        .post_anonymous(
            "/api/authentication/v1/password/recover",
            json!({ "email": m.email, "siteId": 1 }).to_string(),
        )
        .await;
    assert_eq!(status, 200);
    let recovery = mails_to(&t, &m.email)
        .iter()
        .map(|mail| link_in(mail))
        .find(|link| link.contains("updatepassword=1"))
        .expect("a recovery link");
    let recovery_cypher = recovery
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("cypher="))
        .unwrap()
        .to_string();
    let now = app::platform::state::now();
    let autologin =
        app::auth::service::issue_autologin(&t.app.state, &t.app.settings.auth, m.id, now)
            .await
            .unwrap();
    let (status, _) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email"),
            Some(
                json!({ "Email": "plus-tard@example.fr", "ConfirmEmail": "plus-tard@example.fr", "currentPassword": PASSWORD }),
            ),
        )
        .await;
    assert_eq!(status, 200);
    let email_cypher = link_in(&mails_to(&t, "plus-tard@example.fr")[0])
        .rsplit('=')
        .next()
        .unwrap()
        .to_string();
    let live = format!(
        "SELECT COUNT(*) FROM member_cyphers WHERE member_id = {} AND used_at IS NULL",
        m.id
    );
    assert_eq!(
        t.count(&live).await,
        2,
        "the recovery and autologin links are live"
    );

    let res = m
        .send(&t, Method::POST, &format!("{A}/password"), Some(&json!({ "currentPassword": PASSWORD, "password": "Nouveau-Jardin-7", "confirmPassword": "Nouveau-Jardin-7" }).to_string()))
        .await;
    assert_eq!(res.status(), 200);
    let m = m.rotated(&res);

    assert_eq!(t.count(&live).await, 0, "no link left live");
    // The recovery link no longer sets a password, the autologin link signs nobody in,
    // and the email change can no longer be confirmed.
    let (status, _) = t
        .post_anonymous(
            "/api/authentication/v1/password/update",
            json!({ "siteId": 1, "cypher": recovery_cypher, "memberId": m.id, "newPassword": "Encore-Un-Autre-8" })
                .to_string(),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(login_result(&t, &m.email, "Encore-Un-Autre-8", 1).await, 3);
    assert_eq!(login_result(&t, &m.email, "Nouveau-Jardin-7", 1).await, 1);
    let page = t
        .get(&format!(
            "/gr/authentication?step=autologin&cypher={autologin}&returnurl=/gr/my-orders"
        ))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !page.contains("data-testid=\"autologin-form\""),
        "the link is spent"
    );
    let (status, err) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email/confirm"),
            Some(json!({ "cypher": email_cypher })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("link_invalid"))
    );
    assert_eq!(
        row(&t, m.id).await[0].as_deref(),
        Some(m.email.as_str()),
        "the email is unchanged"
    );
}
both!(
    password_change_ends_earlier_links,
    password_change_ends_earlier_links_on_sqlite,
    password_change_ends_earlier_links_on_postgres
);

async fn rate_limited(t: TestApp) {
    let m = member(&t, 1).await;
    let post = format!("{A}/password");
    let wrong = json!({ "oldPassword": "guess", "newPassword": "Nouveau-Jardin-7", "confirmPassword": "Nouveau-Jardin-7" });
    for _ in 0..3 {
        assert_eq!(
            m.call(&t, Method::POST, &post, Some(wrong.clone())).await.0,
            400
        );
    }
    let (status, err) = m.call(&t, Method::POST, &post, Some(wrong)).await;
    assert_eq!(
        (status, err["error_description"].as_str()),
        (429, Some("auth.error.too_many"))
    );
    // Even the right password waits for the window: nothing changes.
    let right = json!({ "oldPassword": super::PASSWORD, "newPassword": "Nouveau-Jardin-7", "confirmPassword": "Nouveau-Jardin-7" });
    assert_eq!(m.call(&t, Method::POST, &post, Some(right)).await.0, 429);
    let email = json!({ "Email": "autre@example.com", "ConfirmEmail": "autre@example.com", "currentPassword": PASSWORD });
    assert_eq!(
        m.call(&t, Method::POST, &format!("{A}/email"), Some(email))
            .await
            .0,
        429
    );
    assert_eq!(login_result(&t, &m.email, PASSWORD, 1).await, 1);
}
both!(
    rate_limited,
    rate_limited_on_sqlite,
    rate_limited_on_postgres,
    |c| c.settings.auth.login_rate_limit = 3
);

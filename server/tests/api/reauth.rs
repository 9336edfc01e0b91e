//! Review N1 through the real server, on SQLite and PostgreSQL: what can hand an account to
//! someone else asks for the current password (or, for a member without one, a sign-in
//! with the linked provider made in this session within 5 minutes), changes nothing
//! without it, and is mailed to the member with a "secure your account" link that undoes
//! a takeover.
use reqwest::Method;
use serde_json::{json, Value};

use crate::account::{field_keys, link_in, login_result, mails_to, member, Member, A, PASSWORD};
use crate::helpers::{both, TestApp};

const IBAN: &str = "DE89370400440532013000";
const END_OTHERS: &str = "/api/authentication/v1/sessions/end-others";

/// A refusal of the password proof: 400, code `currentpassword`, the field named.
fn password_refused(status: u16, body: &Value, key: &str) {
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error_code"], "currentpassword", "{body}");
    assert_eq!(
        field_keys(body),
        vec![("currentPassword".to_string(), key.to_string())],
        "{body}"
    );
}

/// The mail (of site 1, in French) with the subject of `key`.
fn with_subject<'a>(mails: &'a [String], key: &str) -> &'a str {
    let subject = format!("Subject: {}", app::site::i18n::t("fr", key));
    mails
        .iter()
        .find(|m| m.contains(&subject))
        .unwrap_or_else(|| panic!("no mail \"{subject}\""))
}

async fn alive(t: &TestApp, m: &Member) -> bool {
    m.call(t, Method::GET, A, None).await.0 == 200
}

/// Every takeover call refuses a missing or wrong password and changes nothing; with the
/// password each goes through and the member is told, with a link to secure the account.
async fn the_password_guards_every_takeover_call(t: TestApp) {
    let m = member(&t, 1).await;
    let other = m.another_session(&t).await;
    let new_email = format!("new-{}", m.email);

    // Email change.
    let change = |pw: Option<&str>| {
        let mut b = json!({"Email": new_email, "ConfirmEmail": new_email});
        if let Some(p) = pw {
            b["currentPassword"] = json!(p);
        }
        b
    };
    let (s, b) = m
        .call(&t, Method::POST, &format!("{A}/email"), Some(change(None)))
        .await;
    password_refused(s, &b, "reauth.error.required");
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email"),
            Some(change(Some("Wrong-Orchard-42"))),
        )
        .await;
    password_refused(s, &b, "reauth.error.password");
    assert!(
        mails_to(&t, &new_email).is_empty(),
        "no link without the password"
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM member_email_changes WHERE member_id = {}",
            m.id
        ))
        .await,
        0
    );
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email"),
            Some(change(Some(PASSWORD))),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(mails_to(&t, &new_email).len(), 1);
    let notice = mails_to(&t, &m.email)
        .pop()
        .expect("a notice to the old address");
    assert!(
        notice.contains("/gr/authentication?step=secure&token="),
        "{notice}"
    );

    // Bank details.
    let bank = |pw: &str| json!({"iban": IBAN, "bic": "", "ownerName": "Zoé Durand", "confirmation": true, "currentPassword": pw});
    let path = "/api/postsales/v1/wallet/bankdetails";
    let (s, b) = m.call(&t, Method::POST, path, Some(bank(""))).await;
    password_refused(s, &b, "reauth.error.required");
    let (s, b) = m.call(&t, Method::POST, path, Some(bank("nope"))).await;
    password_refused(s, &b, "reauth.error.password");
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM member_bank_details WHERE member_id = {}",
            m.id
        ))
        .await,
        0
    );
    // Bad input is still told first, without costing the password.
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            path,
            Some(json!({"iban": "FR00", "ownerName": "Zoé", "confirmation": true})),
        )
        .await;
    assert_eq!(s, 400);
    assert!(field_keys(&b).iter().any(|(f, _)| f == "iban"), "{b}");
    let before = mails_to(&t, &m.email).len();
    let (s, b) = m.call(&t, Method::POST, path, Some(bank(PASSWORD))).await;
    assert_eq!(s, 200, "{b}");
    let mails = mails_to(&t, &m.email);
    assert_eq!(mails.len(), before + 1);
    // (Mails of the same second are in no order: found by their subject.)
    let notice = with_subject(&mails, "mail.bank_details_changed.subject");
    assert!(
        notice.contains("3000") && notice.contains("step=secure&token="),
        "{notice}"
    );

    // Ending the other sessions.
    let (s, b) = m.call(&t, Method::POST, END_OTHERS, Some(json!({}))).await;
    password_refused(s, &b, "reauth.error.required");
    assert!(alive(&t, &other).await, "the other session still works");
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            END_OTHERS,
            Some(json!({"currentPassword": PASSWORD})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["ended"], 1);
    assert!(!alive(&t, &other).await, "the other session ended");
    let mails = mails_to(&t, &m.email);
    assert!(with_subject(&mails, "mail.sessions_ended.subject").contains("step=secure&token="));

    // Deactivate and delete: refused without the password, the account as it was.
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/deactivate"),
            Some(json!({"reason": "OTHER"})),
        )
        .await;
    password_refused(s, &b, "reauth.error.required");
    let (s, b) = m.call(&t, Method::DELETE, A, None).await;
    password_refused(s, &b, "reauth.error.required");
    let (s, b) = m
        .call(
            &t,
            Method::DELETE,
            A,
            Some(json!({"currentPassword": "Velvet-Orchard-41"})),
        )
        .await;
    password_refused(s, &b, "reauth.error.password");
    assert!(alive(&t, &m).await);
    assert_eq!(login_result(&t, &m.email, PASSWORD, 1).await, 1);
    let m = m.another_session(&t).await;
    let (s, b) = m
        .call(
            &t,
            Method::DELETE,
            A,
            Some(json!({"currentPassword": PASSWORD})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["step"], "STEP2");
}

both!(
    the_password_guards_every_takeover_call,
    takeover_calls_need_the_password_on_sqlite,
    takeover_calls_need_the_password_on_postgres
);

/// Wrong passwords at these calls count against the account's secret-call limit (as the
/// password change's): a borrowed session cannot guess for long.
async fn guessing_the_password_is_limited(t: TestApp) {
    let m = member(&t, 1).await;
    let mut last = 0;
    for i in 0..40 {
        let (s, _) = m
            .call(
                &t,
                Method::POST,
                END_OTHERS,
                Some(json!({"currentPassword": format!("guess-{i}")})),
            )
            .await;
        last = s;
        if s == 429 {
            break;
        }
        assert_eq!(s, 400);
    }
    assert_eq!(last, 429, "guesses are limited");
    let (s, _) = m
        .call(
            &t,
            Method::POST,
            END_OTHERS,
            Some(json!({"currentPassword": PASSWORD})),
        )
        .await;
    assert_eq!(s, 429, "even the right password waits");
}

both!(
    guessing_the_password_is_limited,
    reauth_guesses_limited_on_sqlite,
    reauth_guesses_limited_on_postgres
);

/// Someone who knew the password changed the email and confirmed it. The notice the
/// member got at the old address secures the account: the old address is back, every
/// session (the taker's too) ends, earlier links stop working, and the member sets a new
/// password with the link the answer leads to. Once only.
async fn the_secure_link_undoes_a_takeover(t: TestApp) {
    let m = member(&t, 1).await;
    let taker_email = format!("taker-{}", m.email);
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email"),
            Some(json!({"Email": taker_email, "ConfirmEmail": taker_email, "currentPassword": PASSWORD})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let confirm = link_in(&mails_to(&t, &taker_email)[0]);
    let cypher = confirm.split("confirmemail=").nth(1).unwrap().to_string();
    let (s, b) = m
        .call(
            &t,
            Method::POST,
            &format!("{A}/email/confirm"),
            Some(json!({"cypher": cypher})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(login_result(&t, &taker_email, PASSWORD, 1).await, 1);

    let notice = mails_to(&t, &m.email).pop().unwrap();
    let link = notice
        .split_whitespace()
        .find(|w| w.contains("step=secure&token="))
        .unwrap()
        .to_string();
    let token = link.split("token=").nth(1).unwrap().to_string();
    // The page shows the address it keeps, and changes nothing by being opened.
    let page = t
        .get(&format!("/gr/authentication?step=secure&token={token}"))
        .await;
    let html = page.text().await.unwrap();
    assert!(html.contains(&m.email) && html.contains("data-testid=\"secure-form\""));
    assert!(alive(&t, &m).await);
    // A made-up token: refused, nothing changes.
    let (s, b) = t
        .post_anonymous(
            &format!("{A}/secure"),
            json!({"token": "0".repeat(32)}).to_string(),
        )
        .await;
    assert_eq!(
        (s, b["error_code"].as_str()),
        (400, Some("link_invalid")),
        "{b}"
    );

    let (s, b) = t
        .post_anonymous(&format!("{A}/secure"), json!({"token": token}).to_string())
        .await;
    assert_eq!(s, 200, "{b}");
    let reset = b["resetUrl"].as_str().unwrap().to_string();
    assert!(!alive(&t, &m).await, "every session ended");
    assert_eq!(
        login_result(&t, &m.email, PASSWORD, 1).await,
        1,
        "the old address is back"
    );
    assert_ne!(login_result(&t, &taker_email, PASSWORD, 1).await, 1);
    // The link it leads to sets a new password; the old one stops working.
    let param = |k: &str| crate::social::param(&reset, k);
    let (s, b) = t
        .post_anonymous(
            "/api/authentication/v1/password/update",
            json!({"siteId": 1, "cypher": param("cypher"), "memberId": param("memberid").parse::<i64>().unwrap(), "newPassword": "Granite-Harbour-77"})
                .to_string(),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(login_result(&t, &m.email, "Granite-Harbour-77", 1).await, 1);
    assert_ne!(login_result(&t, &m.email, PASSWORD, 1).await, 1);
    // Once only.
    let (s, _) = t
        .post_anonymous(&format!("{A}/secure"), json!({"token": token}).to_string())
        .await;
    assert_eq!(s, 400);
}

both!(
    the_secure_link_undoes_a_takeover,
    secure_link_undoes_a_takeover_on_sqlite,
    secure_link_undoes_a_takeover_on_postgres
);

/// The same through the page's form without scripts: the button posts with the page's
/// token and leads to the new-password form.
async fn the_secure_form_works_without_scripts(t: TestApp) {
    use crate::social::{get, location, param, post_form, visitor};
    let m = member(&t, 1).await;
    let other = m.another_session(&t).await;
    let (s, _) = m
        .call(
            &t,
            Method::POST,
            END_OTHERS,
            Some(json!({"currentPassword": PASSWORD})),
        )
        .await;
    assert_eq!(s, 200);
    assert!(!alive(&t, &other).await);
    let notice = mails_to(&t, &m.email).pop().unwrap();
    let link = notice
        .split_whitespace()
        .find(|w| w.contains("token="))
        .unwrap();
    let token = link.split("token=").nth(1).unwrap().to_string();
    let v = visitor(&t).await;
    let page = get(
        &t,
        &v,
        &format!("/gr/authentication?step=secure&token={token}"),
    )
    .await;
    assert!(page.text().await.unwrap().contains("secure-submit"));
    let res = post_form(
        &t,
        &v,
        app::auth::ui::page::SECURE_FORM,
        &[("token", &token)],
    )
    .await;
    assert_eq!(res.status(), 303);
    let to = location(&res);
    assert!(
        to.starts_with("/gr/authentication?updatepassword=1&cypher="),
        "{to}"
    );
    assert_eq!(param(&to, "info"), "account.secure.done");
    assert!(!alive(&t, &m).await);
    // Used: its page says so.
    let res = post_form(
        &t,
        &v,
        app::auth::ui::page::SECURE_FORM,
        &[("token", &token)],
    )
    .await;
    let again = location(&res);
    let html = get(&t, &v, &again).await.text().await.unwrap();
    assert!(html.contains("data-testid=\"auth-error\""), "{again}");
}

both!(
    the_secure_form_works_without_scripts,
    secure_form_without_scripts_on_sqlite,
    secure_form_without_scripts_on_postgres
);

/// The no-script forms ask for the password too: refused, the form comes back with the
/// field's message and what was typed (never the password), and nothing changes.
async fn the_forms_ask_for_the_password(t: TestApp) {
    let m = member(&t, 1).await;
    let new_email = format!("form-{}", m.email);
    let post = |path: &'static str, fields: Vec<(&'static str, String)>| {
        let m = m.clone();
        let t = &t;
        async move {
            let mut form = vec![("_xsrf".to_string(), m.xsrf.clone())];
            form.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
            t.client
                .post(t.url(path))
                .header("cookie", m.cookie())
                .form(&form)
                .send()
                .await
                .unwrap()
        }
    };
    let res = post(
        "/myaccount/form/email",
        vec![
            ("Email", new_email.clone()),
            ("ConfirmEmail", new_email.clone()),
            ("currentPassword", "wrong".into()),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let back = crate::social::location(&res);
    assert!(back.contains("retry=1"), "{back}");
    let cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("; ");
    let page = t
        .client
        .get(t.url(&back))
        .header("cookie", format!("{}; {cookie}", m.cookie()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("data-testid=\"reauth-email-reauth-error\""),
        "the field's error slot"
    );
    assert!(page.contains(&new_email), "the typed address stays");
    assert!(
        !page.contains("value=\"wrong\""),
        "the password is not sent back"
    );
    assert!(mails_to(&t, &new_email).is_empty());

    let res = post("/myaccount/form/end_sessions", vec![]).await;
    assert!(crate::social::location(&res).contains("retry=1"));
    let res = post(
        "/myaccount/form/delete",
        vec![("currentPassword", "wrong".into())],
    )
    .await;
    let back = crate::social::location(&res);
    assert!(
        back.contains("tab=delete&step=confirm") && back.contains("error=reauth.error.password"),
        "{back}"
    );
    assert!(alive(&t, &m).await);
    let res = post(
        "/postsales/myaccount/wallet/form/save",
        vec![
            ("iban", IBAN.into()),
            ("ownerName", "Zoé Durand".into()),
            ("confirmation", "1".into()),
        ],
    )
    .await;
    assert!(crate::social::location(&res).contains("retry=1"));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM member_bank_details WHERE member_id = {}",
            m.id
        ))
        .await,
        0
    );
    let res = post(
        "/myaccount/form/delete",
        vec![("currentPassword", PASSWORD.into())],
    )
    .await;
    let to = crate::social::location(&res);
    assert!(to.contains("info=account.delete.done"), "{to}");
}

both!(
    the_forms_ask_for_the_password,
    forms_ask_for_the_password_on_sqlite,
    forms_ask_for_the_password_on_postgres
);

/// A member registered with Google has no password: the forms offer "sign in again with
/// Google" instead. The provider is asked to check the person again (`prompt=login`,
/// `max_age=0`); an answer with an old check, from another Google account or for another
/// session does not count; a good one lets this session (only) make the change for 5
/// minutes.
async fn a_provider_member_signs_in_again(t: TestApp) {
    use crate::social::{
        at_provider, get, location, member_cookie, param, post_form, start, visitor, Visitor,
    };
    let v = visitor(&t).await;
    let email = "solo.reauth@example.test";
    let authorize = start(&t, &v, "google").await;
    let next = location(&get(&t, &v, &at_provider(&t, &authorize, email).await).await);
    let ticket = param(&next, "ticket");
    let fields = [
        ("ticket", ticket.as_str()),
        ("civility", "2"),
        ("firstName", "Solo"),
        ("lastName", "Reauth"),
        ("cgv", "1"),
        ("privacyPolicy", "1"),
    ];
    let res = post_form(&t, &v, "/gr/authentication/social/register", &fields).await;
    let (cookie, xsrf) = member_cookie(&res).expect("registered and signed in");
    let me = Visitor { cookie, xsrf };
    let change = |who: &Visitor| {
        let new_email = "solo.moved@example.test";
        t.client
            .post(t.url(&format!("{A}/email")))
            .header("cookie", &who.cookie)
            .header("X-XSRF-TOKEN", &who.xsrf)
            .json(&json!({"Email": new_email, "ConfirmEmail": new_email}))
            .send()
    };
    let res = change(&me).await.unwrap();
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error_code"], "reauthrequired", "{body}");
    let html = get(&t, &me, "/myaccount/memberdata")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("data-testid=\"reauth-with-google\""),
        "the provider's button"
    );
    assert!(
        !html.contains("data-testid=\"reauth-email-reauth\""),
        "no password field"
    );

    let again = |who: &Visitor| {
        let who = Visitor {
            cookie: who.cookie.clone(),
            xsrf: who.xsrf.clone(),
        };
        let t = &t;
        async move {
            let res = post_form(
                t,
                &who,
                app::auth::social::ui::REAUTH,
                &[
                    ("provider", "google"),
                    ("returnurl", "/myaccount/memberdata"),
                ],
            )
            .await;
            assert_eq!(res.status(), 303);
            location(&res)
        }
    };
    // An old check, then another Google account: refused, back on the form with why.
    for (at, why) in [
        ("solo.reauth+stale@example.test", "stale"),
        ("someone.else@example.test", "another account"),
    ] {
        let url = again(&me).await;
        assert_eq!(param(&url, "prompt"), "login", "{url}");
        assert_eq!(param(&url, "max_age"), "0", "{url}");
        let res = get(&t, &me, &at_provider(&t, &url, at).await).await;
        let to = location(&res);
        assert!(to.starts_with("/myaccount/memberdata"), "{why}: {to}");
        assert_eq!(param(&to, "error"), "reauth.social.failed", "{why}");
        assert!(member_cookie(&res).is_none(), "{why}: nobody new signed in");
        assert_eq!(change(&me).await.unwrap().status(), 403, "{why}");
    }
    // A provider the account is not linked to is not offered.
    let res = post_form(
        &t,
        &me,
        app::auth::social::ui::REAUTH,
        &[
            ("provider", "facebook"),
            ("returnurl", "/myaccount/memberdata"),
        ],
    )
    .await;
    assert_eq!(param(&location(&res), "error"), "reauth.social.failed");

    let url = again(&me).await;
    let res = get(&t, &me, &at_provider(&t, &url, email).await).await;
    let to = location(&res);
    assert_eq!(param(&to, "notice"), "reauth.social.fresh", "{to}");
    let html = get(&t, &me, &to).await.text().await.unwrap();
    assert!(html.contains("data-testid=\"reauth-fresh\""));
    // Another session of the same member is not made fresh.
    let member_id: i64 = sqlx::query_scalar("SELECT id FROM members WHERE email = $1")
        .bind(email)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let token = app::platform::session::create(
        &t.app.state.db,
        member_id,
        false,
        app::platform::state::now(),
    )
    .await
    .unwrap();
    let second = Visitor {
        cookie: format!(
            "{}={token}; XSRF-TOKEN={}",
            app::platform::session::COOKIE,
            crate::account::xsrf_for(&t, &token)
        ),
        xsrf: crate::account::xsrf_for(&t, &token),
    };
    assert_eq!(change(&second).await.unwrap().status(), 403);
    assert_eq!(change(&me).await.unwrap().status(), 200);
    // The window closes.
    sqlx::query(
        "UPDATE sessions SET reauth_at = reauth_at - 301 WHERE member_id = $1 AND reauth_at > 0",
    )
    .bind(member_id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(change(&me).await.unwrap().status(), 403);
    // The REST start: the provider's URL for a linked provider, 404 for another.
    let start_rest = |p: &str| {
        t.client
            .post(t.url(&format!("/api/authentication/v1/thirdparty/{p}/reauth")))
            .header("cookie", &me.cookie)
            .header("X-XSRF-TOKEN", &me.xsrf)
            .json(&json!({"returnUrl": "/myaccount"}))
            .send()
    };
    let res = start_rest("google").await.unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert!(body["authorizationUrl"]
        .as_str()
        .unwrap()
        .contains("prompt=login"));
    assert_eq!(start_rest("facebook").await.unwrap().status(), 404);
}

crate::social::both_social!(
    a_provider_member_signs_in_again,
    provider_member_signs_in_again_on_sqlite,
    provider_member_signs_in_again_on_postgres
);

//! Sign-in: password then second factor, a fresh token, lockout, replayed codes, set-up
//! links and recovery codes, sign-out, idle sessions.
use server::backoffice::{demo, totp};

use super::*;
use crate::helpers::{both, cookie_value, TestApp};

async fn password_then_code_then_a_fresh_session(t: TestApp) {
    let (res, pending) = password_step(&t, ADMIN, demo::PASSWORD).await;
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/backoffice/signin/code"));
    let pending = pending.unwrap();
    let set_cookie = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set_cookie.contains("Path=/backoffice")
            && set_cookie.contains("HttpOnly")
            && set_cookie.contains("SameSite=Strict"),
        "{set_cookie}"
    );
    // The password alone opens nothing.
    let res = t
        .get_with_cookie("/backoffice/sales", &format!("rosace_bo={pending}"))
        .await;
    assert_eq!(res.status(), 302);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/backoffice/signin"));
    // The pending session was ended by that visit: sign in again.
    let (_, pending) = password_step(&t, ADMIN, demo::PASSWORD).await;
    let res = code_step(&t, &pending.clone().unwrap(), &demo_code(), "").await;
    assert_eq!(res.status(), 303);
    let fresh = cookie_value(&res, "rosace_bo").unwrap();
    assert_ne!(
        Some(fresh.clone()),
        pending,
        "a new token after the second factor"
    );
    let res = t
        .get_with_cookie("/backoffice/sales", &format!("rosace_bo={fresh}"))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(audit_count(&t, "signin", "operator").await, 1);

    // The code just used, again (another browser): refused.
    let (_, pending) = password_step(&t, ADMIN, demo::PASSWORD).await;
    let step: i64 = t
        .count("SELECT totp_last_step FROM operators WHERE email = 'admin@rosace.test'")
        .await;
    let used = totp::code_at(demo::TOTP_SECRET, step as u64 * totp::STEP_SECS).unwrap();
    let res = code_step(&t, &pending.unwrap(), &used, "").await;
    assert_eq!(res.status(), 401, "a code is good once");
    assert!(res.text().await.unwrap().contains("already used"));

    // Sign-out ends the session on the server.
    let desk = Desk {
        cookie: format!("rosace_bo={fresh}"),
        xsrf: xsrf_of(
            &t.get_with_cookie("/backoffice/", &format!("rosace_bo={fresh}"))
                .await
                .text()
                .await
                .unwrap(),
        ),
    };
    let (status, location, _) = desk.post(&t, "/backoffice/signout", &[]).await;
    assert_eq!((status, location.as_str()), (303, "/backoffice/signin"));
    assert_eq!(desk.get(&t, "/backoffice/").await.0, 302);
}
both!(
    password_then_code_then_a_fresh_session,
    signin_on_sqlite,
    signin_on_postgres
);

async fn wrong_passwords_and_codes_lock_the_account(t: TestApp) {
    // A wrong password is refused in the operator's words, without saying which part was wrong.
    let (res, pending) = password_step(&t, MERCH, "not the password").await;
    assert_eq!(res.status(), 401);
    assert!(pending.is_none());
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Wrong email or password."));
    let (res, _) = password_step(&t, "nobody@rosace.test", "whatever").await;
    assert_eq!(res.status(), 401, "an unknown email gets the same answer");
    // Wrong codes: the fifth failure in a row (with the password above) locks the
    // account and ends the pending session.
    for attempt in 1..=4 {
        let (_, pending) = password_step(&t, MERCH, demo::PASSWORD).await;
        let res = code_step(&t, &pending.unwrap(), "000000", "").await;
        if attempt < 4 {
            assert_eq!(res.status(), 401, "wrong code {attempt}");
        } else {
            assert_eq!(res.status(), 303);
            assert_eq!(res.headers()["location"], "/backoffice/signin?locked=1");
        }
    }
    let locks = t
        .count("SELECT COUNT(*) FROM rate_limits WHERE bucket LIKE 'oplock:%' AND hits >= 5")
        .await;
    assert_eq!(
        locks, 1,
        "1 wrong password + 4 wrong codes: this address is locked out"
    );
    let (res, pending) = password_step(&t, MERCH, demo::PASSWORD).await;
    assert_eq!(res.status(), 429);
    assert!(pending.is_none());
    assert!(res.text().await.unwrap().contains("locked for 15 minutes"));
    // Another operator is not affected, nor this operator from another address (someone
    // who knows an operator's email cannot lock them out of their desk).
    sign_in(&t, ADMIN).await;
    sqlx::query("UPDATE rate_limits SET bucket = REPLACE(bucket, '127.0.0.1', '192.0.2.1') WHERE bucket LIKE 'oplock:%'")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    sign_in(&t, MERCH).await;
}
both!(
    wrong_passwords_and_codes_lock_the_account,
    lockout_on_sqlite,
    lockout_on_postgres
);

async fn a_set_up_link_chooses_password_and_second_factor(t: TestApp) {
    let admin = sign_in(&t, ADMIN).await;
    // Refused invitations keep what was typed and save nothing.
    let (status, _, html) = admin
        .post(
            &t,
            "/backoffice/operators/invite",
            &[
                ("email", "not-an-email"),
                ("name", "Zoé"),
                ("role", "moderator"),
                ("lang", "fr"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter a valid email address.") && html.contains("Zoé"));
    let (status, _, html) = admin
        .post(
            &t,
            "/backoffice/operators/invite",
            &[
                ("email", ADMIN),
                ("name", "Again"),
                ("role", "admin"),
                ("lang", "en"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("already exists"));
    assert_eq!(t.count("SELECT COUNT(*) FROM operators").await, 4);

    let (status, _, html) = admin
        .post(
            &t,
            "/backoffice/operators/invite",
            &[
                ("email", "Zoe@Example.test"),
                ("name", "Zoé"),
                ("role", "moderator"),
                ("lang", "fr"),
            ],
        )
        .await;
    assert_eq!(status, 200);
    let start = html
        .find("http://shop.test/backoffice/setup/")
        .expect("the set-up link is shown");
    let link = html[start + "http://shop.test".len()..]
        .split('<')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(audit_count(&t, "invite", "operator").await, 1);

    // The set-up page, in the operator's language.
    let page = t.get(&link).await;
    let pre = cookie_value(&page, "rosace_bo_pre").unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Créer votre compte opérateur"),
        "French for a French operator"
    );
    let secret = html
        .split(r#"name="secret" value=""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let post = |password: &'static str, code: String| {
        let (t, link, pre, secret, xsrf) = (
            &t,
            link.clone(),
            pre.clone(),
            secret.clone(),
            xsrf_of(&html),
        );
        async move {
            t.client
                .post(t.url(&link))
                .header("cookie", format!("rosace_bo_pre={pre}"))
                .form(&[
                    ("_xsrf", xsrf.as_str()),
                    ("password", password),
                    ("secret", secret.as_str()),
                    ("code", code.as_str()),
                ])
                .send()
                .await
                .unwrap()
        }
    };
    let res = post("short", "123456".into()).await;
    assert_eq!(res.status(), 422);
    let html_err = res.text().await.unwrap();
    assert!(
        html_err.contains("au moins 12 caractères") && html_err.contains(&secret),
        "the same key is kept"
    );
    let code = totp::code_at(&secret, now_secs()).unwrap();
    let res = post("a long enough passphrase", code).await;
    assert_eq!(res.status(), 200);
    let done = res.text().await.unwrap();
    let codes: Vec<String> = done
        .split("<li>")
        .skip(1)
        .map(|s| s.split('<').next().unwrap().to_string())
        .filter(|s| s.len() == 11 && s.as_bytes()[5] == b'-')
        .collect();
    assert_eq!(codes.len(), totp::RECOVERY_CODES);
    // The link works once.
    assert_eq!(t.get(&link).await.status(), 404);

    // Sign-in with a recovery code, once.
    let (res, pending) = password_step(&t, "zoe@example.test", "a long enough passphrase").await;
    assert_eq!(res.status(), 303);
    let res = code_step(&t, &pending.unwrap(), "", &codes[0].to_uppercase()).await;
    assert_eq!(res.status(), 303, "a recovery code in capitals");
    let (_, pending) = password_step(&t, "zoe@example.test", "a long enough passphrase").await;
    let res = code_step(&t, &pending.unwrap(), "", &codes[0]).await;
    assert_eq!(res.status(), 401, "used already");
}
both!(
    a_set_up_link_chooses_password_and_second_factor,
    setup_on_sqlite,
    setup_on_postgres
);

async fn an_idle_session_ends(t: TestApp) {
    let desk = sign_in(&t, CARE).await;
    sqlx::query("UPDATE operator_sessions SET last_seen_at = last_seen_at - 1801")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let res = t.get_with_cookie("/backoffice/sales", &desk.cookie).await;
    assert_eq!(res.status(), 302);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("expired=1"));
    assert_eq!(t.count("SELECT COUNT(*) FROM operator_sessions").await, 0);
}
both!(an_idle_session_ends, idle_on_sqlite, idle_on_postgres);

//! The account pages without scripts: they render for the member only, the forms post
//! (refused ones come back filled in with their messages, passwords never), CSRF holds.
use reqwest::Method;

use super::{login_result, member, row, Member, PASSWORD};
use crate::helpers::{both, cookie_value, TestApp};

/// Posts to the action's own route (`action` names it; it is not a field).
async fn post_form(t: &TestApp, m: &Member, fields: &[(&str, &str)]) -> reqwest::Response {
    let action = fields.iter().find(|(k, _)| *k == "action").unwrap().1;
    let mut all: Vec<(&str, &str)> = vec![("_xsrf", &m.xsrf)];
    all.extend(fields.iter().filter(|(k, _)| *k != "action"));
    t.client
        .post(t.url(&format!("/myaccount/form/{action}")))
        .header("cookie", m.cookie())
        .form(&all)
        .send()
        .await
        .unwrap()
}

/// Whether the page has the dialog `id` open (rendered with the `open` attribute).
fn dialog_open(html: &str, id: &str) -> bool {
    let Some(at) = html.find(&format!("<dialog id=\"{id}\"")) else {
        return false;
    };
    let tag = &html[at..at + html[at..].find('>').unwrap()];
    tag.split_whitespace()
        .any(|a| a == "open" || a.starts_with("open="))
}

fn location(res: &reqwest::Response) -> String {
    res.headers()["location"].to_str().unwrap().to_string()
}

async fn page(t: &TestApp, m: &Member, path: &str, extra_cookie: &str) -> String {
    let res = t
        .get_with_cookie(path, &format!("{}; {extra_cookie}", m.cookie()))
        .await;
    assert_eq!(res.status(), 200, "{path}");
    res.text().await.unwrap()
}

async fn pages_and_forms(t: TestApp) {
    // Signed out: the pages send to sign in.
    for path in ["/gr/myaccount", "/myaccount/memberdata"] {
        let res = t.get(path).await;
        assert_eq!(res.status(), 302, "{path}");
        assert!(location(&res).starts_with("/gr/authentication?ReturnUrl="));
    }
    let m = member(&t, 1).await;
    let html = page(&t, &m, "/gr/myaccount", "").await;
    for needle in [
        "Gérer",
        "Configurer mes communications",
        "Désactiver mon compte",
        "Supprimer définitivement mon compte",
        "href=\"/myaccount/memberdata\"",
        "href=\"/postsales/myaccount/addresses/\"",
        "href=\"/postsales/myaccount/wallet/\"",
        "href=\"/vouchers-promotions\"",
        "href=\"/communications\"",
        "data-enhance-region=\"profile\"",
        &m.email,
    ] {
        assert!(html.contains(needle), "{needle}");
    }
    let html = page(&t, &m, "/myaccount?tab=deactivate", "").await;
    assert!(html.contains("value=\"PRIVACY\"") && html.contains("pour mes données personnelles"));
    let html = page(
        &t,
        &m,
        "/myaccount?tab=deactivate&step=confirm&reason=OTHER",
        "",
    )
    .await;
    assert!(
        html.contains("data-testid=\"deactivate-confirm-form\"")
            && dialog_open(&html, "deactivate-dialog"),
        "the server-rendered confirmation step, in its open dialog"
    );
    assert!(
        html.contains("value=\"OTHER\" checked"),
        "the reason stays chosen"
    );
    let html = page(&t, &m, "/myaccount?tab=deactivate&step=confirm", "").await;
    assert!(html.contains("Choisissez une raison."), "no reason chosen");
    assert!(
        !html.contains("<dialog"),
        "no confirmation without a reason"
    );
    let html = page(&t, &m, "/myaccount?tab=delete", "").await;
    assert!(
        !html.contains("<dialog"),
        "no confirmation before it is asked"
    );
    let html = page(&t, &m, "/myaccount?tab=delete&step=confirm", "").await;
    assert!(
        html.contains("data-testid=\"delete-confirm-form\"") && dialog_open(&html, "delete-dialog")
    );
    let html = page(&t, &m, "/myaccount/memberdata", "").await;
    assert!(!dialog_open(&html, "email-dialog") && !dialog_open(&html, "password-dialog"));
    assert!(html.contains("value=\"Zoé\"") && html.contains("value=\"Durand\""));
    assert!(
        html.contains("data-key-filter=\"name\"") && html.contains("data-key-filter=\"digits\"")
    );

    // Without the token: 403 and nothing changes.
    let before = row(&t, m.id).await;
    let res = t
        .client
        .post(t.url("/myaccount/form/profile"))
        .header("cookie", m.cookie())
        .form(&[
            ("firstName", "Mallory"),
            ("lastName", "X"),
            ("gender", "Male"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(row(&t, m.id).await, before);

    // Refused profile: back filled in with each field's message, nothing stored.
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "profile"),
            ("gender", "Female"),
            ("firstName", "Zoé 2"),
            ("lastName", "Durand"),
            ("birthDate", "31/02/1990"),
            ("phone", "06 12"),
            ("jobId", "abc"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    assert!(location(&res).starts_with("/myaccount/memberdata?retry=1"));
    let draft = cookie_value(
        &res,
        <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE,
    )
    .unwrap();
    assert!(res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .contains("HttpOnly"));
    assert_eq!(row(&t, m.id).await, before);
    let html = page(
        &t,
        &m,
        "/myaccount/memberdata?retry=1",
        &format!(
            "{}={draft}",
            <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE
        ),
    )
    .await;
    for needle in [
        "value=\"Zoé 2\"",
        "value=\"31/02/1990\"",
        "Lettres, espaces, traits d'union et apostrophes uniquement",
        "Saisissez une date qui existe",
        "Le téléphone ne peut contenir que des chiffres",
        "Choisissez une profession de la liste",
        "aria-invalid=\"true\"",
        // Above the form: that fields are to correct, not "an error occurred, try again".
        "Certains champs sont à corriger",
    ] {
        assert!(html.contains(needle), "{needle}");
    }
    let above = html.split("data-form-error").nth(1).unwrap_or_default();
    let above = &above[..above.find("</p>").unwrap_or(0)];
    assert!(above.contains("Certains champs sont à corriger"), "{above}");

    // Accepted: the notice, and the data is stored.
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "profile"),
            ("gender", "Male"),
            ("firstName", "Jean"),
            ("lastName", "Martin"),
            ("birthDate", "01/02/1970"),
            ("phone", "0612345678"),
            ("jobId", "3"),
        ],
    )
    .await;
    assert!(
        location(&res)
            .starts_with("/myaccount/memberdata?notice=myprofile.text.personaldata.notification"),
        "{}",
        location(&res)
    );
    let html = page(&t, &m, &location(&res), "").await;
    assert!(
        html.contains("Vos données personnelles ont été enregistrées.")
            && html.contains("value=\"Jean\"")
    );
    assert!(html.contains("<option value=\"3\" selected"));

    // Email: refused then asked; the confirmation step of the link's page posts too.
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "email"),
            ("Email", "neu@example.com"),
            ("ConfirmEmail", "other@example.com"),
        ],
    )
    .await;
    let draft = cookie_value(
        &res,
        <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE,
    )
    .unwrap();
    let html = page(
        &t,
        &m,
        "/myaccount/memberdata?retry=1",
        &format!(
            "{}={draft}",
            <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE
        ),
    )
    .await;
    assert!(
        html.contains("value=\"neu@example.com\"")
            && html.contains("Les deux adresses e-mail ne sont pas identiques.")
    );
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "email"),
            ("Email", "neu@example.com"),
            ("ConfirmEmail", "neu@example.com"),
            ("currentPassword", PASSWORD),
        ],
    )
    .await;
    assert!(
        location(&res)
            .starts_with("/myaccount/memberdata?dialog=email&notice=myprofile.email.notification"),
        "{}",
        location(&res)
    );
    let link = super::link_in(super::mails_to(&t, "neu@example.com").last().unwrap());
    let path = link.trim_start_matches("http://shop.test");
    let cypher = path.rsplit('=').next().unwrap();
    let html = page(&t, &m, path, "").await;
    assert!(
        html.contains("data-testid=\"confirm-email-form\"")
            && html.contains("En attente de confirmation : neu@example.com")
    );
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "confirm_email"),
            ("cypher", "ffffffffffffffffffffffffffffffff"),
        ],
    )
    .await;
    assert!(
        location(&res).starts_with("/myaccount/memberdata?error=myprofile.email.error.link"),
        "{}",
        location(&res)
    );
    let res = post_form(&t, &m, &[("action", "confirm_email"), ("cypher", cypher)]).await;
    assert!(
        location(&res).starts_with("/myaccount/memberdata?notice=myprofile.email.confirmed"),
        "{}",
        location(&res)
    );
    let html = page(&t, &m, "/myaccount/memberdata", "").await;
    assert!(html.contains("Adresse e-mail : neu@example.com"));

    // Password: refused with its code's message and no password echoed; then changed,
    // which rotates the session cookie.
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "password"),
            ("currentPassword", PASSWORD),
            ("password", "Nouveau-Jardin-7"),
            ("confirmPassword", "Nouveau-Jardin-8"),
        ],
    )
    .await;
    let draft = cookie_value(
        &res,
        <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE,
    )
    .unwrap();
    let html = page(
        &t,
        &m,
        "/myaccount/memberdata?retry=1",
        &format!(
            "{}={draft}",
            <app::account::ui::draft::Draft as app::ui::draft::FormDraft>::COOKIE
        ),
    )
    .await;
    assert!(html.contains("Les deux mots de passe ne sont pas identiques."));
    assert!(!html.contains("Nouveau-Jardin") && !html.contains(PASSWORD));
    let res = post_form(
        &t,
        &m,
        &[
            ("action", "password"),
            ("currentPassword", PASSWORD),
            ("password", "Nouveau-Jardin-7"),
            ("confirmPassword", "Nouveau-Jardin-7"),
        ],
    )
    .await;
    assert!(
        location(&res).starts_with(
            "/myaccount/memberdata?dialog=password&notice=myprofile.password.notification"
        ),
        "{}",
        location(&res)
    );
    let m2 = m.rotated(&res);
    assert_ne!(m2.xsrf, m.xsrf, "a new session, a new token");
    let html = page(&t, &m2, &location(&res), "").await;
    assert!(dialog_open(&html, "password-dialog") && !dialog_open(&html, "email-dialog"));
    assert_eq!(m.call(&t, Method::GET, super::A, None).await.0, 401);
    assert_eq!(m2.call(&t, Method::GET, super::A, None).await.0, 200);

    // Deactivate without a reason: the confirmation step asks again; with one: signed out.
    let res = post_form(&t, &m2, &[("action", "deactivate"), ("reason", "nope")]).await;
    assert!(
        location(&res).starts_with("/myaccount?tab=deactivate&step=confirm"),
        "{}",
        location(&res)
    );
    let res = post_form(
        &t,
        &m2,
        &[
            ("action", "deactivate"),
            ("reason", "OTHER"),
            ("currentPassword", "Nouveau-Jardin-7"),
        ],
    )
    .await;
    assert!(
        location(&res).starts_with("/gr/authentication?info=account.deactivate.done"),
        "{}",
        location(&res)
    );
    let html = t.get(&location(&res)).await.text().await.unwrap();
    assert!(html.contains("Votre compte est désactivé. Vous avez été déconnecté."));
    assert_eq!(
        login_result(&t, "neu@example.com", "Nouveau-Jardin-7", 1).await,
        6
    );

    // Delete forever through its confirmation step.
    let d = member(&t, 1).await;
    let res = post_form(
        &t,
        &d,
        &[("action", "delete"), ("currentPassword", PASSWORD)],
    )
    .await;
    assert!(
        location(&res).starts_with("/gr/authentication?info=account.delete.done"),
        "{}",
        location(&res)
    );
    assert_eq!(d.call(&t, Method::GET, super::A, None).await.0, 401);
    assert_eq!(login_result(&t, &d.email, PASSWORD, 1).await, 2);
}
both!(
    pages_and_forms,
    pages_and_forms_on_sqlite,
    pages_and_forms_on_postgres
);

//! The help-articles editor: customer care edits the French article on delivery times and
//! the very next question of a French member is answered from the edited text (a word only
//! the edit has finds it), other languages keep theirs, "back to the original text" brings
//! the bundled one back; bad input and unknown articles are refused with nothing changed;
//! a form showing an older version is told (409) and overwrites nothing; roles.
use reqwest::Method;
use serde_json::Value;

use super::*;
use crate::help::{message, ANSWER};
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

const FR_DELIVERY: &str = "/backoffice/help/fr/delivery-times";
const ZEPPELIN_TITLE: &str = "Livraison par zeppelin";
const ZEPPELIN_BODY: &str = "Nos colis voyagent désormais en zeppelin : le dirigeable se pose chez vous 3 jours après la clôture de la vente.";
/// Words only the edited text has.
const ZEPPELIN_QUESTION: &str = "Le dirigeable zeppelin est-il prévu ?";

/// The version field of an article's first form.
fn version_of(html: &str) -> String {
    let start = html.find(r#"name="version" value=""#).expect("a version")
        + r#"name="version" value=""#.len();
    html[start..].split('"').next().unwrap().to_string()
}

async fn version(t: &TestApp, desk: &Desk, path: &str) -> String {
    let (status, html) = desk.get(t, path).await;
    assert_eq!(status, 200, "{path}");
    version_of(&html)
}

/// The automatic answer to a question: the article's id and text, or none.
async fn asked(t: &TestApp, member: &Shopper, question: &str) -> Option<(String, String)> {
    let (status, found) = member
        .call(
            t,
            Method::POST,
            ANSWER,
            Some(message("other", question, None)),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    let a = &found["answer"];
    (a != &Value::Null).then(|| {
        (
            a["articleId"].as_str().unwrap().to_string(),
            a["body"].as_str().unwrap().to_string(),
        )
    })
}

fn bundled_body(lang: &str, id: &str) -> String {
    app::help::kb::articles(lang)
        .into_iter()
        .find(|a| a.id == id)
        .unwrap()
        .body
}

async fn stored_body(t: &TestApp, lang: &str, id: &str) -> Option<String> {
    sqlx::query_scalar("SELECT body FROM help_articles WHERE lang = $1 AND article_id = $2")
        .bind(lang)
        .bind(id)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn an_edit_answers_at_once_and_restores(t: TestApp) {
    let french = shopper(&t, 2).await;
    let mut german = shopper(&t, 2).await;
    sqlx::query("UPDATE members SET site_id = 2 WHERE id = $1")
        .bind(german.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    german.cookie.push_str("; site=2");
    let delivery_fr = "Quand vais-je recevoir ma commande ? La livraison est en retard";
    let delivery_de = "Wann kommt meine Lieferung an? Sie hat Verspätung";
    assert_eq!(asked(&t, &french, ZEPPELIN_QUESTION).await, None);
    let german_before = asked(&t, &german, delivery_de).await.unwrap();
    assert_eq!(
        german_before,
        (
            "delivery-times".into(),
            bundled_body("de", "delivery-times")
        )
    );

    // The list, per language, every article at its original text.
    let care = sign_in(&t, CARE).await;
    let (status, list) = care.get(&t, "/backoffice/help").await;
    assert_eq!(status, 200);
    assert!(list.contains(r#"data-article="delivery-times" data-state="original""#));
    assert!(list.contains(r#"href="/backoffice/help?lang=nl""#));
    let (_, dutch) = care.get(&t, "/backoffice/help?lang=nl").await;
    assert!(dutch.contains(r#"data-lang="nl""#));

    // Care edits the French article; the next French question gets the new text.
    let v = version(&t, &care, FR_DELIVERY).await;
    let (status, location, _) = care
        .post(
            &t,
            FR_DELIVERY,
            &[
                ("version", v.as_str()),
                ("title", ZEPPELIN_TITLE),
                ("body", ZEPPELIN_BODY),
            ],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(location, format!("{FR_DELIVERY}?done=saved"));
    assert_eq!(
        asked(&t, &french, delivery_fr).await,
        Some(("delivery-times".into(), ZEPPELIN_BODY.into()))
    );
    assert_eq!(
        asked(&t, &french, ZEPPELIN_QUESTION)
            .await
            .map(|(id, _)| id)
            .as_deref(),
        Some("delivery-times"),
        "a word only the edit has finds the article"
    );
    assert_eq!(
        asked(&t, &german, delivery_de).await,
        Some(german_before.clone())
    );
    assert_eq!(audit_count(&t, "update", "help_article").await, 1);
    let object: String = sqlx::query_scalar(
        "SELECT object_id FROM audit_log WHERE object_kind = 'help_article' AND action = 'update'",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(object, "fr/delivery-times");
    let (_, page) = care.get(&t, &format!("{FR_DELIVERY}?done=saved")).await;
    assert!(page.contains(ZEPPELIN_BODY) && page.contains(r#"data-state="edited""#));
    let (_, list) = care.get(&t, "/backoffice/help?lang=fr").await;
    assert!(list.contains(r#"data-article="delivery-times" data-state="edited""#));
    let (_, list) = care.get(&t, "/backoffice/help?lang=de").await;
    assert!(list.contains(r#"data-article="delivery-times" data-state="original""#));

    // Bad input: the form comes back with the reason and the text; nothing changes.
    let v = version(&t, &care, FR_DELIVERY).await;
    let long = "x".repeat(5001);
    for (title, body, reason) in [
        ("  ", "Un texte.", "Enter a title of 1 to 120 characters."),
        ("Un titre", " \n ", "Enter a text of 1 to 5000 characters."),
        (
            "Un titre",
            long.as_str(),
            "Enter a text of 1 to 5000 characters.",
        ),
    ] {
        let fields = [("version", v.as_str()), ("title", title), ("body", body)];
        let (status, _, html) = care.post(&t, FR_DELIVERY, &fields).await;
        assert_eq!(status, 400, "{title:?}");
        assert!(
            html.contains(r#"role="alert""#) && html.contains(reason),
            "{title:?}"
        );
    }
    for path in [
        "/backoffice/help/xx/delivery-times",
        "/backoffice/help/fr/no-such-article",
    ] {
        let fields = [("version", v.as_str()), ("title", "T"), ("body", "B")];
        assert_eq!(care.post(&t, path, &fields).await.0, 404, "{path}");
        assert_eq!(care.get(&t, path).await.0, 404, "{path}");
        let restore = format!("{path}/restore");
        assert_eq!(
            care.post(&t, &restore, &[("version", v.as_str())]).await.0,
            404
        );
    }
    assert_eq!(
        stored_body(&t, "fr", "delivery-times").await.as_deref(),
        Some(ZEPPELIN_BODY)
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM help_articles").await, 1);
    assert_eq!(version(&t, &care, FR_DELIVERY).await, v);

    // Back to the original text.
    let (status, location, _) = care
        .post(
            &t,
            &format!("{FR_DELIVERY}/restore"),
            &[("version", v.as_str())],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(location, format!("{FR_DELIVERY}?done=restored"));
    assert_eq!(stored_body(&t, "fr", "delivery-times").await, None);
    assert_eq!(audit_count(&t, "restore", "help_article").await, 1);
    assert_eq!(
        asked(&t, &french, delivery_fr).await,
        Some((
            "delivery-times".into(),
            bundled_body("fr", "delivery-times")
        ))
    );
    assert_eq!(asked(&t, &french, ZEPPELIN_QUESTION).await, None);
    let (_, page) = care.get(&t, FR_DELIVERY).await;
    assert!(page.contains(r#"data-state="original""#) && !page.contains(r#"id="restore""#));
}
both!(
    an_edit_answers_at_once_and_restores,
    help_articles_edit_on_sqlite,
    help_articles_edit_on_postgres
);

async fn a_stale_form_overwrites_nothing(t: TestApp) {
    const REFUNDS: &str = "/backoffice/help/fr/refunds";
    let care = sign_in(&t, CARE).await;
    let admin = sign_in(&t, ADMIN).await;
    let seen = version(&t, &care, REFUNDS).await;
    assert_eq!(version(&t, &admin, REFUNDS).await, seen);

    // The admin saves first; care, on the same version, is told and keeps their text.
    let admins = [
        ("version", seen.as_str()),
        ("title", "Remboursements"),
        ("body", "Le texte de la responsable, enregistré en premier."),
    ];
    assert_eq!(admin.post(&t, REFUNDS, &admins).await.0, 303);
    let cares = [
        ("version", seen.as_str()),
        ("title", "Remboursement rapide"),
        ("body", "Le texte de care, écrit en même temps."),
    ];
    let (status, _, html) = care.post(&t, REFUNDS, &cares).await;
    assert_eq!(status, 409);
    assert!(html.contains(r#"id="article-changed""#) && html.contains(r#"role="alert""#));
    assert!(
        html.contains("Le texte de care, écrit en même temps."),
        "their text back"
    );
    assert!(
        html.contains("Le texte de la responsable, enregistré en premier."),
        "what is saved now"
    );
    assert_eq!(
        stored_body(&t, "fr", "refunds").await.as_deref(),
        Some("Le texte de la responsable, enregistré en premier.")
    );
    assert_eq!(audit_count(&t, "update", "help_article").await, 1);
    // The form they got back carries the version now saved: sending it is their choice.
    let now = version_of(&html);
    assert_ne!(now, seen);
    let again = [cares[1], cares[2], ("version", now.as_str())];
    assert_eq!(care.post(&t, REFUNDS, &again).await.0, 303);
    assert_eq!(
        stored_body(&t, "fr", "refunds").await.as_deref(),
        Some("Le texte de care, écrit en même temps.")
    );

    // A restore from an older page does not throw away the newer edit.
    let (status, _, _) = admin
        .post(
            &t,
            &format!("{REFUNDS}/restore"),
            &[("version", now.as_str())],
        )
        .await;
    assert_eq!(status, 409);
    assert!(stored_body(&t, "fr", "refunds").await.is_some());

    // Versions go on across a restore: a form from before it cannot overwrite an edit
    // made after it.
    let before_restore = version(&t, &admin, REFUNDS).await;
    let restore = [("version", before_restore.as_str())];
    assert_eq!(
        admin
            .post(&t, &format!("{REFUNDS}/restore"), &restore)
            .await
            .0,
        303
    );
    let fresh = version(&t, &care, REFUNDS).await;
    let edit = [
        ("version", fresh.as_str()),
        ("title", "Remboursements"),
        (
            "body",
            "Une nouvelle version après le retour au texte d'origine.",
        ),
    ];
    assert_eq!(care.post(&t, REFUNDS, &edit).await.0, 303);
    let stale = [
        ("version", before_restore.as_str()),
        ("title", "Remboursements"),
        (
            "body",
            "Une page ouverte avant le retour au texte d'origine.",
        ),
    ];
    assert_eq!(admin.post(&t, REFUNDS, &stale).await.0, 409);
    assert_eq!(
        stored_body(&t, "fr", "refunds").await.as_deref(),
        Some("Une nouvelle version après le retour au texte d'origine.")
    );

    // Roles: merchandisers and moderators neither read nor write the articles.
    let rows = t.count("SELECT COUNT(*) FROM help_articles").await;
    let writes = t
        .count("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'help_article'")
        .await;
    for email in [MERCH, MODERATOR] {
        let desk = sign_in(&t, email).await;
        let (status, home) = desk.get(&t, "/backoffice/").await;
        assert_eq!(status, 200);
        assert!(
            !home.contains(r#"href="/backoffice/help""#),
            "{email}: no link"
        );
        for path in ["/backoffice/help", REFUNDS] {
            assert_eq!(desk.get(&t, path).await.0, 403, "{email} {path}");
        }
        let fields = [("version", fresh.as_str()), ("title", "T"), ("body", "B")];
        assert_eq!(desk.post(&t, REFUNDS, &fields).await.0, 403, "{email}");
        let restore = format!("{REFUNDS}/restore");
        let fields = [("version", fresh.as_str())];
        assert_eq!(desk.post(&t, &restore, &fields).await.0, 403, "{email}");
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM help_articles").await, rows);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'help_article'")
            .await,
        writes
    );
}
both!(
    a_stale_form_overwrites_nothing,
    help_articles_conflict_on_sqlite,
    help_articles_conflict_on_postgres
);

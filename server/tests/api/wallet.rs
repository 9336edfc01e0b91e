//! Wallet over HTTP on SQLite and PostgreSQL: bank details validated for real
//! and sealed at rest, masked on the way out, refused input storing nothing, another
//! member's ids answering 404, the no-script form, cards saved at checkout.
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{option_with_stock, shopper, Shopper, SHOPPER_PASSWORD};
use crate::helpers::{both, TestApp};

const W: &str = "/api/postsales/v1/wallet";
const GOOD: &str = "fr14 2004 1010 0505 0001 3m02 606";

fn bank(iban: &str, bic: &str, owner: &str, confirmation: bool) -> Value {
    json!({ "iban": iban, "bic": bic, "ownerName": owner, "confirmation": confirmation,
            "currentPassword": SHOPPER_PASSWORD })
}

async fn raw(t: &TestApp, s: &Shopper, method: Method, path: &str, body: &str) -> (u16, Value) {
    let res = s
        .client
        .request(method, t.url(path))
        .header("cookie", &s.cookie)
        .header("X-XSRF-TOKEN", &s.xsrf)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn rows(t: &TestApp) -> i64 {
    t.count("SELECT COUNT(*) FROM member_bank_details").await
}

fn field_keys(body: &Value) -> Vec<(String, String)> {
    body["fieldErrors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["field"].as_str().unwrap().to_string(),
                        f["messageKey"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

async fn bank_details(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (status, empty) = a.call(&t, Method::GET, W, None).await;
    assert_eq!(status, 200);
    assert_eq!(empty, json!({ "iban": null, "paymentMethods": [] }));

    // Refused input: the spec's message, one flag per faulty field, nothing stored.
    let post = format!("{W}/bankdetails");
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            &post,
            Some(bank(
                "FR1520041010050500013M02606",
                "BNPAFRPP",
                "Marie Curie",
                true,
            )),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        err["error_description"],
        "errors.something_wrong.notification"
    );
    assert_eq!(
        field_keys(&err),
        [(
            "iban".to_string(),
            "wallet.errors.iban_check_digits".to_string()
        )]
    );
    let (status, err) = a.call(&t, Method::POST, &post, Some(json!({}))).await;
    assert_eq!(status, 400);
    let fields: Vec<String> = field_keys(&err).into_iter().map(|(f, _)| f).collect();
    assert_eq!(fields, ["iban", "bic", "ownerName", "confirmation"]);
    // Far past every field's limit, within the 64 KB body limit (limits.rs tests that).
    let long = "9".repeat(15_000);
    for body in [
        bank(&long, &long, &long, true),
        bank("ΔΕ89370400440532013000", "ΔEUTDEFF", "Γιώργος 😀", true),
        bank(
            "DE89 3704 0044 0532 0130 00",
            "DEUTDEFF",
            "Max Muster",
            false,
        ),
        bank("SA0380000000608010167519", "DEUTDEFF", "Max", true),
    ] {
        let (status, err) = a.call(&t, Method::POST, &post, Some(body)).await;
        assert_eq!(
            (status, err["error_description"].as_str()),
            (400, Some("errors.something_wrong.notification"))
        );
    }
    for body in [
        "{not json",
        "[]",
        r#"{"iban": 12, "confirmation": "yes"}"#,
        "",
    ] {
        let (status, err) = raw(&t, &a, Method::POST, &post, body).await;
        assert_eq!(
            (status, err["error_code"].as_str()),
            (400, Some("bad_request")),
            "{body}"
        );
    }
    assert_eq!(rows(&t).await, 0);

    // Saved: spaces and lower case accepted, shown masked, sealed at rest.
    let (status, saved) = a
        .call(
            &t,
            Method::POST,
            &post,
            Some(bank(GOOD, "bnpa fr pp", "  Marie   Curie ", true)),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let iban = &saved["iban"];
    assert_eq!(iban["masked"], "FR•• •••• •••• •••• •••• •••2 606");
    assert_eq!(
        (iban["country"].as_str(), iban["last4"].as_str()),
        (Some("FR"), Some("2606"))
    );
    assert_eq!(
        (iban["bic"].as_str(), iban["ownerName"].as_str()),
        (Some("BNPAFRPP"), Some("Marie Curie"))
    );
    assert!(!saved.to_string().contains("20041010"));
    let (_, read) = a.call(&t, Method::GET, W, None).await;
    assert_eq!(read, saved);
    let (nonce, sealed): (Vec<u8>, Vec<u8>) = sqlx::query_as(
        "SELECT iban_nonce, iban_sealed FROM member_bank_details WHERE member_id = $1",
    )
    .bind(a.member_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(nonce.len(), 24);
    assert!(!sealed.windows(8).any(|w| w == b"20041010"));
    let revealed =
        app::wallet::service::reveal_iban(&t.app.state.db, &t.app.settings.wallet_key, a.member_id)
            .await
            .unwrap();
    assert_eq!(revealed.as_deref(), Some("FR1420041010050500013M02606"));
    // Stored in the data directory, so a restart reads it back.
    let key_file = std::path::Path::new(&t.app.config.data_dir).join("wallet.key");
    assert_eq!(std::fs::read_to_string(key_file).unwrap().trim().len(), 64);

    // A second save replaces the first: one account per member.
    let (status, replaced) = a
        .call(
            &t,
            Method::POST,
            &post,
            Some(bank(
                "DE89370400440532013000",
                "DEUTDEFF",
                "Marie Curie",
                true,
            )),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(replaced["iban"]["last4"], "3000");
    assert_eq!(rows(&t).await, 1);
    let guid = replaced["iban"]["id"].as_str().unwrap().to_string();

    // Another member reaches none of it; no session, no XSRF: refused.
    let b = shopper(&t, 2).await;
    let (status, _) = b
        .call(&t, Method::DELETE, &format!("{W}/bankdetails/{guid}"), None)
        .await;
    assert_eq!(status, 404);
    let (_, theirs) = b.call(&t, Method::GET, W, None).await;
    assert_eq!(theirs["iban"], Value::Null);
    for bad in ["nope", "x%27%3B%20DROP%20TABLE%20members", &"f".repeat(500)] {
        let (status, _) = a
            .call(&t, Method::DELETE, &format!("{W}/bankdetails/{bad}"), None)
            .await;
        assert_eq!(status, 404, "{bad}");
    }
    let anonymous = t.client.get(t.url(W)).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let no_xsrf = t
        .client
        .delete(t.url(&format!("{W}/bankdetails/{guid}")))
        .header("cookie", &a.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(no_xsrf.status(), 403);
    assert_eq!(rows(&t).await, 1);

    // The member deletes their own.
    let (status, after) = a
        .call(&t, Method::DELETE, &format!("{W}/bankdetails/{guid}"), None)
        .await;
    assert_eq!((status, &after["iban"]), (200, &Value::Null));
    assert_eq!(rows(&t).await, 0);

    // IBAN info, before saving.
    let (status, info) = a
        .call(
            &t,
            Method::POST,
            &format!("{W}/ibaninfo"),
            Some(json!({ "iban": "nl91 abna 0417 1643 00" })),
        )
        .await;
    assert_eq!(
        (status, info["valid"].as_bool(), info["country"].as_str()),
        (200, Some(true), Some("NL"))
    );
    let (_, info) = a
        .call(
            &t,
            Method::POST,
            &format!("{W}/ibaninfo"),
            Some(json!({ "iban": "NL91ABNA0417164301" })),
        )
        .await;
    assert_eq!(info["messageKey"], "wallet.errors.iban_check_digits");
}

both!(
    bank_details,
    bank_details_on_sqlite,
    bank_details_on_postgres
);

async fn cards_saved_at_checkout(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 3, 5).await;
    let add = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    assert_eq!(
        a.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
            .await
            .0,
        201
    );
    let pipe = "/api/cartproxy/orderpiper/cart/v3";
    let (_, frozen) = a.call(&t, Method::GET, pipe, None).await;
    let hash = frozen["cartHash"].as_str().unwrap();
    let pay = json!({ "cartHash": hash, "card": "4242 4242 4242 4242", "saveCard": true });
    let (status, paid) = a
        .call(&t, Method::POST, &format!("{pipe}/pay"), Some(pay))
        .await;
    assert_eq!(status, 200, "{paid}");
    let (_, wallet) = a.call(&t, Method::GET, W, None).await;
    let cards = wallet["paymentMethods"].as_array().unwrap();
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0]["last4"], "4242");
    assert!(!wallet.to_string().contains("4242424242424242"));
    let token: String =
        sqlx::query_scalar("SELECT token FROM member_payment_methods WHERE member_id = $1")
            .bind(a.member_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert!(token.starts_with("sbx_card_") && !token.contains("4242"));
    let guid = cards[0]["guid"].as_str().unwrap().to_string();

    // Not another member's to delete; the owner's delete works once.
    let b = shopper(&t, 2).await;
    assert_eq!(
        b.call(
            &t,
            Method::DELETE,
            &format!("{W}/paymentmethods/{guid}"),
            None
        )
        .await
        .0,
        404
    );
    let (status, after) = a
        .call(
            &t,
            Method::DELETE,
            &format!("{W}/paymentmethods/{guid}"),
            None,
        )
        .await;
    assert_eq!(
        (status, after["paymentMethods"].as_array().unwrap().len()),
        (200, 0)
    );
    assert_eq!(
        a.call(
            &t,
            Method::DELETE,
            &format!("{W}/paymentmethods/{guid}"),
            None
        )
        .await
        .0,
        404
    );
}

both!(
    cards_saved_at_checkout,
    cards_saved_at_checkout_on_sqlite,
    cards_saved_at_checkout_on_postgres
);

/// Without scripts: a refused form comes back filled in with its flags; a good one is saved.
async fn form_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let form = |iban: &str, confirm: bool| {
        let mut f = vec![
            ("_xsrf", a.xsrf.clone()),
            ("iban", iban.into()),
            ("bic", "DEUTDEFF".into()),
            ("ownerName", "Max Muster".into()),
            ("currentPassword", SHOPPER_PASSWORD.into()),
        ];
        if confirm {
            f.push(("confirmation", "1".into()));
        }
        f
    };
    let post = |f: Vec<(&'static str, String)>| {
        a.client
            .post(t.url("/postsales/myaccount/wallet/form/save"))
            .header("cookie", &a.cookie)
            .form(&f)
            .send()
    };
    let res = post(form("DE88370400440532013000", true)).await.unwrap();
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/postsales/myaccount/wallet/?retry=1"));
    let draft = crate::helpers::cookie_value(&res, "rosace_wallet_form").unwrap();
    assert_eq!(rows(&t).await, 0);
    let page = t
        .get_with_cookie(
            "/postsales/myaccount/wallet/?retry=1",
            &format!("{}; rosace_wallet_form={draft}", a.cookie),
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("value=\"DE88370400440532013000\""),
        "the typed IBAN is kept"
    );
    assert!(
        page.contains("Cet IBAN contient une erreur"),
        "the IBAN's flag shows"
    );

    let res = post(form("DE89370400440532013000", true)).await.unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.contains("notice=myprofile.text.bank_details.notification"),
        "{location}"
    );
    let page = t
        .get_with_cookie(&location, &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("DE•• •••• •••• •••• ••30 00"));
    assert!(page.contains("Vos coordonnées bancaires ont bien été enregistrées."));
    assert!(!page.contains("DE89370400440532013000"));

    // A form without its token changes nothing.
    let mut f = form("DE89370400440532013000", true);
    f[0].1 = "forged".into();
    assert_eq!(post(f).await.unwrap().status(), 403);
}

both!(
    form_without_scripts,
    form_without_scripts_on_sqlite,
    form_without_scripts_on_postgres
);

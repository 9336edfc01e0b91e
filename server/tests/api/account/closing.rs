//! Deactivate (reason kept, every session ended, login code 6) and delete forever
//! (personal data erased, orders kept without it, holds given back, the email free).
use reqwest::Method;
use serde_json::json;

use super::{field_keys, login_result, mails_to, member, row, A, PASSWORD};
use crate::helpers::cart::option_with_stock;
use crate::helpers::{both, cookie_value, TestApp};

async fn deactivate(t: TestApp) {
    let m = member(&t, 2).await;
    let other_browser = m.another_session(&t).await;
    let (status, reasons) = m
        .call(&t, Method::GET, &format!("{A}/deactivation/reasons"), None)
        .await;
    assert_eq!(status, 200);
    let reasons = reasons["reasons"].as_array().unwrap().clone();
    assert_eq!(reasons.len(), 6);
    assert_eq!(
        reasons[0],
        json!({ "label": "Ich erhalte zu viele E-Mails", "value": "TOO_MANY_EMAILS" })
    );

    let post = format!("{A}/deactivate");
    let before = row(&t, m.id).await;
    // (The reason is checked before the password: these need none to be refused.)
    for body in [
        json!({ "reason": "" }),
        json!({ "reason": "privacy" }),
        json!({ "reason": "🌹".repeat(10_000) }),
        json!({}),
    ] {
        let (status, err) = m.call(&t, Method::POST, &post, Some(body.clone())).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            err["error_description"],
            "errors.general_retry.notification"
        );
        assert_eq!(
            field_keys(&err),
            [(
                "reason".to_string(),
                "account.deactivate.error.reason".to_string()
            )]
        );
    }
    assert_eq!(
        m.raw(&t, Method::POST, &post, Some("reason=OTHER")).await.0,
        400
    );
    assert_eq!(row(&t, m.id).await, before);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM member_deactivations").await,
        0
    );

    let res = m
        .send(
            &t,
            Method::POST,
            &post,
            Some(&json!({ "reason": "PRIVACY", "currentPassword": PASSWORD }).to_string()),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        cookie_value(&res, app::platform::session::COOKIE).as_deref(),
        Some(""),
        "cookie cleared"
    );
    let done: serde_json::Value = res.json().await.unwrap();
    assert_eq!(done["msgKey"], "account.deactivate.done");
    for session in [&m, &other_browser] {
        assert_eq!(session.call(&t, Method::GET, A, None).await.0, 401);
    }
    let (status, reason): (i64, String) = sqlx::query_as(
        "SELECT m.status, d.reason FROM members m JOIN member_deactivations d ON d.member_id = m.id WHERE m.id = $1",
    )
    .bind(m.id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!((status, reason.as_str()), (2, "PRIVACY"));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sessions WHERE member_id = {}",
            m.id
        ))
        .await,
        0
    );
    assert_eq!(login_result(&t, &m.email, PASSWORD, 2).await, 6);
    assert_eq!(
        login_result(&t, &m.email, "wrong-password", 2).await,
        3,
        "the state needs the password"
    );
    let mails = mails_to(&t, &m.email);
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].contains("/gr/authentication?step=secure&token="),
        "the notice lets the member secure the account: {}",
        mails[0]
    );
}
both!(deactivate, deactivate_on_sqlite, deactivate_on_postgres);

/// Gives the member one row in most account tables, an order with its address copy, a
/// cart line holding stock.
async fn fill(t: &TestApp, id: i64) -> (i64, i64) {
    let db = &t.app.state.db.pool;
    let option = option_with_stock(t, 0, 5).await;
    let (product, sale): (i64, i64) = sqlx::query_as("SELECT p.id, p.sale_id FROM product_options o JOIN products p ON p.id = o.product_id WHERE o.id = $1")
        .bind(option)
        .fetch_one(db)
        .await
        .unwrap();
    let statements = [
        format!("UPDATE members SET phone = '0612345678', birth_date = '1985-08-15', zip_code = '75002', city = 'Paris' WHERE id = {id}"),
        format!("INSERT INTO member_addresses (member_id, first_name, last_name, details, extras, zip_code, city, country, phone, is_favorite, created_at, updated_at) VALUES ({id}, 'Zoé', 'Durand', '1 rue de la Paix', '', '75002', 'Paris', 'FR', '0612345678', 1, 0, 0)"),
        format!("INSERT INTO favourites (member_id, product_id, sale_id, created_at) VALUES ({id}, {product}, {sale}, 0)"),
        format!("INSERT INTO search_queries (member_id, site_id, query, query_key, created_at) VALUES ({id}, 1, 'robe', 'robe', 0)"),
        format!("INSERT INTO member_communications (member_id, channel, model, updated_at) VALUES ({id}, 'ALL', 'ALL', 0)"),
        format!("INSERT INTO member_consent_events (member_id, consent, granted, created_at) VALUES ({id}, 'optin_email', 1, 0)"),
        format!("INSERT INTO member_payment_methods (guid, member_id, provider, token, brand, last4, created_at) VALUES ('g{id}', {id}, 'sandbox', 'tok', 'VISA', '4242', 0)"),
        format!("INSERT INTO cart_items (member_id, option_id, product_id, sale_id, quantity, created_at, expires_at) VALUES ({id}, {option}, {product}, {sale}, 2, 0, 9999999999)"),
        format!("UPDATE product_options SET held = 2 WHERE id = {option}"),
        format!("INSERT INTO carts (member_id, site_id, updated_at) VALUES ({id}, 1, 0)"),
        format!("INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping, loyalty, total, currency, payment_reference, created_at, updated_at) VALUES ({id}, 1, 'k{id}', 'validated', 'fs', 1000, 0, 0, 0, 1000, 'EUR', 'ref', 0, 0)"),
    ];
    for sql in statements {
        sqlx::query(&sql).execute(db).await.unwrap();
    }
    let order: i64 = sqlx::query_scalar("SELECT id FROM orders WHERE member_id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap();
    sqlx::query(&format!("INSERT INTO order_addresses (order_id, first_name, last_name, details, extras, zip_code, city, country, phone) VALUES ({order}, 'Zoé', 'Durand', '1 rue de la Paix', 'Bât. B', '75002', 'Paris', 'FR', '0612345678')"))
        .execute(db)
        .await
        .unwrap();
    sqlx::query(&format!("INSERT INTO order_events (order_id, status, reason, created_at) VALUES ({order}, 'return_requested_denied', 'Mme Durand a porté la robe', 0)"))
        .execute(db)
        .await
        .unwrap();
    (order, option)
}

async fn delete_forever(t: TestApp) {
    let m = member(&t, 1).await;
    let other_browser = m.another_session(&t).await;
    let (order, option) = fill(&t, m.id).await;

    // A basket frozen for payment: refused, nothing erased.
    sqlx::query("UPDATE carts SET status = 'frozen' WHERE member_id = $1")
        .bind(m.id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let before = row(&t, m.id).await;
    let proof = json!({ "currentPassword": PASSWORD }).to_string();
    let (status, err) = m.raw(&t, Method::DELETE, A, Some(&proof)).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (409, Some("payment_in_progress"))
    );
    assert_eq!(err["error_description"], "account.delete.error.payment");
    assert_eq!(row(&t, m.id).await, before);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM member_addresses WHERE member_id = {}",
            m.id
        ))
        .await,
        1
    );
    sqlx::query("UPDATE carts SET status = 'open' WHERE member_id = $1")
        .bind(m.id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();

    // Without the XSRF header: 403, nothing erased.
    let res = t
        .client
        .delete(t.url(A))
        .header("cookie", m.cookie())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(row(&t, m.id).await, before);

    let res = m.send(&t, Method::DELETE, A, Some(&proof)).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        cookie_value(&res, app::platform::session::COOKIE).as_deref(),
        Some("")
    );
    let done: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        (done["step"].as_str(), done["msgKey"].as_str()),
        (Some("STEP2"), Some("account.delete.done"))
    );
    for session in [&m, &other_browser] {
        assert_eq!(session.call(&t, Method::GET, A, None).await.0, 401);
    }

    // Personal data gone from every table that held it.
    for table in app::account::store::closing::ERASED_TABLES {
        let n = t
            .count(&format!(
                "SELECT COUNT(*) FROM {table} WHERE member_id = {}",
                m.id
            ))
            .await;
        assert_eq!(n, 0, "{table}");
    }
    let member: (String, String, String, Option<String>, String, String, String, i64, String) = sqlx::query_as(
        "SELECT email, first_name, last_name, birth_date, phone, zip_code, city, status, password_hash FROM members WHERE id = $1",
    )
    .bind(m.id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        member,
        (
            format!("erased-{}@erased.invalid", m.id),
            String::new(),
            String::new(),
            None,
            String::new(),
            String::new(),
            String::new(),
            4,
            String::new()
        )
    );
    // The order stays for the books, its address copy without the person.
    let kept: (i64, String, String, String, String, String) = sqlx::query_as(
        "SELECT o.total, a.first_name, a.last_name, a.details, a.phone, a.country FROM orders o JOIN order_addresses a ON a.order_id = o.id WHERE o.id = $1",
    )
    .bind(order)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        kept,
        (
            1000,
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            "FR".into()
        )
    );
    // The timeline stays, without what an operator wrote about the person.
    let reasons: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT status, reason FROM order_events WHERE order_id = $1")
            .bind(order)
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(reasons, vec![("return_requested_denied".into(), None)]);
    // The held units went back to the sale.
    let held: i64 = sqlx::query_scalar("SELECT held FROM product_options WHERE id = $1")
        .bind(option)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(held, 0);
    assert!(mails_to(&t, &m.email)
        .iter()
        .any(|mail| mail.contains("Subject: Votre compte a été supprimé")));

    // The address is free: it registers again, and the old account is no way in.
    assert_eq!(login_result(&t, &m.email, PASSWORD, 1).await, 2);
    let xsrf = t.xsrf().await;
    let res = t
        .client
        .post(t.url("/api/authentication/v1/subscribe"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("X-XSRF-TOKEN", &xsrf)
        .json(&json!({ "siteId": 1, "email": m.email, "password": "Nouveau-Jardin-7", "civility": 2,
            "firstName": "Zoé", "lastName": "Durand", "birthDate": "15/08/1985", "cgv": true, "privacyPolicy": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM members WHERE email = '{}'",
            m.email
        ))
        .await,
        1
    );
}
both!(
    delete_forever,
    delete_forever_on_sqlite,
    delete_forever_on_postgres
);

/// Every table that refers to a member is either erased or kept on purpose: a table added
/// later fails here until the erasure knows about it.
#[tokio::test]
async fn erasure_knows_every_member_table() {
    use app::account::store::closing::{ERASED_TABLES, KEPT_TABLES};
    let t = crate::helpers::start(crate::helpers::Backend::Sqlite).await;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
          WHERE m.type = 'table' AND c.name = 'member_id' ORDER BY m.name",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(tables.len() > 20, "{tables:?}");
    for table in &tables {
        assert!(
            ERASED_TABLES.contains(&table.as_str()) || KEPT_TABLES.contains(&table.as_str()),
            "{table} has member rows the erasure does not handle"
        );
    }
    // Tables keyed by an order: every free-text column is in a table the erasure empties,
    // so a table added later with something the member wrote fails here until it does.
    let order_tables: Vec<(String, String)> = sqlx::query_as(
        "SELECT m.name, group_concat(c2.name || ':' || c2.type, ',') FROM sqlite_master m
           JOIN pragma_table_info(m.name) c ON c.name = 'order_id'
           JOIN pragma_table_info(m.name) c2
          WHERE m.type = 'table' GROUP BY m.name ORDER BY m.name",
    )
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    // Text columns that hold no words of the person: codes, statuses, numbers, names of
    // products and partners, masked references.
    const FACTS: [&str; 14] = [
        "status",
        "cart_type",
        "currency",
        "reason_id",
        "sub_reason_id",
        "channel",
        "number",
        "code",
        "partner",
        "name",
        "option_label",
        "note",
        "request_id",
        "vouchers_json",
    ];
    for (table, columns) in &order_tables {
        if ERASED_TABLES.contains(&table.as_str())
            || KEPT_TABLES.contains(&table.as_str())
            || app::account::store::closing::ORDER_TABLES_EMPTIED.contains(&table.as_str())
            || table == "order_addresses"
        {
            continue;
        }
        for column in columns.split(',') {
            let (name, kind) = column.split_once(':').unwrap();
            assert!(
                !kind.eq_ignore_ascii_case("TEXT") || FACTS.contains(&name),
                "{table}.{name} may hold what the member wrote: erase it or list it"
            );
        }
    }
}

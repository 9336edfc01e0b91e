//! Vouchers and promotions over HTTP on SQLite and PostgreSQL: the two lists,
//! the selection toggle that the cart applies, personal and expired vouchers, another
//! member's participation answering 404, print, the no-script form.
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::{option_with_stock, shopper, Shopper};
use crate::helpers::{both, TestApp};

const V: &str = "/api/postsales/v1/vouchers";

/// A personal voucher of `s` (code `code`) and its participation id.
async fn personal_voucher(
    t: &TestApp,
    s: &Shopper,
    code: &str,
    valid_until: Option<i64>,
) -> (i64, i64) {
    let pool = &t.app.state.db.pool;
    let voucher: i64 = sqlx::query_scalar(
        "INSERT INTO vouchers (site_id, code, kind, discount_type, scope, value, per_member_limit, total_limit, personal, valid_until)
         VALUES (1, $1, 'voucher', 'FIXED', 'PRODUCT', 700, 1, 1, 1, $2) RETURNING id",
    )
    .bind(code)
    .bind(valid_until)
    .fetch_one(pool)
    .await
    .unwrap();
    let participation: i64 = sqlx::query_scalar(
        "INSERT INTO voucher_participations (member_id, voucher_id, created_at) VALUES ($1, $2, 0) RETURNING id",
    )
    .bind(s.member_id)
    .bind(voucher)
    .fetch_one(pool)
    .await
    .unwrap();
    (voucher, participation)
}

fn codes(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v["code"].as_str().unwrap().to_string())
        .collect()
}

fn pick(v: i64, p: Option<i64>) -> Value {
    json!({ "voucherId": v, "participationId": p })
}

async fn lists_and_selection(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let (mine, part) = personal_voucher(&t, &a, "ANNA7", None).await;
    let now = app::platform::state::now();
    personal_voucher(&t, &a, "OLD7", Some(now - 10)).await;

    let (status, all) = a.call(&t, Method::GET, V, None).await;
    assert_eq!(status, 200);
    // The configuration's version (spec 001 §7): 1 answers the same; another is refused in
    // the site's language.
    let (status, v1) = a
        .call(&t, Method::GET, &format!("{V}?featureVersion=1"), None)
        .await;
    assert_eq!((status, &v1), (200, &all));
    for bad in ["2", "0", "abc", "%F0%9F%98%80", ""] {
        let (status, e) = a
            .call(&t, Method::GET, &format!("{V}?featureVersion={bad}"), None)
            .await;
        assert_eq!(status, 400, "{bad}");
        assert_eq!(e["error_code"], "unknown_feature_version", "{bad}");
        assert!(e["message"].as_str().unwrap().contains("version 1"), "{e}");
    }
    assert_eq!(
        codes(&all["vouchers"]),
        ["ANNA7"],
        "expired vouchers are not listed"
    );
    let promos = codes(&all["promotions"]);
    assert!(
        promos.contains(&"ETE20".to_string()) && promos.contains(&"LIVRAISON".to_string()),
        "{promos:?}"
    );
    let entry = &all["vouchers"][0];
    assert_eq!(
        (
            entry["usesLeft"].as_i64(),
            entry["participationId"].as_i64()
        ),
        (Some(1), Some(part))
    );
    assert_eq!(all["selection"], json!([]));
    let (_, theirs) = b.call(&t, Method::GET, V, None).await;
    assert_eq!(codes(&theirs["vouchers"]), Vec::<String>::new());

    // Select: the basket holds it, and the cart takes it off.
    let opt = option_with_stock(&t, 4, 5).await;
    let add = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    assert_eq!(
        a.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(add))
            .await
            .0,
        201
    );
    let sel = format!("{V}/selection");
    let (status, all) = a
        .call(&t, Method::POST, &sel, Some(pick(mine, Some(part))))
        .await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(
        all["selection"],
        json!([{ "voucherId": mine, "participationId": part }])
    );
    let (_, cart) = a.call(&t, Method::GET, "/api/cartproxy/v1", None).await;
    assert_eq!(codes(&cart["vouchers"]), ["ANNA7"]);
    assert_eq!(
        cart["totals"]["discount"].as_i64(),
        Some(700.min(cart["totals"]["subtotal"].as_i64().unwrap()))
    );
    let ete: i64 = all["promotions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["code"] == "ETE20")
        .unwrap()["voucherId"]
        .as_i64()
        .unwrap();
    let (_, all) = a.call(&t, Method::POST, &sel, Some(pick(ete, None))).await;
    assert_eq!(all["selection"].as_array().unwrap().len(), 2);
    // Choosing a selected one again removes it.
    let (_, all) = a
        .call(&t, Method::POST, &sel, Some(pick(mine, Some(part))))
        .await;
    assert_eq!(
        all["selection"],
        json!([{ "voucherId": ete, "participationId": null }])
    );
    let (_, cart) = a.call(&t, Method::GET, "/api/cartproxy/v1", None).await;
    assert_eq!(codes(&cart["vouchers"]), ["ETE20"]);

    // Not the member's: another member's participation, someone's personal voucher as a
    // promotion, another site's promotion, ids that do not exist.
    let other_site: i64 =
        sqlx::query_scalar("SELECT id FROM vouchers WHERE site_id = 2 AND code = 'ETE20'")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    for (who, body) in [
        (&b, pick(mine, Some(part))),
        (&b, pick(mine, None)),
        (&a, pick(other_site, None)),
        (&a, pick(999_999, None)),
        (&a, pick(mine, Some(999_999))),
    ] {
        let (status, _) = who.call(&t, Method::POST, &sel, Some(body.clone())).await;
        assert_eq!(status, 404, "{body}");
    }
    for body in [json!({}), json!({ "voucherId": "1" }), json!("x")] {
        assert_eq!(a.call(&t, Method::POST, &sel, Some(body)).await.0, 400);
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM cart_vouchers WHERE member_id = {}",
            b.member_id
        ))
        .await,
        0
    );
    // A personal code is no code for anyone else, typed or not.
    let (status, err) = b
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "anna7" })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("voucher_unknown"))
    );
    let (status, err) = a
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/vouchers",
            Some(json!({ "code": "OLD7" })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("voucher_unknown")),
        "expired"
    );

    // While the cart is frozen for payment, the selection cannot change (261).
    assert_eq!(
        a.call(&t, Method::GET, "/api/cartproxy/orderpiper/cart/v3", None)
            .await
            .0,
        200
    );
    let (status, err) = a.call(&t, Method::POST, &sel, Some(pick(ete, None))).await;
    assert_eq!((status, err["error_code"].as_str()), (261, Some("frozen")));

    // Print: the member's vouchers and the promotions.
    let (status, printed) = a.call(&t, Method::POST, &format!("{V}/print"), None).await;
    assert_eq!(status, 200);
    let page = t
        .get(printed["printUrl"].as_str().unwrap())
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("ANNA7") && page.contains("ETE20") && !page.contains("OLD7"));
}

both!(
    lists_and_selection,
    lists_and_selection_on_sqlite,
    lists_and_selection_on_postgres
);

async fn form_without_scripts(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (mine, part) = personal_voucher(&t, &a, "FORM7", None).await;
    // Each action has its own route; `action` names it and is not sent.
    let post = |f: Vec<(&'static str, String)>| {
        let action = f.iter().find(|(k, _)| *k == "action").unwrap().1.clone();
        let fields: Vec<_> = f.into_iter().filter(|(k, _)| *k != "action").collect();
        a.client
            .post(t.url(&format!("/vouchers-promotions/form/{action}")))
            .header("cookie", &a.cookie)
            .form(&fields)
            .send()
    };
    let toggle = |v: i64, p: &str| {
        vec![
            ("_xsrf", a.xsrf.clone()),
            ("action", "toggle".into()),
            ("voucherId", v.to_string()),
            ("participationId", p.to_string()),
        ]
    };
    let res = post(toggle(mine, &part.to_string())).await.unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.contains("notice=vouchers.notice.selected"),
        "{location}"
    );
    let page = t
        .get_with_cookie(&location, &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("FORM7") && page.contains("aria-pressed=\"true\""));
    assert!(page.contains("Le bon est appliqué à votre panier."));
    let res = post(toggle(mine, "junk")).await.unwrap();
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("error=errors.not_found"));
    let res = post(toggle(mine, &part.to_string())).await.unwrap();
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("notice=vouchers.notice.unselected"));
    // Print: back to the page, which links to the printable page made for the member.
    let print = vec![("_xsrf", a.xsrf.clone()), ("action", "print".to_string())];
    let res = post(print).await.unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with("/vouchers-promotions?print="),
        "{location}"
    );
    let token = location["/vouchers-promotions?print=".len()..]
        .split('&')
        .next()
        .unwrap()
        .to_string();
    let page = t
        .get_with_cookie(&location, &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    let link = format!("/vouchers/print/{token}");
    assert!(page.contains(&format!("href=\"{link}\"")), "the print link");
    assert_eq!(t.get(&link).await.status(), 200);
    // A print value that is not a token links nowhere.
    let page = t
        .get_with_cookie("/vouchers-promotions?print=..%2Fadmin", &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(!page.contains("data-testid=\"print-link\""));
}

both!(
    form_without_scripts,
    form_without_scripts_on_sqlite,
    form_without_scripts_on_postgres
);

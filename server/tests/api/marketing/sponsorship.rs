//! Sponsorship: the member's code and share link, the sponsor recorded at registration
//! (by code or by id, from the API and the no-script forms; unknown codes, another site's
//! sponsor and self-sponsoring ignored without an error), and the reward voucher issued
//! once after the sponsored member's first paid order, also under concurrent checkouts.
use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};
use tokio::task::JoinSet;

use super::page;
use crate::helpers::cart::{option_with_stock, shopper, Shopper};
use crate::helpers::{both, TestApp};

const API: &str = "/api/members/v1/sponsorship";
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

async fn email_of(t: &TestApp, member: i64) -> String {
    sqlx::query_scalar("SELECT email FROM members WHERE id = $1")
        .bind(member)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// Registers through the API; the new member's id.
async fn register(t: &TestApp, site: u16, email: &str, code: &str, godfather: &str) -> i64 {
    let xsrf = t.xsrf().await;
    let body = json!({"siteId": site, "email": email, "password": "Velvet-Orchard-42", "civility": 2,
        "firstName": "Filleul", "lastName": "Durand", "birthDate": "15/08/1985", "cgv": true,
        "privacyPolicy": true, "sponsorshipCode": code, "godfatherid": godfather});
    let res = t
        .client
        .post(t.url("/api/authentication/v1/subscribe"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("X-XSRF-TOKEN", &xsrf)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{email}");
    res.json::<Value>().await.unwrap()["memberId"]
        .as_i64()
        .unwrap()
}

async fn sponsor_of(t: &TestApp, member: i64) -> Option<i64> {
    sqlx::query_scalar("SELECT sponsor_id FROM sponsorships WHERE sponsored_id = $1")
        .bind(member)
        .fetch_optional(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn code_and_registration(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (status, s) = a.call(&t, Method::GET, API, None).await;
    assert_eq!(status, 200);
    let code = s["code"].as_str().unwrap().to_string();
    assert_eq!(
        app::sponsorship::rules::normalize_code(&code).as_deref(),
        Some(code.as_str())
    );
    let link = s["shareLink"].as_str().unwrap();
    assert!(
        link.contains(&format!(
            "/gr/registration?mgmcode={code}&godfatherid={}",
            a.member_id
        )),
        "{link}"
    );
    // The same code on every visit; the page shows it.
    let (_, again) = a.call(&t, Method::GET, API, None).await;
    assert_eq!(again["code"], code.as_str());
    let (status, _, html) = page(&t, Some(&a), "/gr/sponsorship").await;
    assert_eq!(status, 200);
    let shown = html
        .split("data-testid=\"sponsorship-code\"")
        .nth(1)
        .unwrap_or("");
    assert!(
        shown
            .split('<')
            .next()
            .unwrap_or("")
            .ends_with(&format!(">{code}")),
        "{}",
        &html[html.len().saturating_sub(3000)..]
    );
    // Members only.
    assert_eq!(t.get(API).await.status(), 401);
    let (status, location, _) = page(&t, None, "/gr/sponsorship").await;
    assert!((300..400).contains(&status) && location.contains("authentication"));

    // By code (any case), by id when no code: recorded.
    let b = register(&t, 1, "filleul.b@example.com", &code.to_lowercase(), "").await;
    assert_eq!(sponsor_of(&t, b).await, Some(a.member_id));
    let c = register(&t, 1, "filleul.c@example.com", "", &a.member_id.to_string()).await;
    assert_eq!(sponsor_of(&t, c).await, Some(a.member_id));
    // Unknown code, malformed code, unknown id, another site's sponsor, the sponsor's own
    // mailbox: the account is made, no sponsor, no error.
    let own = email_of(&t, a.member_id).await.replace('@', "+2@");
    for (email, site, code, id) in [
        ("filleul.d@example.com", 1, "ZZZZ2222", ""),
        ("filleul.e@example.com", 1, "x'; --", ""),
        ("filleul.f@example.com", 1, "", "99999999"),
        ("filleul.g@example.com", 2, code.as_str(), ""),
        (own.as_str(), 1, code.as_str(), ""),
    ] {
        let m = register(&t, site, email, code, id).await;
        assert_eq!(sponsor_of(&t, m).await, None, "{email}");
    }
    // A sponsor whose account is not active yet (B never activated) names nobody.
    let b_code = app::sponsorship::store::ensure_code(&t.app.state.db, b, 0)
        .await
        .unwrap();
    let h = register(&t, 1, "filleul.h@example.com", &b_code, "").await;
    assert_eq!(sponsor_of(&t, h).await, None);

    // The sponsor's list shows first names only.
    let (_, s) = a.call(&t, Method::GET, API, None).await;
    let names: Vec<&str> = s["sponsored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["firstName"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Filleul", "Filleul"]);
    assert!(s["sponsored"][0].get("email").is_none());
}
both!(
    code_and_registration,
    code_and_registration_on_sqlite,
    code_and_registration_on_postgres
);

/// The no-script forms carry `mgmcode` / `godfatherid` from the email step to the
/// registration, which records the sponsor.
async fn registration_forms_keep_the_sponsor(t: TestApp) {
    let a = shopper(&t, 2).await;
    let (_, s) = a.call(&t, Method::GET, API, None).await;
    let code = s["code"].as_str().unwrap().to_string();
    let godfather = a.member_id.to_string();
    let (_, _, html) = page(
        &t,
        None,
        &format!("/gr/registration?mgmcode={code}&godfatherid={godfather}"),
    )
    .await;
    assert!(
        html.contains(&format!("name=\"mgmcode\" value=\"{code}\"")),
        "the email step keeps the code"
    );
    let xsrf = t.xsrf().await;
    let post = |fields: Vec<(&'static str, String)>| {
        let xsrf = xsrf.clone();
        let t = &t;
        async move {
            let mut all = vec![("_xsrf", xsrf.clone())];
            all.extend(fields);
            t.client
                .post(t.url("/gr/authentication/form"))
                .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
                .form(&all)
                .send()
                .await
                .unwrap()
        }
    };
    let res = post(vec![
        ("step", "email".into()),
        ("email", "form.filleul@example.com".into()),
        ("mgmcode", code.clone()),
        ("godfatherid", godfather.clone()),
    ])
    .await;
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with("/gr/registration?step=register"),
        "{location}"
    );
    assert!(
        location.contains(&format!("&mgmcode={code}&godfatherid={godfather}")),
        "{location}"
    );
    let (_, _, html) = page(&t, None, &location).await;
    assert!(html.contains(&format!("name=\"godfatherid\" value=\"{godfather}\"")));
    let res = post(vec![
        ("step", "register".into()),
        ("email", "form.filleul@example.com".into()),
        ("password", "Velvet-Orchard-42".into()),
        ("civility", "2".into()),
        ("firstName", "Inès".into()),
        ("lastName", "Form".into()),
        ("birthDate", "15/08/1985".into()),
        ("cgv", "1".into()),
        ("privacyPolicy", "1".into()),
        ("mgmcode", code.clone()),
        ("godfatherid", godfather.clone()),
    ])
    .await;
    assert_eq!(res.status(), 303);
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("step=done"));
    let new: i64 =
        sqlx::query_scalar("SELECT id FROM members WHERE email = 'form.filleul@example.com'")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(sponsor_of(&t, new).await, Some(a.member_id));
}
both!(
    registration_forms_keep_the_sponsor,
    registration_forms_keep_the_sponsor_on_sqlite,
    registration_forms_keep_the_sponsor_on_postgres
);

/// A sponsored shopper (`sponsor` brought them) with one unit of a 50 € item in the cart.
async fn sponsored_with_cart(t: &TestApp, sponsor: &Shopper) -> Shopper {
    let s = shopper(t, 2).await;
    sqlx::query(
        "INSERT INTO sponsorships (sponsored_id, sponsor_id, created_at) VALUES ($1, $2, 0)",
    )
    .bind(s.member_id)
    .bind(sponsor.member_id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let opt = option_with_stock(t, 3, 50).await;
    sqlx::query("UPDATE products SET price_cents = 5000 WHERE id = (SELECT product_id FROM product_options WHERE id = $1)")
        .bind(opt)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let body = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    let (added, err) = s
        .call(t, Method::POST, "/api/cartproxy/v1/item", Some(body))
        .await;
    assert_eq!(added, 201, "{err}");
    s
}

async fn checkout(t: &TestApp, s: &Shopper) -> u16 {
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    if status != 200 {
        return status;
    }
    let body = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242 4242 4242 4242" });
    s.call(t, Method::POST, &format!("{PIPE}/pay"), Some(body))
        .await
        .0
}

async fn rewards(t: &TestApp, sponsor: i64) -> i64 {
    t.count(&format!(
        "SELECT COUNT(*) FROM voucher_participations p JOIN vouchers v ON v.id = p.voucher_id
          WHERE p.member_id = {sponsor} AND v.code LIKE 'PARRAIN-%'"
    ))
    .await
}

async fn reward_once(t: TestApp) {
    let t = Arc::new(t);
    let a = shopper(&t, 2).await;
    let b = Arc::new(sponsored_with_cart(&t, &a).await);
    // The same paid basket sent eight times at once: one order, one reward.
    let mut tasks = JoinSet::new();
    for _ in 0..8 {
        let (t, b) = (t.clone(), b.clone());
        tasks.spawn(async move { checkout(&t, &b).await });
    }
    let mut ok = 0;
    while let Some(status) = tasks.join_next().await {
        if status.unwrap() == 200 {
            ok += 1;
        }
    }
    assert!(ok >= 1);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM orders WHERE member_id = {}",
            b.member_id
        ))
        .await,
        1
    );
    assert_eq!(rewards(&t, a.member_id).await, 1);
    // The voucher is the sponsor's, on the vouchers page, 10 € for one use.
    let (_, vouchers) = a
        .call(&t, Method::GET, "/api/postsales/v1/vouchers", None)
        .await;
    let v = vouchers["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["code"].as_str().unwrap().starts_with("PARRAIN-"))
        .cloned()
        .expect("the reward is among the sponsor's vouchers");
    assert_eq!(
        (v["value"].as_i64(), v["usesLeft"].as_i64()),
        (Some(1000), Some(1)),
        "{v}"
    );
    let (_, s) = a.call(&t, Method::GET, API, None).await;
    assert!(s["sponsored"][0]["rewardedAt"].is_i64(), "{s}");
    assert_eq!(s["rewards"][0]["code"], v["code"]);
    let (_, theirs) = b
        .call(&t, Method::GET, "/api/postsales/v1/vouchers", None)
        .await;
    assert!(
        !theirs.to_string().contains("PARRAIN-"),
        "not the sponsored member's"
    );

    // A second order earns nothing more.
    let opt = option_with_stock(&t, 4, 5).await;
    let body = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    assert_eq!(
        b.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
            .await
            .0,
        201
    );
    assert_eq!(checkout(&t, &b).await, 200);
    assert_eq!(rewards(&t, a.member_id).await, 1);

    // Different first orders paid at the same moment (each in its own transaction, as
    // the checkout does it): still one reward.
    let c = shopper(&t, 2).await;
    sqlx::query(
        "INSERT INTO sponsorships (sponsored_id, sponsor_id, created_at) VALUES ($1, $2, 0)",
    )
    .bind(c.member_id)
    .bind(a.member_id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let mut tasks = JoinSet::new();
    for i in 0..8 {
        let (t, member) = (t.clone(), c.member_id);
        tasks.spawn(async move {
            let now = app::platform::state::now();
            let mut tx = t.app.state.db.begin().await.unwrap();
            let order: i64 = sqlx::query_scalar(
                "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount, shipping,
                                     loyalty, total, currency, payment_reference, created_at, updated_at)
                 VALUES ($1, 1, $2, 'validated', 'fs', 3000, 0, 0, 0, 3000, 'EUR', 'test', $3, $3) RETURNING id",
            )
            .bind(member)
            .bind(format!("sponsor-race-{member}-{i}"))
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
            let issued = app::sponsorship::store::reward_paid_order(&mut tx, order, now).await.unwrap();
            tx.commit().await.unwrap();
            issued.is_some()
        });
    }
    let mut issued = 0;
    while let Some(r) = tasks.join_next().await {
        issued += i64::from(r.unwrap());
    }
    assert_eq!(issued, 1);
    assert_eq!(rewards(&t, a.member_id).await, 2);
}
both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    reward_once,
    reward_once_on_sqlite,
    reward_once_on_postgres
);

/// A first order under the minimum earns nothing, and the sponsorship stays open for none.
async fn small_first_order(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    sqlx::query(
        "INSERT INTO sponsorships (sponsored_id, sponsor_id, created_at) VALUES ($1, $2, 0)",
    )
    .bind(b.member_id)
    .bind(a.member_id)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let opt = option_with_stock(&t, 3, 5).await;
    sqlx::query("UPDATE products SET price_cents = 500 WHERE id = (SELECT product_id FROM product_options WHERE id = $1)")
        .bind(opt)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let body = json!({ "product_id": opt.to_string(), "quantity": 1, "cart_type": "fs" });
    assert_eq!(
        b.call(&t, Method::POST, "/api/cartproxy/v1/item", Some(body))
            .await
            .0,
        201
    );
    assert_eq!(checkout(&t, &b).await, 200);
    assert_eq!(rewards(&t, a.member_id).await, 0);
}
both!(
    small_first_order,
    small_first_order_on_sqlite,
    small_first_order_on_postgres
);

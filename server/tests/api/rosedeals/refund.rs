//! The refund (IBAN checked with the wallet's rules, the stored one reused or a new one
//! stored, once only, also when posted at the same moment) and the retry (new codes).
use std::sync::Arc;

use reqwest::Method;
use serde_json::json;

use super::{address, buy, deal_option, multipart, refund_form, API, GOOD_IBAN};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

async fn refund_once(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 0, 10).await;
    let order_id = buy(&t, &a, opt, 2).await;
    let (_, order) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    let paid: i64 = order["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["price"].as_i64().unwrap())
        .sum();
    let path = format!("{API}/orders/{order_id}/refund");

    // A wrong IBAN: 400 with the code the form shows and the wallet's message for the field.
    let (status, err) = multipart(
        &t,
        &a,
        &path,
        &refund_form("FR1520041010050500013M02606", true),
        &[],
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["error_code"], "invalid_iban");
    assert_eq!(err["fieldErrors"][0]["field"], "iban");
    assert_eq!(
        err["fieldErrors"][0]["messageKey"],
        "wallet.errors.iban_check_digits"
    );
    // No IBAN and none in the wallet.
    let (status, err) = multipart(&t, &a, &path, &refund_form("", false), &[]).await;
    assert_eq!((status, err["error_code"].as_str()), (400, Some("no_iban")));
    // Not multipart, or a bad address: 400, never 500.
    let (status, _) = a
        .call(&t, Method::POST, &path, Some(json!({ "iban": GOOD_IBAN })))
        .await;
    assert_eq!(status, 400);
    let mut bad = refund_form(GOOD_IBAN, false);
    bad[0].1 = "{not json".into();
    assert_eq!(multipart(&t, &a, &path, &bad, &[]).await.0, 400);
    // Another member's basket.
    let b = shopper(&t, 2).await;
    assert_eq!(
        multipart(&t, &b, &path, &refund_form(GOOD_IBAN, false), &[])
            .await
            .0,
        404
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM rosedeal_refunds").await, 0);

    // The right IBAN, stored in the wallet: the amount, the order in refund, vouchers void.
    let (status, ok) = multipart(&t, &a, &path, &refund_form(GOOD_IBAN, true), &[]).await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok, json!({ "amount": paid }));
    let (_, order) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    assert_eq!(order["status"], "refund_in_progress");
    assert_eq!(order["refundAmount"], paid);
    assert!(order["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["status"] == "void"));
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM order_events WHERE order_id = {order_id} AND status = 'refund_in_progress'")).await,
        1
    );
    let (_, wallet) = a
        .call(&t, Method::GET, "/api/postsales/v1/wallet", None)
        .await;
    assert_eq!(wallet["iban"]["last4"], "2606", "{wallet}");
    assert_eq!(wallet["iban"]["ownerName"], "Marie Curie");
    let (_, current) = a
        .call(&t, Method::GET, &format!("{API}/orders/current"), None)
        .await;
    let (_, archived) = a
        .call(&t, Method::GET, &format!("{API}/orders/archived"), None)
        .await;
    assert_eq!(
        (current["total"].as_i64(), archived["total"].as_i64()),
        (Some(0), Some(1))
    );

    // Posted again: refused with its code, nothing more refunded.
    let (status, err) = multipart(&t, &a, &path, &refund_form(GOOD_IBAN, false), &[]).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (409, Some("already_refunded"))
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM rosedeal_refunds").await, 1);

    // A second order refunds to the wallet's stored IBAN (no IBAN given).
    let second = buy(&t, &a, opt, 1).await;
    let (status, ok) = multipart(
        &t,
        &a,
        &format!("{API}/orders/{second}/refund"),
        &refund_form("", false),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{ok}");
    assert!(ok["amount"].as_i64().unwrap() > 0);
}

both!(refund_once, refund_once_on_sqlite, refund_once_on_postgres);

async fn concurrent_refunds(t: TestApp) {
    let t = Arc::new(t);
    let a = Arc::new(shopper(&t, 2).await);
    let opt = deal_option(&t, 1, 10).await;
    let order_id = buy(&t, &a, opt, 1).await;
    let path = format!("{API}/orders/{order_id}/refund");
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let (t, a, path) = (t.clone(), a.clone(), path.clone());
        tasks.spawn(
            async move { multipart(&t, &a, &path, &refund_form(GOOD_IBAN, false), &[]).await },
        );
    }
    let mut statuses = Vec::new();
    while let Some(r) = tasks.join_next().await {
        let (status, body) = r.unwrap();
        assert!(
            status == 200 || (status == 409 && body["error_code"] == "already_refunded"),
            "{status} {body}"
        );
        statuses.push(status);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM rosedeal_refunds WHERE order_id = {order_id}"
        ))
        .await,
        1
    );
    assert_eq!(
        t.count(&format!("SELECT COUNT(*) FROM order_events WHERE order_id = {order_id} AND status = 'refund_in_progress'")).await,
        1
    );
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    concurrent_refunds,
    concurrent_refunds_on_sqlite,
    concurrent_refunds_on_postgres
);

async fn retry_reissues(t: TestApp) {
    let a = shopper(&t, 2).await;
    let opt = deal_option(&t, 4, 10).await;
    let order_id = buy(&t, &a, opt, 2).await;
    let (_, order) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    let old = order["vouchers"][0]["code"].as_str().unwrap().to_string();
    let kept = order["vouchers"][1]["code"].as_str().unwrap().to_string();
    let path = format!("{API}/orders/{order_id}/retry");
    let form = |codes: Vec<&str>| {
        vec![
            ("address", address()),
            ("content", "Code refusé en caisse".to_string()),
            ("vouchers", serde_json::to_string(&codes).unwrap()),
        ]
    };
    let (status, ok) = multipart(&t, &a, &path, &form(vec![&old]), &[]).await;
    assert_eq!(status, 200, "{ok}");
    let fresh = ok["vouchers"].as_array().unwrap();
    assert_eq!(fresh.len(), 1);
    let new = fresh[0]["code"].as_str().unwrap();
    assert_ne!(new, old);
    assert_eq!(fresh[0]["value"], order["vouchers"][0]["value"]);
    assert_eq!(fresh[0]["expiresAt"], order["vouchers"][0]["expiresAt"]);
    let (_, after) = a
        .call(&t, Method::GET, &format!("{API}/orders/{order_id}"), None)
        .await;
    let codes: Vec<&str> = after["vouchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 2);
    assert!(
        codes.contains(&new) && codes.contains(&kept.as_str()) && !codes.contains(&old.as_str())
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM rosedeal_vouchers WHERE code = '{old}' AND status = 'void'"
        ))
        .await,
        1
    );
    // The old code again, none, or another member's: refused.
    let (status, err) = multipart(&t, &a, &path, &form(vec![&old]), &[]).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("nothing_to_refund"))
    );
    let (status, err) = multipart(&t, &a, &path, &form(vec![]), &[]).await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("missing_values"))
    );
    let b = shopper(&t, 2).await;
    assert_eq!(multipart(&t, &b, &path, &form(vec![new]), &[]).await.0, 404);
    // The refund after a retry pays both units.
    let (status, ok) = multipart(
        &t,
        &a,
        &format!("{API}/orders/{order_id}/refund"),
        &refund_form(super::GOOD_IBAN, false),
        &[],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        ok["amount"].as_i64().unwrap(),
        2 * order["vouchers"][0]["price"].as_i64().unwrap()
    );
}

both!(
    retry_reissues,
    retry_reissues_on_sqlite,
    retry_reissues_on_postgres
);

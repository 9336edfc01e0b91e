//! Voucher and promotion campaigns: a bad form changes nothing and names each field; a
//! code already used on a site is refused; a code campaign with a total of one is spent
//! once across its sites; an automatic campaign is in every basket of its site without a
//! code, up to the member's limit, and leaves baskets when stopped; the campaign page
//! shows its use; the audit log has each write; roles.
use reqwest::Method;
use serde_json::{json, Value};

use super::*;
use crate::helpers::cart::{freeze_and_pay, option_with_stock, shopper, Shopper};
use crate::helpers::{both, TestApp};

const V1: &str = "/api/cartproxy/v1";

fn form<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut f = vec![
        ("name", "Hiver -15 %"),
        ("delivery", "code"),
        ("code", "hiver15"),
        ("discount_type", "PERCENT"),
        ("scope", "PRODUCT"),
        ("value", "15"),
        ("per_member_limit", "1"),
        ("total_limit", "1"),
        ("valid_from", "2020-01-01T00:00"),
        ("valid_until", "2099-01-01T00:00"),
        ("site-1", "on"),
        ("site-66", "on"),
    ];
    for (k, v) in extra {
        f.retain(|(n, _)| n != k);
        if !v.is_empty() || *k == "code" || *k == "total_limit" {
            f.push((k, v));
        }
    }
    f
}

/// The campaign id a successful creation redirects to.
fn created(location: &str) -> i64 {
    location
        .trim_start_matches("/backoffice/campaigns/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

async fn basket(t: &TestApp, s: &Shopper) -> Value {
    s.call(t, Method::GET, V1, None).await.1
}

/// The codes of a basket's vouchers (none for an empty basket, which has no body).
async fn codes(t: &TestApp, s: &Shopper) -> Vec<String> {
    basket(t, s).await["vouchers"]
        .as_array()
        .map(|v| {
            v.iter()
                .map(|v| v["code"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn add_item(t: &TestApp, s: &Shopper, option: i64) {
    let (status, body) = s
        .call(
            t,
            Method::POST,
            &format!("{V1}/item"),
            Some(json!({ "product_id": option, "quantity": 1, "cart_type": "fs" })),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn a_merchandiser_runs_campaigns(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let (status, page) = merch.get(&t, "/backoffice/campaigns").await;
    assert_eq!(status, 200);
    assert!(page.contains("No campaign yet."));

    // Every bad field is named, and nothing is written.
    let (status, _, html) = merch
        .post(
            &t,
            "/backoffice/campaigns",
            &form(&[
                ("value", "0"),
                ("code", "été 15"),
                ("site-1", ""),
                ("site-66", ""),
                ("per_member_limit", "-1"),
                ("valid_until", "2021-01-01T00:00"),
            ]),
        )
        .await;
    assert_eq!(status, 422);
    for message in [
        "A percentage is a whole number from 1 to 100.",
        "A code has 3 to 32 letters, digits, - or _.",
        "Choose at least one site.",
        "Uses per member: a whole number from 1 to 100.",
        "The end must be in the future.",
    ] {
        assert!(html.contains(message), "{message}");
    }
    assert!(
        html.contains(r#"value="été 15""#),
        "what was typed comes back"
    );
    // A demo voucher's code on site 1: refused, nothing written.
    let (status, _, html) = merch
        .post(&t, "/backoffice/campaigns", &form(&[("code", "ROSE10")]))
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("This code is already a voucher on one of these sites."));
    assert_eq!(t.count("SELECT COUNT(*) FROM voucher_campaigns").await, 0);

    // A code campaign on sites 1 and 66, one use in all; an automatic one on site 1.
    let (status, location, _) = merch.post(&t, "/backoffice/campaigns", &form(&[])).await;
    assert_eq!(status, 303);
    let hiver = created(&location);
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/campaigns",
            &form(&[
                ("name", "Trois euros offerts"),
                ("delivery", "automatic"),
                ("code", ""),
                ("discount_type", "FIXED"),
                ("value", "3"),
                ("total_limit", ""),
                ("site-66", ""),
            ]),
        )
        .await;
    assert_eq!(status, 303);
    let auto = created(&location);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM vouchers WHERE campaign_id = {hiver}"
        ))
        .await,
        2
    );

    // The automatic discount is in a basket with items, without a code.
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let opt = option_with_stock(&t, 3, 10).await;
    assert!(codes(&t, &a).await.is_empty(), "not in an empty basket");
    add_item(&t, &a, opt).await;
    let cart = basket(&t, &a).await;
    let v = &cart["vouchers"][0];
    assert_eq!(v["code"], format!("AUTO-{auto}"));
    assert_eq!(
        (v["automatic"].as_bool(), v["amount"].as_i64()),
        (Some(true), Some(300))
    );
    // Not the member's to remove.
    let auto_voucher = v["voucherId"].as_i64().unwrap();
    assert_eq!(
        a.call(
            &t,
            Method::DELETE,
            &format!("{V1}/vouchers/{auto_voucher}"),
            None
        )
        .await
        .0,
        400
    );
    let (status, cart) = a
        .call(
            &t,
            Method::POST,
            &format!("{V1}/vouchers"),
            Some(json!({ "code": "Hiver15" })),
        )
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["vouchers"].as_array().unwrap().len(), 2);
    let order = freeze_and_pay(&t, &a).await;
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM voucher_redemptions WHERE order_id = {order}"
        ))
        .await,
        2
    );

    // The total of one is spent: the code is refused everywhere; the automatic discount
    // still applies to another member, not again to the first.
    add_item(&t, &b, opt).await;
    let (status, err) = b
        .call(
            &t,
            Method::POST,
            &format!("{V1}/vouchers"),
            Some(json!({ "code": "HIVER15" })),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (400, Some("voucher_exhausted"))
    );
    assert_eq!(codes(&t, &b).await, [format!("AUTO-{auto}")]);
    add_item(&t, &a, opt).await;
    assert!(codes(&t, &a).await.is_empty(), "used up by this member");

    // The campaign's page shows its use on site 1 and the order.
    let (status, page) = merch
        .get(&t, &format!("/backoffice/campaigns/{hiver}"))
        .await;
    assert_eq!(status, 200);
    assert!(page.contains(&format!("/backoffice/orders/{order}")));
    assert!(page.contains("1 / 1"));
    let (_, list) = merch.get(&t, "/backoffice/campaigns").await;
    assert!(list.contains(&format!(r#"data-campaign="{auto}""#)));

    // Stopped: out of baskets at once; a second stop is told.
    let stop = format!("/backoffice/campaigns/{auto}/stop");
    let (status, location, _) = merch.post(&t, &stop, &[]).await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/campaigns/{auto}?done=stopped").as_str()
        )
    );
    assert!(codes(&t, &b).await.is_empty(), "stopped");
    let (status, _, html) = merch.post(&t, &stop, &[]).await;
    assert_eq!(status, 409);
    assert!(html.contains("This campaign is not running any more"));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM audit_log WHERE object_kind = 'campaign'")
            .await,
        3
    );
}

async fn campaigns_are_the_merchandisers(t: TestApp) {
    for who in [CARE, MODERATOR] {
        let desk = sign_in(&t, who).await;
        assert_eq!(desk.get(&t, "/backoffice/campaigns").await.0, 403, "{who}");
        let (status, _, _) = desk.post(&t, "/backoffice/campaigns", &form(&[])).await;
        assert_eq!(status, 403, "{who}");
    }
    assert_eq!(t.count("SELECT COUNT(*) FROM voucher_campaigns").await, 0);
    let admin = sign_in(&t, ADMIN).await;
    assert_eq!(admin.get(&t, "/backoffice/campaigns/new").await.0, 200);
}

both!(
    a_merchandiser_runs_campaigns,
    campaigns_on_sqlite,
    campaigns_on_postgres
);
both!(
    campaigns_are_the_merchandisers,
    campaign_roles_on_sqlite,
    campaign_roles_on_postgres
);

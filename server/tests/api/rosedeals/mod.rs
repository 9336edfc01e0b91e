//! Rose deals over HTTP on SQLite and PostgreSQL: buying a deal issues one
//! voucher per unit in the checkout, the current and archived lists are paged, another
//! member's basket is 404, the refund validates the IBAN and happens once (also when posted
//! at the same moment), the retry re-issues codes, the contact message needs a profile and
//! vouchers, attachments are checked as the DSA report's.
mod contact;
mod deals;
mod forms;
mod lists;
mod pages;
mod refund;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::Shopper;
use crate::helpers::TestApp;

pub const API: &str = "/api/rosedeals/v1";
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";
pub const GOOD_IBAN: &str = "FR14 2004 1010 0505 0001 3M02 606";

/// The first deal's option of site 1's rose-deals sale (stock set for the test).
pub async fn deal_option(t: &TestApp, nth: i64, stock: i64) -> i64 {
    let id: i64 = sqlx::query_scalar(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id
           JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = 1 AND s.campaign_kind = 'ROSEDEAL' ORDER BY o.id LIMIT 1 OFFSET $1",
    )
    .bind(nth)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE product_options SET stock = $2, held = 0, sold = 0 WHERE id = $1")
        .bind(id)
        .bind(stock)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    id
}

/// Adds `quantity` units of the option, freezes and pays: the order id (`basketId`).
pub async fn buy(t: &TestApp, s: &Shopper, option_id: i64, quantity: i64) -> i64 {
    let add =
        json!({ "product_id": option_id.to_string(), "quantity": quantity, "cart_type": "fs" });
    let (status, body) = s
        .call(t, Method::POST, "/api/cartproxy/v1/item", Some(add))
        .await;
    assert_eq!(status, 201, "{body}");
    pay_frozen(t, s).await
}

/// Freezes the member's cart and pays it: the order id (`basketId`).
pub async fn pay_frozen(t: &TestApp, s: &Shopper) -> i64 {
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    let pay = json!({ "cartHash": frozen["cartHash"], "generateDeeplinkReturnUrl": false, "card": "4242 4242 4242 4242" });
    let (status, order) = s
        .call(t, Method::POST, &format!("{PIPE}/pay"), Some(pay))
        .await;
    assert!(status == 200 || status == 201, "{status} {order}");
    order["id"]
        .as_i64()
        .or_else(|| order["orderId"].as_i64())
        .or_else(|| order["order"]["id"].as_i64())
        .unwrap_or_else(|| panic!("no order id in {order}"))
}

/// A multipart POST with text parts and files (name, file name, type, bytes).
pub async fn multipart(
    t: &TestApp,
    s: &Shopper,
    path: &str,
    texts: &[(&str, String)],
    files: &[(&str, &str, &str, Vec<u8>)],
) -> (u16, Value) {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in texts {
        form = form.text(name.to_string(), value.clone());
    }
    for (name, file, mime, bytes) in files {
        let part = reqwest::multipart::Part::bytes(bytes.clone())
            .file_name(file.to_string())
            .mime_str(mime)
            .unwrap();
        form = form.part(name.to_string(), part);
    }
    let res = s
        .client
        .post(t.url(path))
        .header("cookie", &s.cookie)
        .header("X-XSRF-TOKEN", &s.xsrf)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

pub fn address() -> String {
    json!({ "city": "Paris", "country": "FR", "details": "1 rue de la Paix", "firstName": "Marie",
            "lastName": "Curie", "zipCode": "75002", "extras": "" })
    .to_string()
}

pub fn refund_form(iban: &str, store: bool) -> Vec<(&'static str, String)> {
    vec![
        ("address", address()),
        ("content", "Je n'en ai plus besoin".into()),
        ("iban", iban.into()),
        ("isSuspended", "false".into()),
        ("storeIban", store.to_string()),
        // A new IBAN needs the password (review N1).
        (
            "currentPassword",
            crate::helpers::cart::SHOPPER_PASSWORD.into(),
        ),
    ]
}

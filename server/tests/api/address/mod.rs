//! The address book: every call of the address service and the post-sales
//! configuration, bad input (refused with the spec's message, nothing stored), other
//! members' ids (404), the no-script forms and page, and the delivery address at checkout.
mod book;
mod checkout;
mod forms;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::cart::Shopper;
use crate::helpers::TestApp;

pub const A: &str = "/api/address/v1";

/// A member of `site` with a session and no address.
pub async fn member_on(t: &TestApp, site: u16) -> Shopper {
    let email = format!("addr-{:08x}@rosace.test", rand::random::<u32>());
    let member_id: i64 = sqlx::query_scalar(
        "INSERT INTO members (site_id, email, password_hash, first_name, last_name, status, created_at, terms_version)
         VALUES ($1, $2, 'x', 'Test', 'Member', 1, 0, 2) RETURNING id",
    )
    .bind(i64::from(site))
    .bind(&email)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let token = app::platform::session::create(
        &t.app.state.db,
        member_id,
        false,
        app::platform::state::now(),
    )
    .await
    .unwrap();
    let xsrf = app::platform::csrf::issue(
        &t.app.settings.xsrf_secret,
        &app::platform::session::hash_token(&token),
    );
    Shopper {
        member_id,
        // The site cookie: a session is signed in on its member's site only.
        cookie: format!(
            "{}={token}; XSRF-TOKEN={xsrf}; site={site}",
            app::platform::session::COOKIE
        ),
        xsrf,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    }
}

/// A good French address.
pub fn paris() -> Value {
    json!({
        "firstName": "Camille", "lastName": "Durand", "details": "12 rue de la Paix",
        "extras": "Bât. B", "zipCode": "75002", "city": "Paris", "country": "FR", "phone": "06 12 34 56 78"
    })
}

pub fn with(mut v: Value, field: &str, value: Value) -> Value {
    v[field] = value;
    v
}

pub async fn rows(t: &TestApp, member_id: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM member_addresses WHERE member_id = $1")
        .bind(member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// A raw body (not JSON-encoded by the client).
pub async fn raw(t: &TestApp, s: &Shopper, method: Method, path: &str, body: &str) -> (u16, Value) {
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

/// `(field_type, error_type)` of a refusal.
pub fn faults(body: &Value) -> Vec<(String, u64)> {
    body["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["field_type"].as_str().unwrap_or("").to_string(),
                        e["error_type"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

//! Shared helpers of the cart tests: members with sessions, options with set stock.

use reqwest::Method;
use serde_json::{json, Value};

use super::TestApp;

/// A member with a session and its XSRF token, as a browser would hold them.
pub struct Shopper {
    pub member_id: i64,
    pub cookie: String,
    pub xsrf: String,
    /// Its own HTTP client (own connections), like a separate browser.
    pub client: reqwest::Client,
}

/// Every shopper's password (what the re-authenticated calls of review N1 ask for).
pub const SHOPPER_PASSWORD: &str = "Shopper-Lantern-31";

/// One argon2 hash for every shopper: hashing per shopper would cost the tests seconds.
fn shopper_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| app::platform::password::hash(SHOPPER_PASSWORD).unwrap())
}

pub async fn shopper(t: &TestApp, terms_version: i64) -> Shopper {
    let email = format!("cart-{:08x}@rosace.test", rand::random::<u32>());
    let member_id: i64 = sqlx::query_scalar(
        "INSERT INTO members (site_id, email, password_hash, first_name, last_name, status, created_at, terms_version)
         VALUES (1, $1, $3, 'Test', 'Member', 1, 0, $2) RETURNING id",
    )
    .bind(&email)
    .bind(terms_version)
    .bind(shopper_hash())
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    // Checkout needs a delivery address (the address tests use members without one).
    sqlx::query(
        "INSERT INTO member_addresses (member_id, first_name, last_name, details, extras, zip_code, city, country, phone,
                                       is_favorite, created_at, updated_at)
         VALUES ($1, 'Test', 'Member', '1 rue de la Paix', '', '75002', 'Paris', 'FR', '0612345678', 1, 0, 0)",
    )
    .bind(member_id)
    .execute(&t.app.state.db.pool)
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
        cookie: format!(
            "{}={token}; XSRF-TOKEN={xsrf}",
            app::platform::session::COOKIE
        ),
        xsrf,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    }
}

impl Shopper {
    pub async fn call(
        &self,
        t: &TestApp,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        self.call_url(method, t.url(path), body).await
    }

    /// [`Shopper::call`] to a whole URL: for a call made in a task of its own, which cannot
    /// borrow the test app.
    pub async fn call_url(&self, method: Method, url: String, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .client
            .request(method, url)
            .header("cookie", &self.cookie)
            .header("X-XSRF-TOKEN", &self.xsrf);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// A page as the member's browser asks for it (redirects not followed).
    pub async fn get_page(&self, t: &TestApp, path: &str) -> reqwest::Response {
        self.client
            .get(t.url(path))
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap()
    }

    /// Posts a server form as the member's browser would (its `_xsrf` field is the
    /// caller's to add); the status and the redirect's location.
    pub async fn post_form<F: serde::Serialize + ?Sized>(
        &self,
        t: &TestApp,
        path: &str,
        fields: &F,
    ) -> (u16, String) {
        let res = self
            .client
            .post(t.url(path))
            .header("cookie", &self.cookie)
            .form(fields)
            .send()
            .await
            .unwrap();
        let location = res
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (res.status().as_u16(), location)
    }
}

/// An option (SKU) of the live sale 1001 with `stock` units (set for the test).
pub async fn option_with_stock(t: &TestApp, nth: i64, stock: i64) -> i64 {
    let id: i64 = sqlx::query_scalar(
        "SELECT o.id FROM product_options o JOIN products p ON p.id = o.product_id
          WHERE p.sale_id = 1001 ORDER BY o.id LIMIT 1 OFFSET $1",
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

pub async fn stock(t: &TestApp, option_id: i64) -> (i64, i64, i64) {
    let r: (i64, i64, i64) =
        sqlx::query_as("SELECT stock, held, sold FROM product_options WHERE id = $1")
            .bind(option_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    r
}

/// Freezes the shopper's basket and pays it with the test card, as checkout does; the
/// order id.
pub async fn freeze_and_pay(t: &TestApp, s: &Shopper) -> i64 {
    const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";
    let (status, frozen) = s.call(t, Method::GET, PIPE, None).await;
    assert_eq!(status, 200, "{frozen}");
    let hash = frozen["cartHash"].as_str().unwrap().to_string();
    let (status, paid) = s
        .call(
            t,
            Method::POST,
            &format!("{PIPE}/pay"),
            Some(json!({ "cartHash": hash, "generateDeeplinkReturnUrl": false, "card": "4242424242424242" })),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    paid["orderId"].as_i64().unwrap()
}

//! The back office over HTTP on SQLite and PostgreSQL: operator sign-in with a second
//! factor, roles checked on every route, the audit log, sales, and stock during a sale.
mod brands;
mod bulk;
mod campaigns;
mod destinations;
mod email_sale;
mod experiments;
mod feed;
mod feed_bundles;
mod feed_listing;
mod help_articles;
mod members;
mod moderation;
mod operations;
mod option_prices;
mod orders;
mod partners;
mod preview;
mod product_edit;
mod registrations;
mod roles;
mod sale_pictures;
mod sale_presentation;
mod sale_seo;
mod sales;
mod signin;
mod stock;
mod support;
mod travel;
mod trip_description;
mod trips;

use server::backoffice::{demo, totp};

use crate::helpers::{cookie_value, TestApp};

pub const ADMIN: &str = "admin@rosace.test";
pub const MERCH: &str = "merch@rosace.test";
pub const CARE: &str = "care@rosace.test";
pub const MODERATOR: &str = "moderator@rosace.test";

/// An operator's browser: the session cookie, and the form token of its pages.
pub struct Desk {
    pub cookie: String,
    pub xsrf: String,
}

/// The value of the first hidden `_xsrf` field of a page.
pub fn xsrf_of(html: &str) -> String {
    let start = html
        .find(r#"name="_xsrf" value=""#)
        .expect("a form with its token")
        + r#"name="_xsrf" value=""#.len();
    html[start..].split('"').next().unwrap().to_string()
}

pub fn now_secs() -> u64 {
    app::platform::state::now() as u64
}

/// The code the demo operators' authenticator shows now.
pub fn demo_code() -> String {
    totp::code_at(demo::TOTP_SECRET, now_secs()).unwrap()
}

/// Password step: the pre-session cookie's form, then email and password. Answers the
/// response and the pending session's cookie, if one was set.
pub async fn password_step(
    t: &TestApp,
    email: &str,
    password: &str,
) -> (reqwest::Response, Option<String>) {
    let page = t.get("/backoffice/signin").await;
    let pre = cookie_value(&page, "rosace_bo_pre").expect("the sign-in page sets its form cookie");
    let html = page.text().await.unwrap();
    let res = t
        .client
        .post(t.url("/backoffice/signin"))
        .header("cookie", format!("rosace_bo_pre={pre}"))
        .form(&[
            ("_xsrf", xsrf_of(&html).as_str()),
            ("email", email),
            ("password", password),
            ("next", ""),
        ])
        .send()
        .await
        .unwrap();
    let session = cookie_value(&res, "rosace_bo");
    (res, session)
}

/// Second factor: `code` (or `recovery`) on the pending session.
pub async fn code_step(
    t: &TestApp,
    pending: &str,
    code: &str,
    recovery: &str,
) -> reqwest::Response {
    let cookie = format!("rosace_bo={pending}");
    let page = t.get_with_cookie("/backoffice/signin/code", &cookie).await;
    assert_eq!(
        page.status(),
        200,
        "the code page opens for a pending session"
    );
    let html = page.text().await.unwrap();
    t.client
        .post(t.url("/backoffice/signin/code"))
        .header("cookie", &cookie)
        .form(&[
            ("_xsrf", xsrf_of(&html).as_str()),
            ("code", code),
            ("recovery", recovery),
            ("next", ""),
        ])
        .send()
        .await
        .unwrap()
}

/// A demo operator, signed in with the password and a code. The operator's last used
/// step is cleared first: a test may sign the same operator in twice within 30 seconds.
pub async fn sign_in(t: &TestApp, email: &str) -> Desk {
    sqlx::query("UPDATE operators SET totp_last_step = 0 WHERE email = $1")
        .bind(email)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (res, pending) = password_step(t, email, demo::PASSWORD).await;
    assert_eq!(res.status(), 303, "password accepted for {email}");
    let res = code_step(t, &pending.unwrap(), &demo_code(), "").await;
    assert_eq!(res.status(), 303, "code accepted for {email}");
    let token = cookie_value(&res, "rosace_bo").expect("a fresh session cookie");
    let cookie = format!("rosace_bo={token}");
    let home = t.get_with_cookie("/backoffice/", &cookie).await;
    assert_eq!(home.status(), 200);
    let xsrf = xsrf_of(&home.text().await.unwrap());
    Desk { cookie, xsrf }
}

impl Desk {
    /// A sale of `kind` (`shop` or `trips`) on site 1 made through the form, open from an
    /// hour ago for five days; its id.
    pub async fn sale_made(&self, t: &TestApp, kind: &str, name: &str) -> i64 {
        let now = app::platform::state::now();
        let opens = server::backoffice::ui::datetime_value(now - 3600);
        let closes = server::backoffice::ui::datetime_value(now + 5 * 86_400);
        let fields = [
            ("site", "1"),
            ("kind", kind),
            ("name", name),
            ("offer_type", "FlashSale"),
            ("starts_at", opens.as_str()),
            ("ends_at", closes.as_str()),
        ];
        let (status, location, _) = self.post(t, "/backoffice/sales/new", &fields).await;
        assert_eq!(status, 303, "sale made");
        location
            .strip_prefix("/backoffice/sales/")
            .and_then(|r| r.split('?').next())
            .and_then(|id| id.parse().ok())
            .expect("the new sale's page")
    }

    /// A product added to `sale` through the form; its id.
    pub async fn product_added(
        &self,
        t: &TestApp,
        sale: i64,
        (name, price, retail): (&str, &str, &str),
    ) -> i64 {
        let fields = [("name", name), ("price", price), ("retail_price", retail)];
        let path = format!("/backoffice/sales/{sale}/products/new");
        let (status, _, _) = self.post(t, &path, &fields).await;
        assert_eq!(status, 303, "product added");
        t.count(&format!(
            "SELECT MAX(id) FROM products WHERE sale_id = {sale}"
        ))
        .await
    }

    pub async fn get(&self, t: &TestApp, path: &str) -> (u16, String) {
        let res = t.get_with_cookie(path, &self.cookie).await;
        (res.status().as_u16(), res.text().await.unwrap())
    }

    /// Posts a form with the session's token; status, `Location` and body.
    pub async fn post(
        &self,
        t: &TestApp,
        path: &str,
        fields: &[(&str, &str)],
    ) -> (u16, String, String) {
        let mut form: Vec<(&str, &str)> = vec![("_xsrf", self.xsrf.as_str())];
        form.extend_from_slice(fields);
        let res = t
            .client
            .post(t.url(path))
            .header("cookie", &self.cookie)
            .form(&form)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        let location = res
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        (status, location, res.text().await.unwrap())
    }
}

pub async fn audit_count(t: &TestApp, action: &str, kind: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = $1 AND object_kind = $2")
        .bind(action)
        .bind(kind)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

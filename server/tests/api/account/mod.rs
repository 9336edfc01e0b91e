//! My account over HTTP on SQLite and PostgreSQL: personal data, email change
//! with its link, password change ending the other sessions, deactivation (login code 6),
//! delete forever (personal data gone, orders kept without it, the email free again); bad
//! input refused with the spec's message and nothing stored; the no-script forms.
mod closing;
mod credentials;
mod forms;
mod profile;

use reqwest::Method;
use serde_json::Value;

use crate::helpers::{cookie_value, TestApp};

pub const A: &str = "/api/postsales/v1/account";
pub const PASSWORD: &str = "Velvet-Orchard-42";

/// A member signed in from one browser: its session cookie and XSRF token.
#[derive(Clone)]
pub struct Member {
    pub id: i64,
    pub email: String,
    pub token: String,
    pub xsrf: String,
    /// The member's site: a session is signed in there only (the site cookie says it).
    pub site_id: u16,
}

impl Member {
    pub fn cookie(&self) -> String {
        format!(
            "{}={}; XSRF-TOKEN={}; site={}",
            app::platform::session::COOKIE,
            self.token,
            self.xsrf,
            self.site_id
        )
    }

    pub async fn call(
        &self,
        t: &TestApp,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let body = body.map(|b| b.to_string());
        self.raw(t, method, path, body.as_deref()).await
    }

    pub async fn raw(
        &self,
        t: &TestApp,
        method: Method,
        path: &str,
        body: Option<&str>,
    ) -> (u16, Value) {
        let res = self.send(t, method, path, body).await;
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn send(
        &self,
        t: &TestApp,
        method: Method,
        path: &str,
        body: Option<&str>,
    ) -> reqwest::Response {
        let mut req = t
            .client
            .request(method, t.url(path))
            .header("cookie", self.cookie())
            .header("X-XSRF-TOKEN", &self.xsrf);
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        req.send().await.unwrap()
    }

    /// The same member signed in from another browser (a second session).
    pub async fn another_session(&self, t: &TestApp) -> Member {
        let token = app::platform::session::create(
            &t.app.state.db,
            self.id,
            false,
            app::platform::state::now(),
        )
        .await
        .unwrap();
        Member {
            xsrf: xsrf_for(t, &token),
            token,
            ..self.clone()
        }
    }

    /// After a response that rotated the session: the new cookies.
    pub fn rotated(&self, res: &reqwest::Response) -> Member {
        Member {
            token: cookie_value(res, app::platform::session::COOKIE).expect("a new session cookie"),
            xsrf: cookie_value(res, "XSRF-TOKEN").expect("a new XSRF token"),
            ..self.clone()
        }
    }
}

pub fn xsrf_for(t: &TestApp, token: &str) -> String {
    app::platform::csrf::issue(
        &t.app.settings.xsrf_secret,
        &app::platform::session::hash_token(token),
    )
}

/// An active member of `site_id` with [`PASSWORD`] and one session.
pub async fn member(t: &TestApp, site_id: u16) -> Member {
    let email = format!("acct-{:08x}@rosace.test", rand::random::<u32>());
    let hash = app::platform::password::hash(PASSWORD).unwrap();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status, created_at)
         VALUES ($1, $2, $3, 2, 'Zoé', 'Durand', 1, 0) RETURNING id",
    )
    .bind(i64::from(site_id))
    .bind(&email)
    .bind(&hash)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let token =
        app::platform::session::create(&t.app.state.db, id, false, app::platform::state::now())
            .await
            .unwrap();
    Member {
        site_id,
        id,
        email,
        xsrf: xsrf_for(t, &token),
        token,
    }
}

/// The member's row as the account keeps it, to compare before and after a refused call.
pub async fn row(t: &TestApp, id: i64) -> Vec<Option<String>> {
    let r: (String, String, String, i64, Option<String>, String, Option<i64>, String, i64) = sqlx::query_as(
        "SELECT email, first_name, last_name, civility, birth_date, phone, job_id, password_hash, status
           FROM members WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    vec![
        Some(r.0),
        Some(r.1),
        Some(r.2),
        Some(r.3.to_string()),
        r.4,
        Some(r.5),
        r.6.map(|j| j.to_string()),
        Some(r.7),
        Some(r.8.to_string()),
    ]
}

/// Mails in the outbox addressed to `to`, oldest first.
pub fn mails_to(t: &TestApp, to: &str) -> Vec<String> {
    let dir = &t.app.settings.mail.outbox_dir;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    files.sort_by_key(|e| e.file_name());
    files
        .iter()
        .map(|f| std::fs::read_to_string(f.path()).unwrap())
        .filter(|m| m.contains(&format!("To: {to}\r\n")))
        .collect()
}

pub fn link_in(mail: &str) -> String {
    let start = mail.find("http").expect("a link");
    mail[start..].split_whitespace().next().unwrap().to_string()
}

/// `(field, messageKey)` pairs of an error body.
pub fn field_keys(body: &Value) -> Vec<(String, String)> {
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

/// Signs in through the REST call; the login result code.
pub async fn login_result(t: &TestApp, email: &str, password: &str, site_id: u16) -> i64 {
    let xsrf = t.xsrf().await;
    let res = t
        .client
        .post(t.url("/api/authentication/v1/login"))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .header("X-XSRF-TOKEN", &xsrf)
        .json(&serde_json::json!({"email": email, "password": password, "rememberMe": false, "siteId": site_id}))
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    body["result"].as_i64().unwrap_or(-1)
}

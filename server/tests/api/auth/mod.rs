//! Members against real SQLite and PostgreSQL: email check, registration and activation,
//! login codes, lockout and unlock, cypher single use and expiry, session rotation,
//! timeouts and logout, CSRF on the forms; onboarding (consent, popins, banners); mail
//! through SMTP.
use serde_json::Value;

use crate::helpers::TestApp;

mod abuse;
mod accounts;
mod client_address;
mod forms;
mod lockout;
mod onboarding;
mod popins_one_by_one;
mod secure_defaults;
mod sessions;
mod smtp;

async fn post_json(
    t: &TestApp,
    path: &str,
    body: Value,
    cookies: &str,
    xsrf: &str,
) -> reqwest::Response {
    t.client
        .post(t.url(path))
        .header(
            "cookie",
            format!("{cookies}; {}", crate::helpers::xsrf_cookie(xsrf)),
        )
        .header("X-XSRF-TOKEN", xsrf)
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn outbox_link(t: &TestApp, needle: &str) -> String {
    let dir = &t.app.settings.mail.outbox_dir;
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .collect();
    files.sort_by_key(|e| e.file_name());
    let text = files
        .iter()
        .rev()
        .map(|f| std::fs::read_to_string(f.path()).unwrap())
        .find(|t| t.contains(needle))
        .expect("mail in outbox");
    let start = text.find("http").unwrap();
    text[start..].split_whitespace().next().unwrap().to_string()
}

fn query_param(url: &str, name: &str) -> String {
    url.split(['?', '&'])
        .find_map(|p| p.strip_prefix(&format!("{name}=")))
        .unwrap_or("")
        .to_string()
}

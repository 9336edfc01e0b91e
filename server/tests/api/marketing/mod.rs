//! Marketing entry points on SQLite and PostgreSQL: the brands place and its
//! brand alerts, operation links and their cookie, the catalog by id, sponsorship from
//! the share link to the reward voucher (once, under concurrent checkouts).
mod brands;
mod operations;
mod selection;
mod sponsorship;

use crate::helpers::cart::Shopper;
use crate::helpers::TestApp;

/// A page as a signed-in member sees it: status, `Location`, body.
async fn page(t: &TestApp, s: Option<&Shopper>, path: &str) -> (u16, String, String) {
    let mut req = t.client.get(t.url(path));
    if let Some(s) = s {
        req = req.header("cookie", &s.cookie);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let location = res
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, no_site(&location), res.text().await.unwrap())
}

/// A member's form post (with their session and XSRF token): status and `Location`.
async fn post_form(t: &TestApp, s: &Shopper, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
    let mut all: Vec<(String, String)> = vec![("_xsrf".into(), s.xsrf.clone())];
    all.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let (status, location) = s.post_form(t, path, &all).await;
    (status, no_site(&location))
}

/// A redirect's target without the `site` parameter the test server adds (its sites have
/// no host of their own).
fn no_site(location: &str) -> String {
    let (path, query) = location.split_once('?').unwrap_or((location, ""));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("site="))
        .collect();
    if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

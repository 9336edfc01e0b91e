//! Social sign-in (spec 000 §3, §4, §7): Google, Facebook and Apple through OpenID Connect
//! (Klarna in the enumerations). The protocol (discovery, PKCE, ID-token signature) is the
//! server's (`server::rest::auth::social`); here are the rules, the records and the steps
//! a verified identity leads to: sign-in, association (code 12), registration (code 13).
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub(crate) mod store;
pub mod ui;

use std::sync::RwLock;

use rules::Provider;

/// The providers this server has a client for (set once at start from the configuration);
/// the forms show only these.
static ENABLED: RwLock<Vec<Provider>> = RwLock::new(Vec::new());

pub fn set_enabled(providers: Vec<Provider>) {
    if let Ok(mut e) = ENABLED.write() {
        *e = providers;
    }
}

pub fn enabled() -> Vec<Provider> {
    ENABLED.read().map(|e| e.clone()).unwrap_or_default()
}

/// The origins of the configured providers, for the pages' CSP `form-action`: the
/// "continue with" form is answered by a redirect to the provider, and browsers check a
/// form's redirects against that directive too.
static FORM_ORIGINS: RwLock<String> = RwLock::new(String::new());

/// Keeps the `scheme://host[:port]` of each issuer URL (paths dropped, anything that is not
/// an http(s) URL or holds characters a CSP source cannot hold skipped).
pub fn set_form_origins<'a>(issuers: impl IntoIterator<Item = &'a str>) {
    let mut origins: Vec<String> = issuers.into_iter().filter_map(origin_of).collect();
    origins.sort();
    origins.dedup();
    if let Ok(mut o) = FORM_ORIGINS.write() {
        *o = origins.join(" ");
    }
}

pub fn form_origins() -> String {
    FORM_ORIGINS.read().map(|o| o.clone()).unwrap_or_default()
}

fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next()?;
    let ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    ok.then(|| format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn form_origins_are_the_issuers_origins() {
        assert_eq!(
            super::origin_of("https://accounts.google.com"),
            Some("https://accounts.google.com".into())
        );
        assert_eq!(
            super::origin_of("http://127.0.0.1:4455/realm?x=1"),
            Some("http://127.0.0.1:4455".into())
        );
        assert_eq!(super::origin_of("javascript:alert(1)"), None);
        assert_eq!(super::origin_of("https://evil.example; script-src *"), None);
        assert_eq!(super::origin_of("https://"), None);
    }
}

//! Social sign-in against the local test identity provider (`server::test_idp`, started
//! in-process on a free port; never the internet), on SQLite and PostgreSQL: sign-in with
//! each of Google, Facebook and Apple through the real redirects, the association (code
//! 12) and registration (code 13) flows, refusals (forged signature, wrong `state`,
//! replayed code, expired token: code 11 and no session), unlink.
mod flows;
mod refusals;
mod sponsor;

use crate::helpers::{cookie_value, start_with, xsrf_cookie, Backend, TestApp};

pub const SECRET: &str = "test-secret";

/// A shop whose Google, Facebook and Apple are clients of a fresh test provider (Klarna
/// stays unconfigured).
pub async fn social_app(backend: Backend) -> TestApp {
    social_app_with(backend, |_| {}).await
}

/// [`social_app`], with a change of the configuration.
pub async fn social_app_with(
    backend: Backend,
    tweak: impl FnOnce(&mut server::config::Config),
) -> TestApp {
    let clients = ["google", "facebook", "apple"]
        .iter()
        .map(|p| (format!("{p}-test"), SECRET.to_string()))
        .collect();
    let issuer = server::test_idp::spawn(clients).await;
    start_with(backend, move |c| {
        tweak(c);
        c.social = server::web::social::oidc::SocialConfig::from_vars(&|name: &str| {
            let rest = name.strip_prefix("ROSACE_OIDC_")?;
            let (provider, key) = rest.split_once('_')?;
            if provider == "KLARNA" {
                return None;
            }
            Some(match key {
                "ISSUER" => issuer.clone(),
                "CLIENT_ID" => format!("{}-test", provider.to_ascii_lowercase()),
                "CLIENT_SECRET" => SECRET.to_string(),
                _ => return None,
            })
        });
    })
    .await
}

/// A visitor's browser, as far as these flows need one: its cookies and XSRF token.
pub struct Visitor {
    pub cookie: String,
    pub xsrf: String,
}

pub async fn visitor(t: &TestApp) -> Visitor {
    let page = t.get("/gr/authentication").await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").expect("the page sets the XSRF cookie");
    Visitor {
        cookie: xsrf_cookie(&xsrf),
        xsrf,
    }
}

pub fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

pub fn param(url: &str, name: &str) -> String {
    let q = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    serde_urlencoded::from_str::<Vec<(String, String)>>(q)
        .unwrap()
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap_or_default()
}

pub async fn post_form(
    t: &TestApp,
    v: &Visitor,
    path: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let mut form: Vec<(String, String)> = vec![("_xsrf".into(), v.xsrf.clone())];
    form.extend(
        fields
            .iter()
            .map(|(k, val)| (k.to_string(), val.to_string())),
    );
    t.client
        .post(t.url(path))
        .header("cookie", &v.cookie)
        .form(&form)
        .send()
        .await
        .unwrap()
}

/// "Continue with <provider>": the provider's authorize URL the shop redirects to.
pub async fn start(t: &TestApp, v: &Visitor, provider: &str) -> String {
    let res = post_form(
        t,
        v,
        "/gr/authentication/social/start",
        &[("provider", provider), ("returnurl", "/gr/cart")],
    )
    .await;
    assert_eq!(res.status(), 303, "start redirects");
    location(&res)
}

/// The test user signs in at the provider: the shop's callback path with code and state.
pub async fn at_provider(t: &TestApp, authorize_url: &str, email: &str) -> String {
    // The provider's page is a real form.
    let page = t.client.get(authorize_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("name=\"email\""));
    let base = authorize_url.split('?').next().unwrap();
    let mut form: Vec<(String, String)> = [
        "client_id",
        "redirect_uri",
        "state",
        "nonce",
        "code_challenge",
        "code_challenge_method",
        "response_type",
    ]
    .iter()
    .map(|k| (k.to_string(), param(authorize_url, k)))
    .collect();
    form.push(("email".into(), email.into()));
    form.push(("given_name".into(), "Alice".into()));
    form.push(("family_name".into(), "Martin".into()));
    let res = t.client.post(base).form(&form).send().await.unwrap();
    assert_eq!(res.status(), 302, "the provider redirects back");
    let back = location(&res);
    assert!(
        back.starts_with("http://shop.test/gr/authentication/social/callback?"),
        "{back}"
    );
    back.trim_start_matches("http://shop.test").to_string()
}

pub async fn get(t: &TestApp, v: &Visitor, path: &str) -> reqwest::Response {
    t.client
        .get(t.url(path))
        .header("cookie", &v.cookie)
        .send()
        .await
        .unwrap()
}

/// The session cookie a successful step set, as a cookie header (with its XSRF token).
pub fn member_cookie(res: &reqwest::Response) -> Option<(String, String)> {
    let session = cookie_value(res, app::platform::session::COOKIE)?;
    let xsrf = cookie_value(res, "XSRF-TOKEN")?;
    Some((
        format!(
            "{}={session}; XSRF-TOKEN={xsrf}",
            app::platform::session::COOKIE
        ),
        xsrf,
    ))
}

/// Two tests from one flow on a social app: SQLite and PostgreSQL.
macro_rules! both_social {
    ($flow:ident, $sqlite:ident, $postgres:ident) => {
        #[tokio::test]
        async fn $sqlite() {
            $flow($crate::social::social_app($crate::helpers::Backend::Sqlite).await).await;
        }
        #[tokio::test]
        async fn $postgres() {
            $flow($crate::social::social_app($crate::helpers::Backend::Postgres).await).await;
        }
    };
}
pub(crate) use both_social;

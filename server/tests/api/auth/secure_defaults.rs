//! Security review M5: secure cookies and HSTS follow an https public origin; plain http
//! development keeps working; a production server refuses to start with demo accounts.
use serde_json::json;

use super::post_json;
use crate::helpers::{both, cookie_value, set_cookies, TestApp};
use server::config::Config;

async fn demo_login(t: &TestApp) -> reqwest::Response {
    let xsrf = t.xsrf().await;
    let body =
        json!({"email": "demo@rosace.test", "password": server::demo::DEMO_PASSWORD, "siteId": 1});
    let res = post_json(t, "/api/authentication/v1/login", body, "", &xsrf).await;
    assert_eq!(res.status(), 200);
    res
}

/// The public origin is https and nothing else is set: `Secure` cookies, the `__Host-`
/// session cookie and HSTS.
async fn https_origin_is_secure_by_default(t: TestApp) {
    assert!(t.app.settings.secure_cookies);
    let page = t.get("/gr/aboutus").await;
    assert_eq!(
        page.headers()["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
    let xsrf = set_cookies(&page)
        .into_iter()
        .find(|c| c.starts_with("__Host-XSRF-TOKEN="))
        .expect("the __Host- XSRF cookie (security review L2)");
    assert!(xsrf.contains("; Secure"), "{xsrf}");
    let res = demo_login(&t).await;
    let session = set_cookies(&res)
        .into_iter()
        .find(|c| c.starts_with("__Host-rosace_session="))
        .expect("the __Host- session cookie");
    assert!(
        session.contains("; Secure") && session.contains("Path=/"),
        "{session}"
    );
    assert!(cookie_value(&res, "rosace_session").is_none());
}

both!(
    https_origin_is_secure_by_default,
    https_origin_is_secure_by_default_on_sqlite,
    https_origin_is_secure_by_default_on_postgres,
    |c: &mut Config| {
        // The settings as the environment gives them, with only the origin set.
        let from_env = Config::from_vars("127.0.0.1:0".parse().unwrap(), &|name| {
            (name == "ROSACE_PUBLIC_ORIGIN").then(|| "https://shop.test".to_string())
        })
        .unwrap();
        c.public_origin = from_env.public_origin;
        c.settings.secure_cookies = from_env.settings.secure_cookies;
    },
);

/// Local development over http (the README's run command, the browser tests): plain
/// cookies that the browser sends back over http, no HSTS, and sign-in works.
async fn http_development_keeps_working(t: TestApp) {
    assert!(!t.app.settings.secure_cookies);
    let page = t.get("/gr/aboutus").await;
    assert!(page.headers().get("strict-transport-security").is_none());
    let res = demo_login(&t).await;
    let token = cookie_value(&res, "rosace_session").expect("the plain session cookie");
    assert!(set_cookies(&res).iter().all(|c| !c.contains("Secure")));
    let cart = t
        .get_with_cookie("/cart", &format!("rosace_session={token}"))
        .await;
    assert_eq!(cart.status(), 200, "the session works over http");
}

both!(
    http_development_keeps_working,
    http_development_keeps_working_on_sqlite,
    http_development_keeps_working_on_postgres,
);

/// A production server does not start on a database with demo accounts, even with demo
/// data off, unless told that it is a demo server.
async fn production_refuses_demo_accounts(t: TestApp) {
    let mut config = t.app.config.clone();
    config.production = true;
    config.demo_data = false;
    let refusal = server::prepare(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(refusal.contains("refusing to start"), "{refusal}");
    config.allow_demo_accounts = true;
    assert!(server::prepare(config).await.is_ok());
}

/// Review M5-R: a development server (the default) that listens beyond loopback does not
/// start with demo accounts, whose password is in the README, unless told it is a demo.
async fn a_public_listener_refuses_demo_accounts(t: TestApp) {
    let mut config = t.app.config.clone();
    assert!(!config.production);
    config.addr = "0.0.0.0:0".parse().unwrap();
    let refusal = server::prepare(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(refusal.contains("beyond loopback"), "{refusal}");
    config.allow_demo_accounts = true;
    assert!(server::prepare(config).await.is_ok());
}

both!(
    a_public_listener_refuses_demo_accounts,
    a_public_listener_refuses_demo_accounts_on_sqlite,
    a_public_listener_refuses_demo_accounts_on_postgres,
);

both!(
    production_refuses_demo_accounts,
    production_refuses_demo_accounts_on_sqlite,
    production_refuses_demo_accounts_on_postgres,
);

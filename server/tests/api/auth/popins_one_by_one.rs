//! A demo member closes the onboarding popins one at a time, as a browser does (the popin's
//! own form, Post/Redirect/Get), with the member page templates on (the shop's default):
//! every later page shows the next popin by the rule, and none once all are answered,
//! terms included. (end2end's `closePopins` once met the terms popin on a later page: its
//! loop looked for the next popin before the page was parsed, see `session.ts`.)
use std::sync::Arc;

use reqwest::cookie::{CookieStore, Jar};

use crate::helpers::{both, TestApp};

const DEMO_PASSWORD: &str = "Rosace-demo-2026";

/// One browser: its own cookie jar, gzip like every browser, no automatic redirects.
struct Browser<'a> {
    t: &'a TestApp,
    jar: Arc<Jar>,
    client: reqwest::Client,
}

impl Browser<'_> {
    fn new(t: &TestApp) -> Browser<'_> {
        let jar = Arc::new(Jar::default());
        // Cookies answered: while they are not, the consent banner is the only interruption.
        jar.add_cookie_str(
            "OptanonConsent=groups=C0001:1,C0002:0,C0003:0,C0004:0,C0005:0",
            &t.url("/").parse().unwrap(),
        );
        let client = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser { t, jar, client }
    }

    /// A cookie the browser holds for the shop.
    fn cookie(&self, name: &str) -> Option<String> {
        let url: reqwest::Url = self.t.url("/").parse().unwrap();
        let all = self.jar.cookies(&url)?;
        all.to_str()
            .unwrap()
            .split("; ")
            .find_map(|c| c.strip_prefix(&format!("{name}=")).map(str::to_string))
    }

    /// A page's status and text (inflated when it came gzipped).
    async fn get(&self, path: &str) -> (u16, String) {
        let res = self
            .client
            .get(self.t.url(path))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        let gzip = res
            .headers()
            .get("content-encoding")
            .is_some_and(|v| v.as_bytes() == b"gzip");
        let bytes = res.bytes().await.unwrap();
        let text = crate::helpers::body_text(&bytes, gzip);
        (status, text)
    }

    /// Signs in through the REST call the sign-in page makes.
    async fn sign_in(&self, site: u16, email: &str) {
        let (status, _) = self.get(&format!("/gr/authentication?site={site}")).await;
        assert_eq!(status, 200);
        let xsrf = self
            .cookie("XSRF-TOKEN")
            .expect("the page set the XSRF cookie");
        let body: serde_json::Value = self
            .client
            .post(self.t.url("/api/authentication/v1/login"))
            .header("X-XSRF-TOKEN", xsrf)
            .json(&serde_json::json!({"email": email, "password": DEMO_PASSWORD, "rememberMe": false, "siteId": site}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(body["result"], 1, "{email} signs in on site {site}: {body}");
    }

    /// Clicks a button of the popin's form (`action`): posts the form's fields as the page
    /// holds them and follows the redirect back; the status of the post.
    async fn answer(&self, html: &str, action: &str) -> u16 {
        let at = html.find("data-testid=\"popin\"").expect("a popin");
        let form = &html[at..];
        let form = &form[..form.find("</form>").unwrap()];
        let mut fields: Vec<(String, String)> = form
            .split("<input ")
            .skip(1)
            .filter(|i| i.contains("type=\"hidden\""))
            .map(|i| (attr(i, "name"), attr(i, "value")))
            .collect();
        fields.push(("action".into(), action.into()));
        // The form's own route.
        let target = attr(&form[form.find("<form").unwrap_or(0)..], "action");
        let res = self
            .client
            .post(self.t.url(&target))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(&fields).unwrap())
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        if status == 303 {
            let back = res.headers()["location"].to_str().unwrap().to_string();
            let (status, page) = self.get(&back).await;
            assert_eq!(status, 200, "back to {back}");
            // At most one popin per page view: the page the answer returns to shows no
            // next one, nor the banner (the next page view does).
            assert_eq!(popin(&page), None, "back to {back} after {action}");
            assert!(
                !page.contains("adot-banner"),
                "back to {back} after {action}"
            );
        }
        status
    }
}

/// An attribute's value in a tag's text (entities of a URL decoded).
fn attr(tag: &str, name: &str) -> String {
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    tag.split(&format!("{name}=\""))
        .nth(1)
        .and_then(|v| v.split('"').next())
        .unwrap_or("")
        .replace("&amp;", "&")
}

/// The popin a page shows (`data-popin-type`), if any.
fn popin(html: &str) -> Option<String> {
    html.split("data-popin-type=\"")
        .nth(1)
        .map(|v| v.split('"').next().unwrap().to_string())
}

/// A sale catalog the home page links to (a page served from a member template).
fn catalog_link(html: &str) -> String {
    html.split("href=\"")
        .skip(1)
        .filter_map(|h| h.split('"').next())
        .find(|h| {
            let parts: Vec<&str> = h.split('/').collect();
            parts.len() == 4
                && parts[1] == "catalog"
                && parts[2..].iter().all(|p| p.parse::<i64>().is_ok())
        })
        .expect("the home page links to a sale catalog")
        .to_string()
}

async fn one_by_one(t: TestApp) {
    // The popins a new member meets, in order, and how the helper answers each.
    let order = ["welcome", "personalisation", "birthdate", "terms", "optin"];
    for (n, (site, email)) in [
        (7, "demo2@rosace.test"),
        (1, "demo2@rosace.test"),
        (1, "demo@rosace.test"),
        (7, "demo@rosace.test"),
    ]
    .into_iter()
    .enumerate()
    {
        let b = Browser::new(&t);
        b.sign_in(site, email).await;
        // From here on only member pages are asked for: every render is a member template.
        let renders = t.app.page_cache.renders();
        let (status, home) = b.get("/").await;
        assert_eq!(status, 200);
        let catalog = catalog_link(&home);
        let mut html = home;
        for (i, kind) in order.iter().enumerate() {
            assert_eq!(
                popin(&html).as_deref(),
                Some(*kind),
                "site {site}, {email}: popin {i}"
            );
            let action = if *kind == "terms" { "accept" } else { "close" };
            assert_eq!(b.answer(&html, action).await, 303);
            let next = order.get(i + 1).copied();
            // The next page views: a sale catalog, the home page, the catalog again.
            for path in [catalog.as_str(), "/", catalog.as_str()] {
                let (status, page) = b.get(path).await;
                assert_eq!(status, 200, "{path}");
                assert_eq!(
                    popin(&page).as_deref(),
                    next,
                    "site {site}, {email}: after {action} of {kind}, {path}"
                );
                html = page;
            }
        }
        assert_eq!(
            t.count(&format!(
                "SELECT COUNT(*) FROM members WHERE site_id = {site} AND email = '{email}' AND terms_version = 2"
            ))
            .await,
            1,
            "site {site}, {email}: terms accepted"
        );
        if n == 0 {
            assert!(
                t.app.page_cache.renders() > renders,
                "the pages came from member templates"
            );
        }
    }
}

both!(
    one_by_one,
    popins_closed_one_by_one_stay_closed_with_member_templates_on_sqlite,
    popins_closed_one_by_one_stay_closed_with_member_templates_on_postgres,
    // The shop's default lifetime of pages and member templates.
    |c| c.page_cache_ms = 2000
);

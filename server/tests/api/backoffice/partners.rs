//! What partners bring (spec 000 §9: the partner id cookie of an hour, search-engine
//! referrers split into SEO and classic partner ids, the from-partner and last-click
//! cookies): with consent to behavioural cookies a partner's link or a search engine sets
//! the cookies (cached pages included), a registration without its own partnerid takes the
//! visit's, a sign-in and a paid order are credited, and the back office's registrations
//! page shows what each partner brought. Without consent nothing is set.
use reqwest::Method;

use super::*;
use crate::helpers::cart::{freeze_and_pay, option_with_stock, shopper};
use crate::helpers::{both, cookie_value, set_cookies, xsrf_cookie, TestApp};

const CONSENT_ALL: &str =
    "OptanonConsent=groups%3DC0001%3A1%2CC0002%3A1%2CC0003%3A1%2CC0004%3A1%2CC0005%3A1";
const CONSENT_SOME: &str =
    "OptanonConsent=groups%3DC0001%3A1%2CC0002%3A1%2CC0003%3A1%2CC0004%3A0%2CC0005%3A0";

fn partner_cookie<'a>(cookies: &'a [String], name: &str) -> Option<&'a String> {
    cookies.iter().find(|c| c.starts_with(&format!("{name}=")))
}

async fn page(t: &TestApp, path: &str, cookie: &str, referer: Option<&str>) -> Vec<String> {
    let mut req = t.client.get(t.url(path)).header("cookie", cookie);
    if let Some(r) = referer {
        req = req.header("referer", r);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200, "{path}");
    set_cookies(&res)
}

async fn partners_bring_members_and_orders(t: TestApp) {
    // The same cached page twice with the same bytes: the second answer is a cache hit.
    for _ in 0..2 {
        // No consent, or consent without behavioural cookies: no partner cookie.
        for consent in ["", CONSENT_SOME] {
            let c = page(&t, "/?partnerid=aff-1", consent, None).await;
            assert!(partner_cookie(&c, "rosace_partner").is_none(), "{c:?}");
        }
        // With it: the link's partner, an hour; the last click, 30 days.
        let c = page(&t, "/?partnerid=aff-1", CONSENT_ALL, None).await;
        let from = partner_cookie(&c, "rosace_partner").expect("from-partner");
        assert!(from.starts_with("rosace_partner=aff-1;") && from.contains("Max-Age=3600"));
        assert!(from.contains("HttpOnly"), "{from}");
        let last = partner_cookie(&c, "rosace_lastclick").expect("last click");
        assert!(last.contains("Max-Age=2592000"), "{last}");
        assert!(partner_cookie(&c, "rosace_lastclick_travel").is_none());
    }
    // A search engine: the SEO id on a page made for search engines, the classic one
    // elsewhere; travel pages get the travel last click too.
    let brand: i64 = t.count("SELECT MIN(id) FROM brands").await;
    let c = page(
        &t,
        &format!("/b/{brand}"),
        CONSENT_ALL,
        Some("https://www.google.fr/search?q=rosace"),
    )
    .await;
    assert!(partner_cookie(&c, "rosace_partner")
        .unwrap()
        .starts_with("rosace_partner=seo-google;"));
    let c = page(
        &t,
        "/",
        CONSENT_ALL,
        Some("https://www.bing.com/search?q=x"),
    )
    .await;
    assert!(partner_cookie(&c, "rosace_partner")
        .unwrap()
        .starts_with("rosace_partner=bing;"));
    let c = page(&t, "/voyages?partnerid=trip-7", CONSENT_ALL, None).await;
    assert!(partner_cookie(&c, "rosace_lastclick_travel")
        .unwrap()
        .starts_with("rosace_lastclick_travel=trip-7;"));
    // Not partners: the shop itself, another site, a bad id (markup, too long).
    for (path, referer) in [
        ("/", Some("http://127.0.0.1/gr/authentication")),
        ("/", Some("https://google.example.com/")),
        ("/?partnerid=%3Cscript%3E", None),
        (&*format!("/?partnerid={}", "a".repeat(41)), None),
    ] {
        let c = page(&t, path, CONSENT_ALL, referer).await;
        assert!(
            partner_cookie(&c, "rosace_partner").is_none(),
            "{path} {referer:?}"
        );
    }

    // A first visit gives its consent on the banner: the partner of the page it is on.
    let first = t.get("/?partnerid=aff-1").await;
    let xsrf = cookie_value(&first, "XSRF-TOKEN").unwrap();
    let consent = |choice: &'static str| {
        let req = t
            .client
            .post(t.url("/onboarding/form/consent"))
            .header("cookie", xsrf_cookie(&xsrf))
            .form(&[
                ("_xsrf", xsrf.as_str()),
                ("choice", choice),
                ("back", "/?partnerid=aff-1"),
            ]);
        async move {
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), 303);
            set_cookies(&res)
        }
    };
    let c = consent("all").await;
    assert!(partner_cookie(&c, "rosace_partner")
        .unwrap()
        .starts_with("rosace_partner=aff-1;"));
    // Refusing gives none.
    assert!(partner_cookie(&consent("none").await, "rosace_partner").is_none());

    // A registration within the hour takes the visit's partner; its own link's wins.
    let page0 = t.get("/gr/authentication").await;
    let xsrf = cookie_value(&page0, "XSRF-TOKEN").unwrap();
    let register = |email: &'static str, extra: &'static [(&'static str, &'static str)]| {
        let xsrf = xsrf.clone();
        let t = &t;
        async move {
            let mut form = vec![("_xsrf", xsrf.as_str())];
            form.extend(super::registrations::registration(email, extra));
            let res = t
                .client
                .post(t.url("/gr/authentication/form"))
                .header(
                    "cookie",
                    format!("{}; rosace_partner=aff-1", xsrf_cookie(&xsrf)),
                )
                .form(&form)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 303);
            let location = res.headers()["location"].to_str().unwrap().to_string();
            assert!(location.contains("step=done"), "{location}");
        }
    };
    register("visit.partner@example.org", &[]).await;
    register("link.partner@example.org", &[("partnerid", "p-link")]).await;
    let partner_of = |email: &'static str| {
        let t = &t;
        async move {
            let p: String = sqlx::query_scalar(
                "SELECT a.partner_id FROM member_attribution a JOIN members m ON m.id = a.member_id
                  WHERE m.email = $1",
            )
            .bind(email)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
            p
        }
    };
    assert_eq!(partner_of("visit.partner@example.org").await, "aff-1");
    assert_eq!(partner_of("link.partner@example.org").await, "p-link");

    // A sign-in with the visit's cookie is credited; one without it is not.
    sqlx::query("UPDATE members SET status = 1 WHERE email = 'visit.partner@example.org'")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    for cookie in ["; rosace_partner=aff-1", "", "; rosace_partner=bad%20id"] {
        let res = t
            .client
            .post(t.url("/gr/authentication/form"))
            .header("cookie", format!("{}{cookie}", xsrf_cookie(&xsrf)))
            .form(&[
                ("_xsrf", xsrf.as_str()),
                ("step", "password"),
                ("email", "Visit.Partner@example.org"),
                ("password", "Velvet-Orchard-42"),
                ("returnurl", ""),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 303);
        assert!(cookie_value(&res, "rosace_session").is_some(), "signed in");
    }
    let sign_ins = t
        .count("SELECT COUNT(*) FROM partner_credits WHERE kind = 'sign_in' AND partner = 'aff-1'")
        .await;
    assert_eq!(sign_ins, 1);

    // An order paid with the last click's cookie is credited to it, once, with its total.
    let mut buyer = shopper(&t, app::onboarding::rules::TERMS_VERSION).await;
    buyer
        .cookie
        .push_str("; rosace_lastclick=aff-2; rosace_lastclick_travel=trip-7");
    let option = option_with_stock(&t, 0, 5).await;
    let (status, body) = buyer
        .call(
            &t,
            Method::POST,
            "/api/cartproxy/v1/item",
            Some(serde_json::json!({"product_id": option.to_string(), "quantity": 1, "cart_type": "fs"})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let order = freeze_and_pay(&t, &buyer).await;
    // The credit is written beside the answer: wait for it.
    let mut credited = 0;
    for _ in 0..50 {
        credited = t
            .count(&format!(
                "SELECT COUNT(*) FROM partner_credits WHERE order_id = {order} AND partner = 'aff-2'"
            ))
            .await;
        if credited == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        credited, 1,
        "the order is credited to the last click (not the travel one)"
    );
    let total = t
        .count(&format!("SELECT total FROM orders WHERE id = {order}"))
        .await;

    // The back office: what each partner brought on site 1.
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch.get(&t, "/backoffice/registrations?site=1").await;
    assert_eq!(status, 200, "{html}");
    let row = |partner: &str| -> String {
        let start = html
            .find(&format!("data-partner=\"{partner}\""))
            .unwrap_or_else(|| panic!("a row for {partner}: {html}"));
        html[start..start + html[start..].find("</tr>").unwrap()].to_string()
    };
    let aff1 = row("aff-1");
    assert!(
        aff1.contains("<td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">0</td>"),
        "one registration, one sign-in: {aff1}"
    );
    let aff2 = row("aff-2");
    assert!(
        aff2.contains("<td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">1</td>"),
        "{aff2}"
    );
    assert!(
        aff2.contains(&format!("{}.{:02} EUR", total / 100, total % 100)),
        "{aff2}"
    );
    // Cancelled, the order no longer counts.
    sqlx::query("UPDATE orders SET status = 'cancelled' WHERE id = $1")
        .bind(order)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (_, html) = merch.get(&t, "/backoffice/registrations?site=1").await;
    let start = html.find("data-partner=\"aff-2\"").unwrap();
    let aff2 = &html[start..start + html[start..].find("</tr>").unwrap()];
    assert!(
        aff2.contains("<td class=\"num\">0</td><td class=\"num\">0</td><td class=\"num\">0</td>")
    );
    // Another site, or a period before, has none.
    let (_, html) = merch.get(&t, "/backoffice/registrations?site=66").await;
    assert!(html.contains("data-testid=\"partners-none\""), "{html}");
}

both!(
    partners_bring_members_and_orders,
    partners_bring_members_and_orders_sqlite,
    partners_bring_members_and_orders_postgres,
    |c: &mut server::config::Config| c.page_cache_ms = 60_000
);

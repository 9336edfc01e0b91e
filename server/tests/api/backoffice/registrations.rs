//! Where registrations come from: an entry link's source (utm_*, formid, partnerid,
//! godfathertype, opendoor) is carried through the sign-in steps and the refused form,
//! recorded with the new account (also through the REST call), an open-door return
//! address counts as open-door, bad values are dropped without refusing the member; the
//! back office's report counts each source's registrations, activations and buyers, and
//! refuses a bad period; only marketing and admins see it.
use serde_json::json;

use super::*;
use crate::helpers::{both, cookie_value, xsrf_cookie, TestApp};

const LINK: &str = "utm_source=newsletter&utm_medium=email&utm_campaign=hiver%202026&formid=7&partnerid=p-9&godfathertype=ambassadeur";

/// Source, medium, campaign, form id, partner, sponsor type, open door.
type Row = (String, String, String, Option<i64>, String, String, i64);

async fn attribution(t: &TestApp, email: &str) -> Option<Row> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT a.utm_source, a.utm_medium, a.utm_campaign, a.form_id, a.partner_id,
                a.godfather_type, a.open_door
           FROM member_attribution a JOIN members m ON m.id = a.member_id WHERE m.email = $1",
    )
    .bind(email)
    .fetch_optional(&t.app.state.db.pool)
    .await
    .unwrap();
    row
}

/// Posts one step of the sign-in form; the redirect's address.
async fn step(t: &TestApp, xsrf: &str, fields: &[(&str, &str)]) -> String {
    let mut form = vec![("_xsrf", xsrf)];
    form.extend_from_slice(fields);
    let res = t
        .client
        .post(t.url("/gr/authentication/form"))
        .header("cookie", xsrf_cookie(xsrf))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    res.headers()["location"].to_str().unwrap().to_string()
}

/// The registration form's fields for `email`, then `extra`.
pub(super) fn registration<'a>(
    email: &'a str,
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut f = vec![
        ("step", "register"),
        ("email", email),
        ("password", "Velvet-Orchard-42"),
        ("civility", "2"),
        ("firstName", "Zoé"),
        ("lastName", "Durand"),
        ("birthDate", "15/08/1985"),
        ("cgv", "1"),
        ("privacyPolicy", "1"),
        ("returnurl", ""),
    ];
    for (k, v) in extra {
        f.retain(|(n, _)| n != k);
        f.push((k, v));
    }
    f
}

async fn sources_are_recorded_and_reported(t: TestApp) {
    // The entry page carries the link's source in its form.
    let page = t.get(&format!("/gr/authentication?{LINK}")).await;
    let xsrf = cookie_value(&page, "XSRF-TOKEN").unwrap();
    let html = page.text().await.unwrap();
    for carried in [
        "name=\"utm_source\" value=\"newsletter\"",
        "name=\"utm_campaign\" value=\"hiver 2026\"",
        "name=\"formid\" value=\"7\"",
        "name=\"partnerid\" value=\"p-9\"",
        "name=\"godfathertype\" value=\"ambassadeur\"",
    ] {
        assert!(html.contains(carried), "{carried}");
    }
    // A new address goes on to the registration with it.
    let carried = [
        ("utm_source", "newsletter"),
        ("utm_medium", "email"),
        ("utm_campaign", "hiver 2026"),
        ("formid", "7"),
        ("partnerid", "p-9"),
        ("godfathertype", "ambassadeur"),
    ];
    let mut fields = vec![
        ("step", "email"),
        ("email", "zoe.source@example.org"),
        ("returnurl", ""),
    ];
    fields.extend_from_slice(&carried);
    let location = step(&t, &xsrf, &fields).await;
    assert!(
        location.starts_with("/gr/registration?step=register"),
        "{location}"
    );
    for kv in [
        "utm_source=newsletter",
        "utm_campaign=hiver%202026",
        "formid=7",
        "partnerid=p-9",
    ] {
        assert!(location.contains(kv), "{kv} in {location}");
    }
    let html = t.get(&location).await.text().await.unwrap();
    assert!(
        html.contains("name=\"utm_medium\" value=\"email\""),
        "on the registration form"
    );

    // A refused registration keeps the source for the next try.
    let mut refused = registration("zoe.source@example.org", &carried);
    refused.retain(|(k, _)| *k != "privacyPolicy");
    let location = step(&t, &xsrf, &refused).await;
    assert!(
        location.contains("retry=1") && location.contains("utm_source=newsletter"),
        "{location}"
    );
    assert_eq!(attribution(&t, "zoe.source@example.org").await, None);

    // The accepted one records it with the account.
    let location = step(&t, &xsrf, &registration("zoe.source@example.org", &carried)).await;
    assert!(location.contains("step=done"), "{location}");
    assert_eq!(
        attribution(&t, "zoe.source@example.org").await,
        Some((
            "newsletter".into(),
            "email".into(),
            "hiver 2026".into(),
            Some(7),
            "p-9".into(),
            "ambassadeur".into(),
            0
        ))
    );

    // Returning to a page open to visitors is open-door; bad values are dropped, the member
    // is registered all the same.
    let long = "x".repeat(101);
    let location = step(
        &t,
        &xsrf,
        &registration(
            "leo.opendoor@example.org",
            &[
                ("returnurl", "/seo-product/robes/1001/robe-rouge/2001"),
                ("formid", "douze"),
                ("utm_source", long.as_str()),
                ("utm_medium", "<b>social</b>"),
            ],
        ),
    )
    .await;
    assert!(location.contains("step=done"), "{location}");
    assert_eq!(
        attribution(&t, "leo.opendoor@example.org").await,
        Some((
            String::new(),
            "<b>social</b>".into(),
            String::new(),
            None,
            String::new(),
            String::new(),
            1
        ))
    );
    // No source at all: no row, counted as direct.
    step(&t, &xsrf, &registration("ines.direct@example.org", &[])).await;
    assert_eq!(attribution(&t, "ines.direct@example.org").await, None);
    // Through the REST call, from its query.
    let xsrf_api = t.xsrf().await;
    let res = t
        .client
        .post(t.url("/api/authentication/v1/subscribe?utm_source=api-partner&opendoor=1"))
        .header("cookie", xsrf_cookie(&xsrf_api))
        .header("X-XSRF-TOKEN", &xsrf_api)
        .json(&json!({"siteId": 1, "email": "rest.source@example.org", "password": "Velvet-Orchard-42",
            "civility": 1, "firstName": "Rémi", "lastName": "Durand", "birthDate": "15/08/1985",
            "cgv": true, "privacyPolicy": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let rest = attribution(&t, "rest.source@example.org").await.unwrap();
    assert_eq!((rest.0.as_str(), rest.6), ("api-partner", 1));

    // Zoé activates her account and buys.
    sqlx::query("UPDATE members SET status = 1 WHERE email = 'zoe.source@example.org'")
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount,
                             shipping, loyalty, total, currency, payment_reference, created_at, updated_at)
         SELECT id, 1, 'attribution-k1', 'delivered', 'fs', 100, 0, 0, 0, 100, 'EUR', 'ref', $1, $1
           FROM members WHERE email = 'zoe.source@example.org'",
    )
    .bind(app::platform::state::now() - 3_600)
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();

    // The report, by source on site 1: newsletter 1 registered, 1 activated, 1 bought.
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch
        .get(&t, "/backoffice/registrations?by=source&site=1")
        .await;
    assert_eq!(status, 200, "{html}");
    let row = |html: &str, value: &str| -> String {
        let start = html
            .find(&format!("data-value=\"{value}\""))
            .unwrap_or_else(|| panic!("a row for {value:?}"));
        html[start..start + html[start..].find("</tr>").unwrap()].to_string()
    };
    let newsletter = row(&html, "newsletter");
    assert!(
        newsletter.contains("<td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">100.0 %</td>"),
        "{newsletter}"
    );
    assert!(row(&html, "api-partner").contains("<td class=\"num\">0</td><td class=\"num\">0</td>"));
    assert!(html.contains("(aucune : accès direct)") || html.contains("(none given: direct)"));
    // By medium: the markup a link put in a value is shown as text.
    let (_, html) = merch
        .get(&t, "/backoffice/registrations?by=medium&site=1")
        .await;
    assert!(html.contains("&lt;b&gt;social&lt;/b&gt;") && !html.contains("<b>social</b>"));
    // By form and by open door.
    let (_, html) = merch.get(&t, "/backoffice/registrations?by=form").await;
    assert!(row(&html, "7").contains("<td class=\"num\">1</td>"));
    let (_, html) = merch
        .get(&t, "/backoffice/registrations?by=opendoor&site=1")
        .await;
    assert!(
        row(&html, "1").contains("<td class=\"num\">2</td>"),
        "Léo and the REST call"
    );
    // Another site has none of them; a period before they registered neither.
    let (_, html) = merch
        .get(&t, "/backoffice/registrations?by=source&site=66")
        .await;
    assert!(!html.contains("data-value=\"newsletter\""));
    let (status, html) = merch
        .get(
            &t,
            "/backoffice/registrations?from=2020-01-01&until=2020-01-31",
        )
        .await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-testid=\"registrations-none\""),
        "{html}"
    );
    // A bad period is said, with what was typed.
    for bad in [
        "from=2026-02-30",
        "until=demain",
        "from=2026-12-02&until=2026-12-01",
    ] {
        let (status, html) = merch
            .get(&t, &format!("/backoffice/registrations?{bad}"))
            .await;
        assert_eq!(status, 422, "{bad}");
        assert!(html.contains("role=\"alert\""), "{bad}");
        assert!(!html.contains("id=\"registrations\""), "{bad}");
    }
    // Care does not see marketing's report, but sees on a member's page where they came
    // from and their segment.
    let care = sign_in(&t, CARE).await;
    let zoe = t
        .count("SELECT id FROM members WHERE email = 'zoe.source@example.org'")
        .await;
    let (status, html) = care.get(&t, &format!("/backoffice/members/{zoe}")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("utm_source=newsletter · utm_medium=email · utm_campaign=hiver 2026 · formid=7 · godfathertype=ambassadeur · partnerid=p-9"),
        "{html}"
    );
    assert!(html.contains("data-segment=\"first_order\""));
    let ines = t
        .count("SELECT id FROM members WHERE email = 'ines.direct@example.org'")
        .await;
    let (_, html) = care.get(&t, &format!("/backoffice/members/{ines}")).await;
    assert!(html.contains("(none given: direct)") || html.contains("(aucune : accès direct)"));
    assert!(html.contains("data-segment=\"prospect\""));
    let (status, _) = care.get(&t, "/backoffice/registrations").await;
    assert_eq!(status, 403);
    let (_, home) = care.get(&t, "/backoffice/").await;
    assert!(!home.contains("/backoffice/registrations"));
    let (_, home) = merch.get(&t, "/backoffice/").await;
    assert!(home.contains("/backoffice/registrations"));
}

both!(
    sources_are_recorded_and_reported,
    sources_are_recorded_and_reported_sqlite,
    sources_are_recorded_and_reported_postgres
);

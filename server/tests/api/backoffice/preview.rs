//! An operator previews a sale that opens tomorrow: the catalog renders at the chosen time
//! in that browser only, is never cached for anyone else, and ends with its cookie.
use super::*;
use crate::helpers::{both, cookie_value, TestApp};

/// The part of a `Set-Cookie` of `name`, if the response sets it.
fn set_cookie<'a>(res: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
}

async fn an_operator_previews_a_sale_before_it_opens(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let now = app::platform::state::now();
    let opens = now + 86_400;
    let (opens_field, closes_field) = (
        server::backoffice::ui::datetime_value(opens),
        server::backoffice::ui::datetime_value(opens + 3 * 86_400),
    );
    let (status, location, _) = merch
        .post(
            &t,
            "/backoffice/sales/new",
            &[
                ("site", "1"),
                ("name", "Ouverture de demain"),
                ("offer_type", "FlashSale"),
                ("starts_at", &opens_field),
                ("ends_at", &closes_field),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let sale: i64 = location
        .strip_prefix("/backoffice/sales/")
        .and_then(|r| r.split('?').next())
        .unwrap()
        .parse()
        .unwrap();
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/sales/{sale}/products/new"),
            &[
                ("name", "Duffle-coat en avant-première"),
                ("price", "99"),
                ("retail_price", "199"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    let (_, page) = merch.get(&t, &format!("/backoffice/sales/{sale}")).await;
    assert!(
        page.contains(&format!(r#"value="{opens_field}""#)),
        "the form starts at the opening"
    );

    // Refused: a time that does not read, or further than a year away.
    for bad in ["tomorrow", "2099-01-01T08:00"] {
        let (status, _, html) = merch
            .post(
                &t,
                &format!("/backoffice/sales/{sale}/preview"),
                &[("at", bad), ("page", "catalog")],
            )
            .await;
        assert_eq!(status, 422, "{bad}");
        assert!(html.contains("Choose a date and time within a year"));
    }
    assert_eq!(audit_count(&t, "preview", "sale").await, 0);

    let res = t
        .client
        .post(t.url(&format!("/backoffice/sales/{sale}/preview")))
        .header("cookie", &merch.cookie)
        .form(&[
            ("_xsrf", merch.xsrf.as_str()),
            ("at", &server::backoffice::ui::datetime_value(opens + 3600)),
            ("page", "catalog"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let to = res.headers()["location"].to_str().unwrap();
    assert!(
        to.starts_with("/c/") && to.ends_with(&format!("/{sale}/0?site=1")),
        "the sale's open-door catalog: {to}"
    );
    let set = set_cookie(&res, "rosace_preview").expect("the preview cookie");
    for attribute in ["Path=/", "HttpOnly", "SameSite=Strict", "Max-Age=1800"] {
        assert!(set.contains(attribute), "{set}");
    }
    let preview = format!(
        "rosace_preview={}",
        cookie_value(&res, "rosace_preview").unwrap()
    );
    assert_eq!(audit_count(&t, "preview", "sale").await, 1);

    // A member without the cookie: the sale is not open, before and after the preview.
    let member = t.member_session(1).await;
    let catalog = format!("/catalog/{sale}/0?site=1");
    let html_of = |cookie: String| {
        let t = &t;
        let catalog = catalog.clone();
        async move {
            let res = t.get_with_cookie(&catalog, &cookie).await;
            let cache = res
                .headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            (cache, res.text().await.unwrap())
        }
    };
    let (_, before) = html_of(member.clone()).await;
    assert!(!before.contains("Duffle-coat en avant-première"));
    // With it: the catalog as at its opening, said on the page, kept by no cache.
    let (cache, previewed) = html_of(format!("{member}; {preview}")).await;
    assert!(
        previewed.contains("Duffle-coat en avant-première"),
        "the previewed catalog lists the product"
    );
    assert!(previewed.contains(r#"data-testid="operator-preview""#));
    assert_eq!(cache, "no-store");
    let (_, after) = html_of(member.clone()).await;
    assert!(
        !after.contains("Duffle-coat en avant-première"),
        "the preview reached no one else"
    );
    // What the previewed pages load from the browser (a product's options, more items)
    // is read at the preview's time too; never kept by a cache, and never for anyone else.
    let product = t
        .count(&format!(
            "SELECT MAX(id) FROM products WHERE sale_id = {sale}"
        ))
        .await;
    let options = format!("/api/catalog/v1/sale/{sale}/item/{product}/options");
    let res = t
        .get_with_cookie(&options, &format!("{member}; {preview}"))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(t.get_with_cookie(&options, &member).await.status(), 404);
    let content = format!("/api/catalog/v2/sale/{sale}/catalogContent/0");
    let res = t
        .get_with_cookie(&content, &format!("{member}; {preview}"))
        .await;
    assert_eq!(res.status(), 200);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Duffle-coat en avant-première"));
    // Bound to its site, and to the server's signature.
    let other_site = t.member_session(66).await;
    let res = t
        .get_with_cookie(
            &format!("/catalog/{sale}/0?site=66"),
            &format!("{other_site}; {preview}"),
        )
        .await;
    assert!(!res.text().await.unwrap().contains("operator-preview"));
    // The cookie is `site.at.end.signature`: another time in front of the same signature.
    let at: i64 = preview.split('.').nth(1).unwrap().parse().unwrap();
    let forged = preview.replacen(&format!(".{at}."), &format!(".{}.", at + 3600), 1);
    assert_ne!(forged, preview);
    let (_, html) = html_of(format!("{member}; {forged}")).await;
    assert!(
        !html.contains("Duffle-coat en avant-première"),
        "a forged time is ignored"
    );

    // The back office says a preview runs, and ends it.
    let cookies = format!("{}; {preview}", merch.cookie);
    let res = t.get_with_cookie("/backoffice/preview", &cookies).await;
    assert!(res
        .text()
        .await
        .unwrap()
        .contains(r#"data-testid="preview-running""#));
    let res = t
        .client
        .post(t.url("/backoffice/preview/end"))
        .header("cookie", &cookies)
        .form(&[("_xsrf", merch.xsrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert!(set_cookie(&res, "rosace_preview").is_some_and(|c| c.contains("Max-Age=0")));
    // The end needs the operator's form token like every back-office write.
    let res = t
        .client
        .post(t.url("/backoffice/preview/end"))
        .header("cookie", &cookies)
        .form(&[("_xsrf", "forged")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}
both!(
    an_operator_previews_a_sale_before_it_opens,
    preview_on_sqlite,
    preview_on_postgres
);

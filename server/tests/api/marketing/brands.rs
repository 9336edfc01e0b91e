//! The brands place: A–Z of the live sales' brands, search without scripts, and brand
//! alerts from the list (the member's own only, CSRF, Post/Redirect/Get).
use reqwest::Method;
use serde_json::Value;

use super::{page, post_form};
use crate::helpers::cart::shopper;
use crate::helpers::{both, TestApp};

const FORM: &str = "/brandsplace/form";

fn brand_rows(html: &str) -> usize {
    html.matches("data-testid=\"place-brand\"").count()
}

async fn brands_place_lists_and_searches(t: TestApp) {
    let (status, _, html) = page(&t, None, "/brandsplace").await;
    assert_eq!(status, 200, "open to visitors (crawlable)");
    let (_, list) = shopper(&t, 2)
        .await
        .call(&t, Method::GET, "/api/catalog/v1/brands", None)
        .await;
    let names: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.len() > 3, "{names:?}");
    assert_eq!(brand_rows(&html), names.len(), "every live brand is listed");
    assert!(
        html.contains("href=\"#brands-"),
        "the letter index links to sections"
    );
    assert!(html.contains("class=\"brandsplace__index\""));
    assert!(!html.contains(FORM), "no alert forms for a visitor");
    let first = &list[0];
    assert!(html.contains(&format!("href=\"/b/{}\"", first["id"])));
    // Every brand listed has live items on this site.
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["items"].as_i64().unwrap() > 0));

    // Search without scripts: a GET form, accent- and case-blind.
    let one = names[0].clone();
    let q = one.to_uppercase().replace(' ', "+");
    let (status, _, found) = page(&t, None, &format!("/brandsplace?q={q}")).await;
    assert_eq!(status, 200);
    let expected = names
        .iter()
        .filter(|n| app::brands::rules::matches(n, &one))
        .count();
    assert_eq!(brand_rows(&found), expected, "{one}");
    assert!(found.contains(&format!("value=\"{}\"", one.to_uppercase())));
    let (_, _, none) = page(&t, None, "/brandsplace?q=zzzzqqq").await;
    assert_eq!(brand_rows(&none), 0);
    assert!(none.contains("data-testid=\"brandsplace-empty\""));
    // A search with markup is text, never HTML.
    let (status, _, odd) = page(&t, None, "/brandsplace?q=%3Cscript%3Ex").await;
    assert_eq!(status, 200);
    assert!(!odd.contains("<script>x"));
}
both!(
    brands_place_lists_and_searches,
    brands_place_lists_and_searches_on_sqlite,
    brands_place_lists_and_searches_on_postgres
);

fn followed(list: &Value, brand: i64) -> bool {
    list.as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"].as_i64() == Some(brand))
        .map(|b| b["followed"].as_bool().unwrap())
        .unwrap()
}

async fn brand_alerts_from_the_place(t: TestApp) {
    let a = shopper(&t, 2).await;
    let b = shopper(&t, 2).await;
    let (_, list) = a
        .call(&t, Method::GET, "/api/catalog/v1/brands", None)
        .await;
    let brand = list[0]["id"].as_i64().unwrap();
    let id = brand.to_string();
    let (_, _, html) = page(&t, Some(&a), "/brandsplace").await;
    assert!(html.contains(FORM), "a member gets the follow forms");

    // Without the token: refused, nothing stored.
    let res = t
        .client
        .post(t.url(&format!("{FORM}/follow")))
        .header("cookie", &a.cookie)
        .form(&[("brandId", id.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let count = |m: i64| format!("SELECT COUNT(*) FROM brand_alerts WHERE member_id = {m}");
    assert_eq!(t.count(&count(a.member_id)).await, 0);

    // Follow: back to the place (search kept) with the notice, the state shown.
    let (status, location) = post_form(
        &t,
        &a,
        &format!("{FORM}/follow"),
        &[("brandId", &id), ("q", "a b")],
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(
        location,
        "/brandsplace?notice=brandsplace.notice.followed&q=a%20b"
    );
    assert_eq!(t.count(&count(a.member_id)).await, 1);
    let (_, _, html) = page(&t, Some(&a), &location).await;
    assert!(html.contains("Alerte marque activée"));
    assert!(html.contains(&format!("data-brand-id=\"{brand}\"")));
    let (_, mine) = a
        .call(&t, Method::GET, "/api/catalog/v1/brands", None)
        .await;
    assert!(followed(&mine, brand));
    // The same alert as the communications page's.
    let (_, settings) = a
        .call(&t, Method::GET, "/api/postsales/v1/communications", None)
        .await;
    assert_eq!(
        settings["brandAlerts"]["brands"][0]["id"].as_i64(),
        Some(brand),
        "{settings}"
    );
    // Following twice keeps one alert.
    post_form(&t, &a, &format!("{FORM}/follow"), &[("brandId", &id)]).await;
    assert_eq!(t.count(&count(a.member_id)).await, 1);

    // Another member sees their own state, and their unfollow leaves A's alert alone.
    let (_, theirs) = b
        .call(&t, Method::GET, "/api/catalog/v1/brands", None)
        .await;
    assert!(!followed(&theirs, brand));
    post_form(&t, &b, &format!("{FORM}/unfollow"), &[("brandId", &id)]).await;
    assert_eq!(t.count(&count(a.member_id)).await, 1);

    // Unknown brand, unreadable id: a message; an unknown action has no route. Nothing stored.
    let (_, location) =
        post_form(&t, &a, &format!("{FORM}/follow"), &[("brandId", "999999")]).await;
    assert_eq!(location, "/brandsplace?error=errors.not_found");
    let (_, location) = post_form(&t, &a, &format!("{FORM}/follow"), &[("brandId", "x")]).await;
    assert_eq!(location, "/brandsplace?error=errors.not_found");
    let (status, _) = post_form(&t, &a, &format!("{FORM}/drop"), &[("brandId", &id)]).await;
    assert!([404, 405].contains(&status), "no such action: {status}");
    assert_eq!(t.count(&count(a.member_id)).await, 1);

    // Unfollow.
    let (_, location) = post_form(&t, &a, &format!("{FORM}/unfollow"), &[("brandId", &id)]).await;
    assert_eq!(
        location,
        "/brandsplace?notice=brandsplace.notice.unfollowed"
    );
    assert_eq!(t.count(&count(a.member_id)).await, 0);

    // A visitor with a valid token is sent to sign in; nothing stored.
    let xsrf = t.xsrf().await;
    let res = t
        .client
        .post(t.url(&format!("{FORM}/follow")))
        .header("cookie", crate::helpers::xsrf_cookie(&xsrf))
        .form(&[("_xsrf", xsrf.as_str()), ("brandId", id.as_str())])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_redirection());
    assert!(res.headers()["location"]
        .to_str()
        .unwrap()
        .contains("authentication"));
    assert_eq!(t.count("SELECT COUNT(*) FROM brand_alerts").await, 0);
}
both!(
    brand_alerts_from_the_place,
    brand_alerts_from_the_place_on_sqlite,
    brand_alerts_from_the_place_on_postgres
);

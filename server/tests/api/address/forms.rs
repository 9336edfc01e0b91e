//! The address page and its forms without scripts (Post/Redirect/Get), and the cart's
//! delivery step as the server renders it.
use crate::helpers::cart::Shopper;
use crate::helpers::{both, TestApp};

use super::{member_on, rows};

const PAGE: &str = "/postsales/myaccount/addresses/";
const FORM: &str = "/postsales/myaccount/addresses/form/save";

/// Posts to the action's own route (`action` names it; it is not a field).
async fn post(t: &TestApp, s: &Shopper, fields: &[(&str, &str)], xsrf: bool) -> reqwest::Response {
    let action = fields
        .iter()
        .find(|(k, _)| *k == "action")
        .map_or("save", |(_, v)| *v);
    let mut all: Vec<(&str, &str)> = fields
        .iter()
        .copied()
        .filter(|(k, _)| *k != "action")
        .collect();
    if xsrf {
        all.push(("_xsrf", &s.xsrf));
    }
    t.client
        .post(t.url(&format!("/postsales/myaccount/addresses/form/{action}")))
        .header("cookie", &s.cookie)
        .form(&all)
        .send()
        .await
        .unwrap()
}

/// The redirect, without the `site` parameter a test server (no site hosts) adds.
fn location(res: &reqwest::Response) -> String {
    res.headers()["location"]
        .to_str()
        .unwrap()
        .replace("&site=1", "")
        .replace("?site=1", "")
}

const GOOD: [(&str, &str); 9] = [
    ("action", "save"),
    ("firstName", "Camille"),
    ("lastName", "Durand"),
    ("details", "12 rue de la Paix"),
    ("extras", ""),
    ("zipCode", "97400"),
    ("city", "Paris"),
    ("country", "FR"),
    ("phone", "0612345678"),
];

fn with_zip(zip: &'static str) -> Vec<(&'static str, &'static str)> {
    GOOD.iter()
        .map(|(k, v)| (*k, if *k == "zipCode" { zip } else { *v }))
        .collect()
}

async fn page(t: &TestApp, s: &Shopper, query: &str, extra_cookie: &str) -> String {
    let cookie = format!("{}; {extra_cookie}", s.cookie);
    let res = t.get_with_cookie(&format!("{PAGE}{query}"), &cookie).await;
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

async fn no_script_forms(t: TestApp) {
    let a = member_on(&t, 1).await;
    let html = page(&t, &a, "", "").await;
    assert!(
        html.contains("data-testid=\"addresses-empty\"")
            && html.contains("Vous n&#x27;avez pas encore")
            || html.contains("Vous n'avez pas encore")
    );

    // Refused: back to the form with the spec's message and what was typed; nothing stored.
    let res = post(&t, &a, &with_zip("97400"), true).await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), format!("{PAGE}?retry=1#address-form"));
    let cookie = crate::helpers::cookie_value(&res, "rosace_address_form").expect("draft cookie");
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set.contains("HttpOnly") && set.contains(&format!("Path={PAGE}")),
        "{set}"
    );
    assert_eq!(rows(&t, a.member_id).await, 0);
    let html = page(&t, &a, "?retry=1", &format!("rosace_address_form={cookie}")).await;
    assert!(
        html.contains("Nous ne livrons pas à ce code postal."),
        "forbidden zip message"
    );
    assert!(html.contains("value=\"Camille\"") && html.contains("value=\"97400\""));

    // Saved: back with the notice; the page lists it, phone written the French way.
    let res = post(&t, &a, &with_zip("75002"), true).await;
    assert_eq!(
        location(&res),
        format!("{PAGE}?notice=address.notice.saved")
    );
    assert_eq!(rows(&t, a.member_id).await, 1);
    let html = page(&t, &a, "?notice=address.notice.saved", "").await;
    assert!(html.contains("Votre adresse est enregistrée."));
    assert!(html.contains("06 12 34 56 78") && html.contains("Adresse favorite"));
    let id: i64 = sqlx::query_scalar("SELECT id FROM member_addresses WHERE member_id = $1")
        .bind(a.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    // Change it: the edit form shows its values.
    let html = page(&t, &a, &format!("?edit={id}"), "").await;
    assert!(html.contains("Modifier l&#x27;adresse") || html.contains("Modifier l'adresse"));
    let mut change = with_zip("69002");
    let id_text = id.to_string();
    change.push(("id", &id_text));
    change.push(("isFavorite", "true"));
    assert_eq!(
        location(&post(&t, &a, &change, true).await),
        format!("{PAGE}?notice=address.notice.saved")
    );
    let zip: String = sqlx::query_scalar("SELECT zip_code FROM member_addresses WHERE id = $1")
        .bind(id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(zip, "69002");

    // Another member's id: not found, nothing changed; no XSRF field: 403.
    let b = member_on(&t, 1).await;
    for action in ["favorite", "delete"] {
        let res = post(&t, &b, &[("action", action), ("id", &id_text)], true).await;
        assert_eq!(
            location(&res),
            format!("{PAGE}?error=errors.not_found"),
            "{action}"
        );
    }
    let mut theirs = with_zip("75002");
    theirs.push(("id", &id_text));
    assert_eq!(
        location(&post(&t, &b, &theirs, true).await),
        format!("{PAGE}?error=errors.not_found")
    );
    assert_eq!(
        post(&t, &a, &[("action", "delete"), ("id", &id_text)], false)
            .await
            .status(),
        403
    );
    assert_eq!(rows(&t, a.member_id).await, 1);
    assert_eq!(rows(&t, b.member_id).await, 0);
    let garbage = t
        .client
        .post(t.url(FORM))
        .header("cookie", &a.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("%%%&&==")
        .send()
        .await
        .unwrap();
    assert!(
        garbage.status().is_redirection() || garbage.status() == 403,
        "{}",
        garbage.status()
    );

    // The cart's inline form comes back to the cart.
    let mut inline = with_zip("7500");
    inline.push(("returnTo", "cart"));
    let res = post(&t, &a, &inline, true).await;
    assert_eq!(location(&res), "/cart?retry=1#delivery");
    assert!(res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .contains("Path=/cart"));
    // The cart's delivery step: the favourite chosen.
    let res = t.get_with_cookie("/cart", &a.cookie).await;
    let html = res.text().await.unwrap();
    assert!(html.contains("data-testid=\"delivery-choice\""));
    assert!(
        html.contains(&format!(
            "name=\"deliveryAddressId\" value=\"{id}\" checked"
        )),
        "favourite preselected"
    );

    // Make favourite and delete, as the member.
    assert_eq!(
        location(&post(&t, &a, &[("action", "favorite"), ("id", &id_text)], true).await),
        format!("{PAGE}?notice=address.notice.favorite")
    );
    assert_eq!(
        location(&post(&t, &a, &[("action", "delete"), ("id", &id_text)], true).await),
        format!("{PAGE}?notice=address.notice.deleted")
    );
    assert_eq!(rows(&t, a.member_id).await, 0);
    // A member without an address is told at the cart.
    let html = t
        .get_with_cookie("/cart", &a.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Ajoutez une adresse de livraison pour pouvoir payer."));
    // Signed out: the page asks to sign in.
    let res = t.get(PAGE).await;
    assert!(res.status().is_redirection());
}

both!(
    no_script_forms,
    no_script_forms_on_sqlite,
    no_script_forms_on_postgres
);

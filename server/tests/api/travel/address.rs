//! The travel checkout with the member's address book (spec 001 §2: "each
//! participant's name and birthday, the member's address, then payment"): the booking call
//! takes one of the member's saved addresses and the order keeps a copy; another member's
//! or an unknown address id is refused (404) and an empty address book blocks the booking
//! (400, `addressId`), holding nothing either way. The checkout page offers the saved
//! addresses (the favourite chosen) or, without any, says so and links to the address page,
//! which comes back to the checkout once an address is saved (same-site paths only).
use reqwest::Method;
use serde_json::{json, Value};

use super::{booking, departure, Departure};
use crate::address::{member_on, paris, with, A};
use crate::helpers::cart::Shopper;
use crate::helpers::{both, TestApp};

const PAGE: &str = "/postsales/myaccount/addresses/";
const FORM: &str = "/postsales/myaccount/addresses/form/save";

/// Saves an address through the address service; its id.
async fn add(t: &TestApp, s: &Shopper, address: Value) -> i64 {
    let (status, saved) = s.call(t, Method::POST, A, Some(address)).await;
    assert_eq!(status, 201, "{saved}");
    saved["id"].as_i64().unwrap()
}

fn two_adults(d: &Departure, address_id: Option<i64>) -> Value {
    let mut body = booking(d, json!([{ "type": "adults" }, { "type": "adults" }]));
    if let Some(id) = address_id {
        body["addressId"] = json!(id);
    }
    body
}

async fn bookings_of(t: &TestApp, s: &Shopper) -> i64 {
    t.count(&format!(
        "SELECT COUNT(*) FROM travel_bookings WHERE member_id = {}",
        s.member_id
    ))
    .await
}

/// Departures with places held right now.
async fn holding(t: &TestApp) -> i64 {
    t.count("SELECT COUNT(*) FROM travel_departures WHERE held > 0")
        .await
}

/// The checkout page of the departure (two adults), as the member's browser gets it.
async fn checkout_page(t: &TestApp, s: &Shopper, d: &Departure) -> (String, String) {
    let path = format!("/t/p/{}/{}/checkout", d.0, d.1);
    let query = format!(
        "package={}&city={}&days={}&nights={}&checkin={}&party=a,a",
        d.2, d.3, d.5, d.6, d.7
    );
    let res = t
        .get_with_cookie(&format!("{path}?{query}"), &s.cookie)
        .await;
    assert_eq!(res.status(), 200);
    (format!("{path}?{query}"), res.text().await.unwrap())
}

/// The page says `text` (apostrophes may come escaped).
fn shows(html: &str, text: &str) -> bool {
    html.contains(text) || html.contains(&text.replace('\'', "&#x27;"))
}

async fn address_book_at_checkout(t: TestApp) {
    // A: two addresses, Lyon the favourite. B: one of their own. C: none.
    let a = member_on(&t, 1).await;
    let b = member_on(&t, 1).await;
    let c = member_on(&t, 1).await;
    let d = departure(&t, &a).await;
    let paris_id = add(&t, &a, paris()).await;
    let lyon = with(
        with(
            with(paris(), "city", json!("Lyon")),
            "zipCode",
            json!("69002"),
        ),
        "isFavorite",
        json!(true),
    );
    let lyon_id = add(&t, &a, with(lyon, "details", json!("5 place Bellecour"))).await;
    let b_id = add(&t, &b, paris()).await;

    // The page: the saved addresses in the form, the favourite chosen, no typed address.
    let (here, html) = checkout_page(&t, &a, &d).await;
    assert!(
        html.contains("data-testid=\"trip-checkout-form\""),
        "{html}"
    );
    assert!(html.contains("data-testid=\"delivery-choice\""));
    assert!(
        html.contains(&format!(
            "name=\"deliveryAddressId\" value=\"{lyon_id}\" checked"
        )),
        "the favourite is preselected"
    );
    assert!(html.contains(&format!("name=\"deliveryAddressId\" value=\"{paris_id}\"")));
    assert!(!html.contains("id=\"address-street\""), "no typed address");
    assert!(!html.contains("data-field=\"addressId\""), "nothing blocks");
    let back = format!("returnTo={}", app::routes::encode_query_value(&here));
    assert!(
        html.contains(&format!("href=\"{PAGE}?{back}#address-form\"")),
        "adding an address comes back here"
    );

    // Booked with the address chosen (not the favourite): the booking keeps its copy.
    let (status, held) = a
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(two_adults(&d, Some(paris_id))),
        )
        .await;
    assert_eq!(status, 201, "{held}");
    let id = held["id"].as_i64().unwrap();
    let (status, paid) = a
        .call(
            &t,
            Method::POST,
            &format!("/api/travel/v1/bookings/{id}/pay"),
            Some(json!({ "card": "4242 4242 4242 4242" })),
        )
        .await;
    assert_eq!(
        (status, paid["status"].as_str()),
        (200, Some("paid")),
        "{paid}"
    );
    let order_id = paid["orderId"].as_i64().unwrap();
    let recorded: String = sqlx::query_scalar(
        "SELECT address_json FROM travel_bookings WHERE id = $1 AND order_id = $2",
    )
    .bind(id)
    .bind(order_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let recorded: Value = serde_json::from_str(&recorded).unwrap();
    assert_eq!(
        (
            recorded["details"].as_str(),
            recorded["zipCode"].as_str(),
            recorded["city"].as_str(),
            recorded["lastName"].as_str(),
            recorded["country"].as_str(),
        ),
        (
            Some("12 rue de la Paix"),
            Some("75002"),
            Some("Paris"),
            Some("Durand"),
            Some("FR")
        ),
        "{recorded}"
    );
    // The order has that address too, as a shop order does (My orders, the invoice).
    let (city, zip): (String, String) =
        sqlx::query_as("SELECT city, zip_code FROM order_addresses WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert_eq!((city.as_str(), zip.as_str()), ("Paris", "75002"));
    // Left out, the favourite is taken.
    let (status, held) = a
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(two_adults(&d, None)),
        )
        .await;
    assert_eq!(status, 201, "{held}");
    let recorded: String =
        sqlx::query_scalar("SELECT address_json FROM travel_bookings WHERE id = $1")
            .bind(held["id"].as_i64().unwrap())
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    assert!(recorded.contains("5 place Bellecour"), "{recorded}");
    let (status, _) = a
        .call(
            &t,
            Method::POST,
            &format!("/api/travel/v1/bookings/{}/cancel", held["id"]),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(holding(&t).await, 0);

    // B with A's address, or an id nobody has: refused, nothing booked, nothing held.
    for other in [paris_id, lyon_id, 987_654_321] {
        let (status, err) = b
            .call(
                &t,
                Method::POST,
                "/api/travel/v1/checkout",
                Some(two_adults(&d, Some(other))),
            )
            .await;
        assert_eq!(
            (
                status,
                err["error_code"].as_str(),
                err["error_description"].as_str()
            ),
            (
                404,
                Some("unknown_address"),
                Some("travel.error.unknown_address")
            ),
            "{err}"
        );
    }
    assert_eq!(bookings_of(&t, &b).await, 0);
    assert_eq!(holding(&t).await, 0);
    // Their own address is fine (then given back).
    let (status, held) = b
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(two_adults(&d, Some(b_id))),
        )
        .await;
    assert_eq!(status, 201, "{held}");
    b.call(
        &t,
        Method::POST,
        &format!("/api/travel/v1/bookings/{}/cancel", held["id"]),
        None,
    )
    .await;

    // C has no address: the booking is blocked on it, nothing held; a foreign id is 404.
    let (status, err) = c
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(two_adults(&d, None)),
        )
        .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["error_code"], "booking_blocked");
    assert_eq!(err["error_description"], "travel.block.missing_address");
    assert_eq!(
        err["fieldErrors"],
        json!([{ "field": "addressId", "messageKey": "travel.block.missing_address" }])
    );
    let (status, err) = c
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(two_adults(&d, Some(b_id))),
        )
        .await;
    assert_eq!(
        (status, err["error_code"].as_str()),
        (404, Some("unknown_address"))
    );
    assert_eq!(bookings_of(&t, &c).await, 0);
    assert_eq!(holding(&t).await, 0);

    // C's page: the block names the address, no payment form, the link to add one.
    let (here, html) = checkout_page(&t, &c, &d).await;
    assert!(html.contains("data-testid=\"trip-checkout-blocked\""));
    assert!(html.contains("data-field=\"addressId\""));
    assert!(
        shows(&html, "une adresse dans votre carnet d'adresses"),
        "{html}"
    );
    assert!(shows(&html, "Vous n'avez pas encore d'adresse enregistrée"));
    assert!(!html.contains("data-testid=\"trip-checkout-form\""));
    assert!(!html.contains("data-testid=\"trip-pay\""));
    let back = format!("returnTo={}", app::routes::encode_query_value(&here));
    assert!(html.contains(&format!("href=\"{PAGE}?{back}#address-form\"")));

    // The address page opened from there keeps the way back, and saving comes back.
    let res = t
        .get_with_cookie(&format!("{PAGE}?{back}"), &c.cookie)
        .await;
    let page = res.text().await.unwrap();
    assert!(page.contains("data-testid=\"address-back\""));
    let kept = format!("name=\"returnTo\" value=\"{here}\"");
    assert!(
        page.contains(&kept) || page.contains(&kept.replace('&', "&amp;")),
        "the form keeps the way back"
    );
    let save = |return_to: &str| {
        let fields: Vec<(String, String)> = [
            ("action", "save"),
            ("firstName", "Camille"),
            ("lastName", "Durand"),
            ("details", "12 rue de la Paix"),
            ("extras", ""),
            ("zipCode", "75002"),
            ("city", "Paris"),
            ("country", "FR"),
            ("phone", "0612345678"),
            ("returnTo", return_to),
            ("_xsrf", &c.xsrf),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        t.client
            .post(t.url(FORM))
            .header("cookie", &c.cookie)
            .form(&fields)
            .send()
    };
    let location = |res: &reqwest::Response| {
        res.headers()["location"]
            .to_str()
            .unwrap()
            .replace("&site=1", "")
            .replace("?site=1", "")
    };
    // A refused address stays on the address page, still on the way back.
    let refused = t
        .client
        .post(t.url(FORM))
        .header("cookie", &c.cookie)
        .form(&[
            ("action", "save"),
            ("firstName", "Camille"),
            ("returnTo", here.as_str()),
            ("_xsrf", c.xsrf.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(
        location(&refused),
        format!("{PAGE}?retry=1&{back}#address-form")
    );
    // An outside address is never followed: the address page as usual.
    for evil in [
        "//evil.example/t",
        "https://evil.example/",
        "/\\evil.example",
    ] {
        let res = save(evil).await.unwrap();
        assert_eq!(
            location(&res),
            format!("{PAGE}?notice=address.notice.saved"),
            "{evil}"
        );
    }
    sqlx::query("DELETE FROM member_addresses WHERE member_id = $1")
        .bind(c.member_id)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let res = save(&here).await.unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), here);
    // Back at the checkout: the new address chosen, the form there.
    let (_, html) = checkout_page(&t, &c, &d).await;
    assert!(html.contains("data-testid=\"trip-checkout-form\""));
    assert!(!html.contains("data-field=\"addressId\""));
    let new_id: i64 = sqlx::query_scalar("SELECT id FROM member_addresses WHERE member_id = $1")
        .bind(c.member_id)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(html.contains(&format!(
        "name=\"deliveryAddressId\" value=\"{new_id}\" checked"
    )));
}

both!(
    address_book_at_checkout,
    travel_checkout_books_with_the_members_address_book_on_sqlite,
    travel_checkout_books_with_the_members_address_book_on_postgres,
);

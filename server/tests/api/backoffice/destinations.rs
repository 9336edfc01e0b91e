//! A city the site has no trip to yet: added on the "make it a trip" page with its region
//! and country (found by name or made), refused with the reason when a name is missing or
//! the site has that city already; and added by a feed that gives its region and country.
use serde_json::json;

use super::feed::import_from;
use super::*;
use crate::helpers::{both, TestApp};

async fn destination_rows(t: &TestApp, kind: &str, name: &str) -> i64 {
    t.count(&format!(
        "SELECT COUNT(*) FROM travel_destinations WHERE site_id = 1 AND kind = '{kind}' AND name = '{name}'"
    ))
    .await
}

async fn an_operator_adds_a_destination_and_a_trip_goes_there(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let sale = merch.sale_made(&t, "trips", "Escapades portugaises").await;
    let product = merch
        .product_added(&t, sale, ("Pousada do Porto", "399", "599"))
        .await;
    let form = format!("/backoffice/products/{product}/trip/destination");
    let before = t.count("SELECT COUNT(*) FROM travel_destinations").await;

    // Refused, with the reason, nothing added: a missing name, a city the site has.
    let (status, _, html) = merch
        .post(
            &t,
            &form,
            &[("city", "Porto"), ("region", " "), ("country", "Portugal")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter a name of 1 to 80 characters."));
    assert!(html.contains(r#"value="Porto""#), "what was typed stays");
    let known: String = sqlx::query_scalar(
        "SELECT name FROM travel_destinations WHERE site_id = 1 AND kind = 'city' ORDER BY id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    let (status, _, html) = merch
        .post(
            &t,
            &form,
            &[
                ("city", &known.to_uppercase()),
                ("region", "R"),
                ("country", "C"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("This site already has a city of this name"));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM travel_destinations").await,
        before
    );

    // Added: Porto in Norte, Portugal; the page lists it and a trip goes there.
    let (status, location, _) = merch
        .post(
            &t,
            &form,
            &[
                ("city", "Porto"),
                ("region", "Norte"),
                ("country", "Portugal"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        location,
        format!("/backoffice/products/{product}/trip?done=destination#destination")
    );
    assert_eq!(destination_rows(&t, "city", "Porto").await, 1);
    assert_eq!(destination_rows(&t, "region", "Norte").await, 1);
    let city = t
        .count("SELECT id FROM travel_destinations WHERE site_id = 1 AND kind = 'city' AND name = 'Porto'")
        .await;
    let (status, html) = merch.get(&t, &location).await;
    assert_eq!(status, 200);
    assert!(html.contains("Destination added"));
    assert!(html.contains(&format!(r#"<option value="{city}">Porto (Norte)</option>"#)));
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/products/{product}/trip"),
            &[
                ("destination", &city.to_string()),
                ("latitude", "41.1579"),
                ("longitude", "-8.6291"),
                ("trip_type", "weekend"),
                ("board", "breakfast"),
                ("accommodation", "hotel"),
                ("rating", "4"),
                ("transport", "flight"),
                ("highlights", "Ribeira"),
                ("party_min", "1"),
                ("party_max", "4"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT destination_id FROM travel_offers WHERE product_id = {product}"
        ))
        .await,
        city
    );
    assert_eq!(destination_rows(&t, "country", "Portugal").await, 1);
    // A care operator may not add one.
    let care = sign_in(&t, CARE).await;
    let (status, _, _) = care
        .post(
            &t,
            &form,
            &[
                ("city", "Braga"),
                ("region", "Norte"),
                ("country", "Portugal"),
            ],
        )
        .await;
    assert_eq!(status, 403);
    assert_eq!(destination_rows(&t, "city", "Braga").await, 0);

    // A feed's trip to a city the site lacks: added when the feed gives its region and
    // country (the region found by name), refused with its path when it does not.
    let feed = |city: &str, region: Option<&str>| {
        let mut travel = json!({
            "destination": city, "latitude": "41.5454", "longitude": "-8.4265",
            "trip_type": "stay", "board": "half_board", "accommodation": "hotel", "rating": 4,
            "transport": "flight", "party_min": 1, "party_max": 4
        });
        if let Some(region) = region {
            travel["region"] = json!(region);
            travel["country"] = json!("Portugal");
        }
        json!({ "sales": [{
            "ref": "minho", "site": 1, "kind": "trips", "name": "Minho",
            "offer_type": "FlashSale", "opens": "2026-01-01T08:00:00Z", "closes": "2030-01-01T08:00:00Z",
            "products": [{ "ref": "braga", "name": "Hotel Braga", "price": "199", "retail_price": "299", "travel": travel }]
        }]})
    };
    let files = || server::backoffice::feed::PictureFiles::Sent(Default::default());
    let out = import_from(&t, &feed("Braga", None), files(), false).await;
    assert_eq!(
        out.errors,
        vec!["sales[0].products[0].travel.destination: Choose one of the site's cities."]
    );
    assert_eq!(destination_rows(&t, "city", "Braga").await, 0);
    let out = import_from(&t, &feed("Braga", Some("norte")), files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(destination_rows(&t, "city", "Braga").await, 1);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM travel_destinations WHERE site_id = 1 AND kind = 'region' AND folded = 'norte'")
            .await,
        1,
        "the region found by its name, in any case"
    );
    let out = import_from(&t, &feed("Braga", Some("Norte")), files(), false).await;
    assert_eq!((out.created, out.updated), Default::default());
}
both!(
    an_operator_adds_a_destination_and_a_trip_goes_there,
    destinations_on_sqlite,
    destinations_on_postgres
);

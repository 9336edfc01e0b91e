//! What a feed says beyond names, prices and stock: a sale's universes, seller, theme and
//! place, a product's universe, tier, delivery, seller and item type, and a trip's themes,
//! instalments, perk, tabs, lowest price, party rules, extras and first choice. Made,
//! unchanged on a second import, updated in place when edited, and every wrong value
//! refused with its path while nothing changes.
use serde_json::{json, Value};

use super::feed::{import_from, rows};
use crate::helpers::{both, TestApp};

fn files() -> server::backoffice::feed::PictureFiles {
    server::backoffice::feed::PictureFiles::Sent(Default::default())
}

fn listing_feed() -> Value {
    json!({ "sales": [{
        "ref": "listing", "site": 1, "name": "Créateurs", "offer_type": "Marketplace",
        "opens": "2026-01-01T08:00:00Z", "closes": "2030-01-01T08:00:00Z",
        "seller_kind": "marketplace", "theme": "bw", "position": 5,
        "universes": [
            { "ref": "u-women", "title": "Femme", "subs": [{ "ref": "u-dresses", "title": "Robes" }] },
            { "ref": "u-men", "title": "Homme" }
        ],
        "products": [
            { "ref": "gown", "name": "Robe longue", "price": "89", "retail_price": "189",
              "universe": "u-dresses", "tier": "PREMIUM", "delivery_mode": 2,
              "seller_kind": "marketplace", "item_type": 7,
              "options": [{ "ref": "gown-m", "label": "M", "stock": 3 }] },
            { "ref": "scarf", "name": "Foulard", "price": "19", "retail_price": "39" }
        ]
    }]})
}

async fn sale_id(t: &TestApp, reference: &str) -> i64 {
    t.count(&format!(
        "SELECT id FROM feed_refs WHERE kind = 'sale' AND feed_ref = '{reference}'"
    ))
    .await
}

async fn id_of(t: &TestApp, kind: &str, reference: &str) -> i64 {
    t.count(&format!(
        "SELECT id FROM feed_refs WHERE kind = '{kind}' AND feed_ref = '{reference}'"
    ))
    .await
}

async fn text(t: &TestApp, sql: &str) -> String {
    sqlx::query_scalar(sql)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

async fn a_feed_lists_products_in_universes(t: TestApp) {
    let out = import_from(&t, &listing_feed(), files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.created.universes, 3);
    let sale = sale_id(&t, "listing").await;
    assert_eq!(
        text(&t, &format!("SELECT seller_kind || '/' || theme || '/' || CAST(position AS TEXT) FROM sales WHERE id = {sale}")).await,
        "marketplace/bw/5"
    );
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM universes WHERE sale_id = {sale}"
        ))
        .await,
        3,
        "the feed's universes, and no \"All\""
    );
    let (gown, scarf) = (
        id_of(&t, "product", "gown").await,
        id_of(&t, "product", "scarf").await,
    );
    let dresses = id_of(&t, "universe", "u-dresses").await;
    let women = id_of(&t, "universe", "u-women").await;
    assert_eq!(
        text(&t, &format!("SELECT tier || '/' || CAST(delivery_mode AS TEXT) || '/' || seller_kind || '/' || CAST(item_type AS TEXT) || '/' || CAST(universe_id AS TEXT) FROM products WHERE id = {gown}")).await,
        format!("PREMIUM/2/marketplace/7/{dresses}")
    );
    assert_eq!(
        text(&t, &format!("SELECT tier || '/' || CAST(delivery_mode AS TEXT) || '/' || seller_kind || '/' || CAST(item_type AS TEXT) || '/' || CAST(universe_id AS TEXT) FROM products WHERE id = {scarf}")).await,
        format!("ORDINARY/0/fs/1/{women}"),
        "defaults, and the sale's first universe"
    );

    // Again: nothing changes.
    let out = import_from(&t, &listing_feed(), files(), false).await;
    assert_eq!((out.created, out.updated), Default::default());

    // Edited: a universe renamed, a product's tier changed, another moved.
    let mut edited = listing_feed();
    edited["sales"][0]["universes"][0]["title"] = json!("Femmes");
    edited["sales"][0]["products"][0]["tier"] = json!("SOON");
    edited["sales"][0]["products"][1]["universe"] = json!("u-men");
    let out = import_from(&t, &edited, files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!((out.updated.universes, out.updated.products), (1, 2));
    let men = id_of(&t, "universe", "u-men").await;
    assert_eq!(
        t.count(&format!(
            "SELECT universe_id FROM products WHERE id = {scarf}"
        ))
        .await,
        men
    );
    assert_eq!(
        text(
            &t,
            &format!("SELECT title FROM universes WHERE id = {women}")
        )
        .await,
        "Femmes"
    );

    // Every wrong value with its path; nothing changes.
    let mut broken = listing_feed();
    let sale_json = &mut broken["sales"][0];
    sale_json["seller_kind"] = json!("shop");
    sale_json["theme"] = json!("pink");
    sale_json["position"] = json!(-1);
    sale_json["universes"][1]["title"] = json!(" ");
    let gown_json = &mut sale_json["products"][0];
    gown_json["tier"] = json!("GOLD");
    gown_json["delivery_mode"] = json!(9);
    gown_json["item_type"] = json!(3);
    sale_json["products"][1]["universe"] = json!("u-nowhere");
    let before = rows(&t).await;
    let out = import_from(&t, &broken, files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].seller_kind: is not one of the values offered for this field",
            "sales[0].theme: is not one of the values offered for this field",
            "sales[0].position: a whole number from 0 to 100000",
        ],
        "a sale that is wrong goes no further"
    );
    broken["sales"][0]["seller_kind"] = json!("fs");
    broken["sales"][0]["theme"] = json!("recycle");
    broken["sales"][0]["position"] = json!(0);
    let out = import_from(&t, &broken, files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].universes[1].title: Enter a title of 1 to 80 characters, under a top universe of this sale.",
            "sales[0].products[0].tier: is not one of the values offered for this field",
            "sales[0].products[0].delivery_mode: is not one of the values offered for this field",
            "sales[0].products[0].item_type: is not one of the values offered for this field",
            "sales[0].products[1].universe: no universe of this sale in the feed has this ref",
        ]
    );
    assert!(!out.applied);
    assert_eq!(rows(&t).await, before);
    assert_eq!(
        text(&t, &format!("SELECT theme FROM sales WHERE id = {sale}")).await,
        "bw",
        "nothing half-saved"
    );
}
both!(
    a_feed_lists_products_in_universes,
    feed_listing_on_sqlite,
    feed_listing_on_postgres
);

fn trip_feed(city: &str, trip_extra: Value) -> Value {
    let mut travel = json!({
        "destination": city, "latitude": "31.6295", "longitude": "-7.9811",
        "trip_type": "stay", "board": "half_board", "accommodation": "hotel", "rating": 4,
        "transport": "flight", "party_min": 1, "party_max": 4,
        "packages": [
            { "ref": "solo", "title": "Chambre simple", "cities": [
                { "ref": "solo-ory", "code": "ORY", "name": "Paris-Orly",
                  "durations": [{ "ref": "solo-ory-4", "days": 4, "nights": 3 }] }
            ]},
            { "ref": "double", "title": "Chambre double", "cheapest_toggle": true,
              "benefits": [{ "ref": "transfer", "label": "Transfert", "price": "25" }],
              "cities": [
                { "ref": "double-cdg", "code": "cdg", "name": "Paris-CDG",
                  "durations": [{ "ref": "double-cdg-8", "days": 8, "nights": 7, "supplement": "150" }] }
            ]}
        ]
    });
    for (k, v) in trip_extra.as_object().unwrap() {
        travel[k] = v.clone();
    }
    json!({ "sales": [{
        "ref": "trips-extras", "site": 1, "kind": "trips", "name": "Riads",
        "offer_type": "FlashSale", "opens": "2026-01-01T08:00:00Z", "closes": "2030-01-01T08:00:00Z",
        "products": [{ "ref": "riad", "name": "Riad des Orangers", "price": "499",
                       "retail_price": "799", "travel": travel }]
    }]})
}

async fn a_feed_describes_a_trip_as_the_catalog_shows_it(t: TestApp) {
    let city = text(
        &t,
        "SELECT name FROM travel_destinations WHERE site_id = 1 AND kind = 'city' ORDER BY id LIMIT 1",
    )
    .await;
    let extras = json!({
        "themes": ["beach", "SPA"], "payment_facilities": ["3x"], "renowned_brand": true,
        "perk": "Late check-out", "tabs": [{ "title": "L'hôtel", "content": "Un riad & son patio." }],
        "lowest_price_30_days": "479",
        "party_rules": { "1": { "0": [0, 1] }, "2": { "0": [0, 1], "1": [0, 1] } },
        "start": { "package": "double", "city": "CDG", "days": 8, "nights": 7 }
    });
    let out = import_from(&t, &trip_feed(&city, extras.clone()), files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let product = id_of(&t, "product", "riad").await;
    let double = id_of(&t, "package", "double").await;
    let stored = text(
        &t,
        &format!(
            "SELECT thematics || '|' || payment_facilities || '|' || CAST(notorious_brand AS TEXT) || '|' || benefit
                    || '|' || tabs_json || '|' || CAST(lowest_30d_cents AS TEXT) || '|' || party_rules_json
                    || '|' || CAST(default_package_id AS TEXT) || '|' || default_city_code
                    || '|' || CAST(default_days AS TEXT) || '|' || CAST(default_nights AS TEXT)
               FROM travel_offers WHERE product_id = {product}"
        ),
    )
    .await;
    assert_eq!(
        stored,
        format!(
            "beach,spa|3x|1|Late check-out|[{{\"content\":\"Un riad & son patio.\",\"title\":\"L'hôtel\"}}]|47900|{{\"1\":{{\"0\":[0,1]}},\"2\":{{\"0\":[0,1],\"1\":[0,1]}}}}|{double}|CDG|8|7"
        )
    );
    assert_eq!(
        text(&t, &format!("SELECT CAST(with_benefits AS TEXT) || CAST(with_cheapest_toggle AS TEXT) FROM travel_packages WHERE id = {double}")).await,
        "11"
    );
    assert_eq!(
        t.count(&format!(
            "SELECT price_cents FROM travel_benefits WHERE package_id = {double} AND label = 'Transfert'"
        ))
        .await,
        2_500
    );

    // Again: nothing changes; a new perk and extra price update in place.
    let out = import_from(&t, &trip_feed(&city, extras.clone()), files(), false).await;
    assert_eq!((out.created, out.updated), Default::default());
    let mut edited = trip_feed(&city, extras.clone());
    edited["sales"][0]["products"][0]["travel"]["perk"] = json!("Hammam offert");
    edited["sales"][0]["products"][0]["travel"]["packages"][1]["benefits"][0]["price"] =
        json!("30");
    let out = import_from(&t, &edited, files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.updated.travel, 2);
    assert_eq!(
        text(
            &t,
            &format!("SELECT benefit FROM travel_offers WHERE product_id = {product}")
        )
        .await,
        "Hammam offert"
    );

    // Wrong values, each with its path; nothing changes.
    let mut wrong = extras;
    wrong["themes"] = json!(["mountain"]);
    wrong["party_rules"] = json!({ "0": { "0": [1] }, "4": { "1": [0] } });
    wrong["start"] = json!({ "package": "solo", "city": "CDG", "days": 8, "nights": 7 });
    wrong["tabs"] = json!([{ "title": "", "content": "x" }]);
    let before = text(
        &t,
        &format!("SELECT benefit FROM travel_offers WHERE product_id = {product}"),
    )
    .await;
    let out = import_from(&t, &trip_feed(&city, wrong), files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].products[0].travel.themes: is not one of the values offered for this field",
            "sales[0].products[0].travel.tabs[0]: needs a text within its length (a title: 80 characters, a tab's text: 4000, a perk: 200, an extra: 120), without control characters",
            "sales[0].products[0].travel.party_rules: each party (adults, children, babies) must have 1 adult or more and fit the trip's least and most travellers",
        ],
        "a trip whose description is wrong goes no further"
    );
    let mut wrong_start = trip_feed(&city, json!({}));
    wrong_start["sales"][0]["products"][0]["travel"]["start"] =
        json!({ "package": "solo", "city": "CDG", "days": 8, "nights": 7 });
    let out = import_from(&t, &wrong_start, files(), false).await;
    assert_eq!(
        out.errors,
        vec!["sales[0].products[0].travel.start: name a package of this trip, one of its departure cities by code and one of that city's stays"]
    );
    assert_eq!(
        text(
            &t,
            &format!("SELECT benefit FROM travel_offers WHERE product_id = {product}")
        )
        .await,
        before
    );
}
both!(
    a_feed_describes_a_trip_as_the_catalog_shows_it,
    feed_trip_extras_on_sqlite,
    feed_trip_extras_on_postgres
);

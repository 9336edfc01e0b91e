//! A trip charges what its offer says. A child on an offer with
//! "children -50 %" pays half an adult's price for the stay; on another offer a child pays
//! an adult's price; the price per person is the chosen day's, as the calendar shows it.
use reqwest::Method;
use serde_json::json;

use super::booking;
use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

/// A bookable departure of a site-1 family trip (more than two travellers) whose offer
/// gives children `reduced` or not: the departure and its day's price per person.
async fn family_departure(t: &TestApp, s: &Shopper, reduced: bool) -> (super::Departure, i64) {
    let products: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT p.sale_id, p.id FROM products p JOIN sales s ON s.id = p.sale_id
           JOIN travel_offers o ON o.product_id = p.id
          WHERE s.site_id = 1 AND s.campaign_kind = 'TRAVEL' AND o.party_max > 2
            AND (o.profiles_json LIKE '%pricePercent%') = $1
          ORDER BY p.id",
    )
    .bind(reduced)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(!products.is_empty(), "a demo trip with reduced = {reduced}");
    for (campaign, product) in products {
        let (status, p) = s
            .call(
                t,
                Method::GET,
                &format!("/api/travel/v1/campaigns/{campaign}/products/{product}"),
                None,
            )
            .await;
        assert_eq!(status, 200, "{p}");
        let package = &p["packages"][0];
        let city = &package["configurator"]["departureCities"][0];
        let duration = &city["durations"][0];
        let (_, days) = s
            .call(
                t,
                Method::GET,
                &format!("/api/travel/v1/durations/{}/dates", duration["id"]),
                None,
            )
            .await;
        let Some((day, price)) = days.as_object().unwrap().iter().find_map(|(k, d)| {
            (d["isOutOfStock"] == false).then(|| (k.clone(), d["price"].as_i64().unwrap()))
        }) else {
            continue;
        };
        return (
            (
                campaign,
                product,
                package["id"].as_i64().unwrap(),
                city["id"].as_i64().unwrap(),
                duration["id"].as_i64().unwrap(),
                duration["day"].as_u64().unwrap(),
                duration["night"].as_u64().unwrap(),
                day,
            ),
            price,
        );
    }
    panic!("no bookable family trip with reduced = {reduced}");
}

async fn a_child_pays_as_the_offer_says(t: TestApp) {
    for (reduced, child_share) in [(true, 50), (false, 100)] {
        let s = shopper(&t, 2).await;
        let (d, price) = family_departure(&t, &s, reduced).await;
        // Six years old on the day: a child for every profile window.
        let year: i32 = d.7[..4].parse().unwrap();
        let child = format!("{}-01-01", year - 6);
        let (status, b) = s
            .call(
                &t,
                Method::POST,
                "/api/travel/v1/checkout",
                Some(booking(
                    &d,
                    json!([{ "type": "adults" }, { "type": "adults" }, { "type": "children", "birthday": child }]),
                )),
            )
            .await;
        assert_eq!(status, 201, "{b}");
        assert_eq!(
            b["total"].as_i64().unwrap(),
            2 * price + (price * child_share + 50) / 100,
            "reduced = {reduced}: {b}"
        );
    }
}

/// Every demo trip of the site shows one "from" price, and it can be
/// booked at that price. The catalog tile, the product header and the cheapest bookable
/// day of all its calendars agree, and a booking of that day for the fewest travellers the
/// offer takes charges it per person.
async fn every_trip_shows_the_price_it_books_at(t: TestApp) {
    let s = shopper(&t, 2).await;
    let mut tiles = Vec::new();
    for page in 1..20 {
        let (status, body) = s
            .call(
                &t,
                Method::GET,
                &format!("/api/travel/v1/offers?page={page}"),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let offers = body["offers"].as_array().unwrap();
        tiles.extend(offers.iter().map(|o| {
            (
                o["campaignId"].as_i64().unwrap(),
                o["id"].as_i64().unwrap(),
                o["priceFrom"].as_i64().unwrap(),
            )
        }));
        if offers.is_empty() || tiles.len() as u64 >= body["total"].as_u64().unwrap() {
            break;
        }
    }
    assert!(
        tiles.len() >= 10,
        "the demo's trips of site 1: {}",
        tiles.len()
    );
    for (campaign, product, tile) in tiles {
        let (status, p) = s
            .call(
                &t,
                Method::GET,
                &format!("/api/travel/v1/campaigns/{campaign}/products/{product}"),
                None,
            )
            .await;
        assert_eq!(status, 200, "{p}");
        assert_eq!(
            p["price"]["value"].as_i64(),
            Some(tile),
            "product {product}: the header's from price is the tile's"
        );
        // The cheapest bookable day of every package, city and stay.
        let mut cheapest: Option<(i64, super::Departure)> = None;
        for package in p["packages"].as_array().unwrap() {
            for city in package["configurator"]["departureCities"]
                .as_array()
                .unwrap()
            {
                for duration in city["durations"].as_array().unwrap() {
                    let (_, days) = s
                        .call(
                            &t,
                            Method::GET,
                            &format!("/api/travel/v1/durations/{}/dates", duration["id"]),
                            None,
                        )
                        .await;
                    for (day, d) in days.as_object().unwrap() {
                        let price = d["price"].as_i64().unwrap();
                        if d["isOutOfStock"] == false
                            && cheapest.as_ref().is_none_or(|c| price < c.0)
                        {
                            let id = |v: &serde_json::Value| v["id"].as_i64().unwrap();
                            cheapest = Some((
                                price,
                                (
                                    campaign,
                                    product,
                                    id(package),
                                    id(city),
                                    id(duration),
                                    duration["day"].as_u64().unwrap(),
                                    duration["night"].as_u64().unwrap(),
                                    day.clone(),
                                ),
                            ));
                        }
                    }
                }
            }
        }
        let (price, departure) = cheapest.expect("a bookable day");
        assert_eq!(
            price, tile,
            "product {product}: from = its cheapest bookable day"
        );
        // Booked at that price per person; then given back.
        let fewest = p["packages"][0]["configurator"]["participants"]["min"]
            .as_u64()
            .unwrap()
            .max(1);
        let adults: Vec<_> = (0..fewest).map(|_| json!({ "type": "adults" })).collect();
        let (status, b) = s
            .call(
                &t,
                Method::POST,
                "/api/travel/v1/checkout",
                Some(booking(&departure, json!(adults))),
            )
            .await;
        assert_eq!(status, 201, "product {product}: {b}");
        assert_eq!(
            b["total"].as_i64(),
            Some(price * fewest as i64),
            "product {product}: {b}"
        );
        let (status, _) = s
            .call(
                &t,
                Method::POST,
                &format!("/api/travel/v1/bookings/{}/cancel", b["id"]),
                None,
            )
            .await;
        assert_eq!(status, 200, "product {product}");
    }
}

both!(
    every_trip_shows_the_price_it_books_at,
    every_trip_shows_the_price_it_books_at_on_sqlite,
    every_trip_shows_the_price_it_books_at_on_postgres
);

both!(
    a_child_pays_as_the_offer_says,
    a_child_pays_as_the_offer_says_on_sqlite,
    a_child_pays_as_the_offer_says_on_postgres
);

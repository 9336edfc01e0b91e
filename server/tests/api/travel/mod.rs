//! Travel booking on SQLite and PostgreSQL: the product and its calendar through the REST
//! calls, what blocks a booking, and hundreds of members racing for a departure's last
//! places: never more travellers than places, and every hold that was granted can pay.
//! `address`: the checkout with the member's address book; `form`: the configurator form.
mod address;
mod form;
mod prices;

use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::helpers::cart::{shopper, Shopper};
use crate::helpers::{both, TestApp};

const MEMBERS: usize = 200;
const PLACES: i64 = 7;

/// A departure as [`departure`] finds it: (campaign, product, package, city, duration id,
/// days, nights, day).
pub type Departure = (i64, i64, i64, i64, i64, u64, u64, String);

/// A travel product of site 1 whose first package has a city, a duration and a bookable
/// day: (campaign, product, package, city, duration id, days, nights, day).
pub(crate) async fn departure(t: &TestApp, s: &Shopper) -> Departure {
    let (campaign, product): (i64, i64) = {
        let row: (i64, i64) = sqlx::query_as(
            "SELECT p.sale_id, p.id FROM products p JOIN sales s ON s.id = p.sale_id
              WHERE s.site_id = 1 AND s.campaign_kind = 'TRAVEL' ORDER BY p.id LIMIT 1",
        )
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
        row
    };
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
    let (status, days) = s
        .call(
            t,
            Method::GET,
            &format!("/api/travel/v1/durations/{}/dates", duration["id"]),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let days = days.as_object().unwrap();
    assert!(days.len() > 40, "a year of weekly departures at least");
    assert_eq!(days.values().filter(|d| d["isLowest"] == true).count(), 1);
    assert!(
        days.values().any(|d| d["isOutOfStock"] == true),
        "some days are sold out"
    );
    let day = days
        .iter()
        .find(|(_, d)| d["isOutOfStock"] == false)
        .map(|(k, _)| k.clone())
        .unwrap();
    (
        campaign,
        product,
        package["id"].as_i64().unwrap(),
        city["id"].as_i64().unwrap(),
        duration["id"].as_i64().unwrap(),
        duration["day"].as_u64().unwrap(),
        duration["night"].as_u64().unwrap(),
        day,
    )
}

/// A checkout request: adults are named and born in 1980, others keep the configurator's
/// birthday (none: the booking is blocked on it). No `addressId`: the member's favourite
/// (a shopper's only address).
pub(crate) fn booking(d: &Departure, participants: Value) -> Value {
    let travellers: Vec<Value> = participants
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let birthday = p["birthday"].as_str().unwrap_or(if p["type"] == "adults" {
                "1980-01-01"
            } else {
                ""
            });
            json!({ "firstName": "Zoé", "lastName": "Ngô", "birthday": birthday })
        })
        .collect();
    json!({
        "campaignId": d.0, "productId": d.1, "packageId": d.2, "departureCityId": d.3,
        "days": d.5, "nights": d.6, "checkin": d.7, "participants": participants,
        "travellers": travellers,
    })
}

async fn places(t: &TestApp, duration: i64, day: &str) -> (i64, i64, i64) {
    sqlx::query_as(
        "SELECT places, held, sold FROM travel_departures WHERE duration_id = $1 AND day = $2",
    )
    .bind(duration)
    .bind(day)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

async fn last_places(t: TestApp) {
    let t = Arc::new(t);
    let first = shopper(&t, 2).await;
    let d = departure(&t, &first).await;
    // What blocks a booking is named, and nothing is held.
    let (status, err) = first
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(booking(
                &d,
                json!([{ "type": "adults" }, { "type": "adults" }, { "type": "children" }]),
            )),
        )
        .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["error_code"], "booking_blocked");
    assert!(
        err["fieldErrors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["field"] == "participants.2"),
        "{err}"
    );
    // Travellers are checked too, each field named.
    let mut nameless = booking(&d, json!([{ "type": "adults" }, { "type": "adults" }]));
    nameless["travellers"][1]["firstName"] = json!("R2D2");
    nameless["travellers"][0]["lastName"] = json!("☎☎");
    let (status, err) = first
        .call(&t, Method::POST, "/api/travel/v1/checkout", Some(nameless))
        .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["error_code"], "invalid_travellers");
    let fields: Vec<&str> = err["fieldErrors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["field"].as_str())
        .collect();
    assert_eq!(
        fields,
        ["travellers.0.lastName", "travellers.1.firstName"],
        "{err}"
    );
    // Opening the product put it first in the member's last-viewed list.
    let (status, viewed) = first
        .call(&t, Method::GET, "/api/travel/v1/last-viewed", None)
        .await;
    assert_eq!(status, 200, "{viewed}");
    assert_eq!(viewed[0]["id"], d.1, "{viewed}");
    let mut bad = booking(&d, json!([{ "type": "adults" }, { "type": "adults" }]));
    bad["checkin"] = json!("2027-02-30");
    assert_eq!(
        first
            .call(&t, Method::POST, "/api/travel/v1/checkout", Some(bad))
            .await
            .0,
        400
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM travel_bookings").await,
        0,
        "a refused booking holds nothing"
    );

    // The departure has 7 places; 200 members want 2 each at once: 3 parties fit.
    sqlx::query("INSERT INTO travel_departures (duration_id, day, places, held, sold) VALUES ($1, $2, $3, 0, 0)")
        .bind(d.4)
        .bind(&d.7)
        .bind(PLACES)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let mut members = Vec::new();
    for _ in 0..MEMBERS {
        members.push(Arc::new(shopper(&t, 2).await));
    }
    let body = booking(&d, json!([{ "type": "adults" }, { "type": "adults" }]));
    let mut tasks = JoinSet::new();
    for s in &members {
        let (t, s, body) = (t.clone(), s.clone(), body.clone());
        tasks.spawn(async move {
            let (status, b) = s
                .call(&t, Method::POST, "/api/travel/v1/checkout", Some(body))
                .await;
            if status != 201 {
                assert_eq!(
                    (status, b["error_code"].as_str()),
                    (409, Some("sold_out")),
                    "{b}"
                );
                return None;
            }
            let id = b["id"].as_i64().unwrap();
            let (paid, p) = s
                .call(
                    &t,
                    Method::POST,
                    &format!("/api/travel/v1/bookings/{id}/pay"),
                    Some(json!({ "card": "4242 4242 4242 4242" })),
                )
                .await;
            assert_eq!(paid, 200, "{p}");
            assert_eq!(p["status"], "paid");
            Some((s.clone(), id))
        });
    }
    let mut booked = Vec::new();
    while let Some(r) = tasks.join_next().await {
        if let Some(b) = r.unwrap() {
            booked.push(b);
        }
    }
    assert_eq!(booked.len() as i64, PLACES / 2, "as many parties as fit");
    assert_eq!(
        places(&t, d.4, &d.7).await,
        (PLACES, 0, PLACES / 2 * 2),
        "never overbooked"
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM orders WHERE cart_type = 'travel'")
            .await,
        PLACES / 2
    );
    assert_eq!(
        t.count(
            "SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.cart_type = 'travel'"
        )
        .await,
        PLACES / 2,
        "each travel order has its line"
    );

    // A booking is its member's only: another member gets 404, paying twice is one order.
    let (owner, id) = &booked[0];
    assert_eq!(
        first
            .call(
                &t,
                Method::GET,
                &format!("/api/travel/v1/bookings/{id}"),
                None
            )
            .await
            .0,
        404
    );
    let again = owner
        .call(
            &t,
            Method::POST,
            &format!("/api/travel/v1/bookings/{id}/pay"),
            Some(json!({ "card": "4242 4242 4242 4242" })),
        )
        .await;
    assert_eq!(again.0, 200);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM orders WHERE cart_type = 'travel'")
            .await,
        PLACES / 2
    );
    // Each trip's order is confirmed by email once (mailed by a task of its own, which
    // marks the order, then writes the mail: wait for the mails themselves).
    let confirmations = || {
        crate::helpers::outbox(&t)
            .iter()
            .filter(|m| m.contains("est confirmée"))
            .count() as i64
    };
    for _ in 0..50 {
        if confirmations() >= PLACES / 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mailed = t
        .count(
            "SELECT COUNT(*) FROM orders WHERE cart_type = 'travel' AND confirmation_mailed_at > 0",
        )
        .await;
    assert_eq!(mailed, PLACES / 2);
    assert_eq!(confirmations(), PLACES / 2, "one email per trip, in French");
    // The order names its travellers as typed at checkout, adults with their birthday.
    let order_id = again.1["orderId"]
        .as_i64()
        .expect("a paid booking has its order");
    let (status, order) = owner
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(
        order["travellers"],
        json!([
            { "type": "adults", "firstName": "Zoé", "lastName": "Ngô", "birthday": "1980-01-01" },
            { "type": "adults", "firstName": "Zoé", "lastName": "Ngô", "birthday": "1980-01-01" },
        ]),
        "{order}"
    );
    let (_, other) = first
        .call(
            &t,
            Method::GET,
            &format!("/api/orders/v1/orders/{order_id}"),
            None,
        )
        .await;
    assert!(other.get("travellers").is_none(), "{other}");

    // The last place: one traveller fits, then nobody; a cancelled hold gives it back.
    let solo = booking(&d, json!([{ "type": "adults" }]));
    let (status, held) = first
        .call(
            &t,
            Method::POST,
            "/api/travel/v1/checkout",
            Some(solo.clone()),
        )
        .await;
    if status == 400 {
        // Couples-only offer: one traveller is refused by the party rules, as it should.
        assert!(held["fieldErrors"][0]["field"] == "participants", "{held}");
        return;
    }
    assert_eq!(status, 201, "{held}");
    assert_eq!(places(&t, d.4, &d.7).await, (PLACES, 1, PLACES - 1));
    assert_eq!(
        members[1]
            .call(
                &t,
                Method::POST,
                "/api/travel/v1/checkout",
                Some(solo.clone())
            )
            .await
            .0,
        409
    );
    let id = held["id"].as_i64().unwrap();
    let (status, c) = first
        .call(
            &t,
            Method::POST,
            &format!("/api/travel/v1/bookings/{id}/cancel"),
            None,
        )
        .await;
    assert_eq!((status, c["status"].as_str()), (200, Some("cancelled")));
    assert_eq!(places(&t, d.4, &d.7).await, (PLACES, 0, PLACES - 1));
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    last_places,
    last_places_are_never_overbooked_on_sqlite,
    last_places_are_never_overbooked_on_postgres,
);

/// The product ids a search lists on its first page.
async fn listed(t: &TestApp, s: &Shopper, query: &str) -> Vec<i64> {
    let (status, found) = s
        .call(
            t,
            Method::GET,
            &format!("/api/travel/v1/search?{query}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{found}");
    found["offers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

async fn sold_out_days(t: TestApp) {
    let s = shopper(&t, 1).await;
    let d = departure(&t, &s).await;
    let query = format!("destinationId=sale-{}&checkin={}", d.0, d.7);
    assert!(
        listed(&t, &s, &query).await.contains(&d.1),
        "bookable on {}",
        d.7
    );
    // With a checkout, only offers with that length of stay: d.5 days (checkout = check-in
    // + days - 1) is one; a stay of 2 days no demo offer has.
    let checkin = app::travel::rules::Date::parse(&d.7).unwrap();
    let stay = |days: u64| {
        let checkout = checkin.add_days(days as i64 - 1);
        format!("{query}&checkout={checkout}")
    };
    assert!(listed(&t, &s, &stay(d.5)).await.contains(&d.1));
    assert!(!listed(&t, &s, &stay(2)).await.contains(&d.1));

    // Every duration of every city of the product full on that day: not a departure.
    let db = &t.app.state.db.pool;
    let durations = "SELECT du.id FROM travel_durations du
        JOIN travel_departure_cities c ON c.id = du.city_id
        JOIN travel_packages pk ON pk.id = c.package_id WHERE pk.product_id = $1";
    sqlx::query(&format!(
        "DELETE FROM travel_departures WHERE day = $2 AND duration_id IN ({durations})"
    ))
    .bind(d.1)
    .bind(&d.7)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(&format!(
        "INSERT INTO travel_departures (duration_id, day, places, held, sold)
         SELECT id, $2, 4, 1, 3 FROM ({durations}) full_durations"
    ))
    .bind(d.1)
    .bind(&d.7)
    .execute(db)
    .await
    .unwrap();
    assert!(
        !listed(&t, &s, &query).await.contains(&d.1),
        "sold out on {}",
        d.7
    );

    // One place back on one duration, and the day is offered again.
    sqlx::query("UPDATE travel_departures SET held = 0 WHERE duration_id = $1 AND day = $2")
        .bind(d.4)
        .bind(&d.7)
        .execute(db)
        .await
        .unwrap();
    assert!(
        listed(&t, &s, &query).await.contains(&d.1),
        "a place again on {}",
        d.7
    );
}

both!(
    sold_out_days,
    sold_out_days_leave_the_search_on_sqlite,
    sold_out_days_leave_the_search_on_postgres,
);

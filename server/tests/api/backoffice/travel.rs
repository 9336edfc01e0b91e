//! A travel product's inventory through the back-office forms: who travels together, a
//! package with a departure city, a duration and a season that the shop's calendar then
//! offers, and a departure's places set while members hold some (never below them).
use super::*;
use crate::helpers::{both, TestApp};

async fn an_operator_edits_a_trips_inventory(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let product = t.count("SELECT MIN(product_id) FROM travel_offers").await;
    let page = format!("/backoffice/products/{product}/travel");
    let (status, html) = merch.get(&t, &page).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("data-package="),
        "the demo trip's packages are listed"
    );
    let plain = t
        .count(
            "SELECT MIN(id) FROM products WHERE id NOT IN (SELECT product_id FROM travel_offers)",
        )
        .await;
    let (status, _) = merch
        .get(&t, &format!("/backoffice/products/{plain}/travel"))
        .await;
    assert_eq!(
        status, 404,
        "a product that is no trip has no travel inventory"
    );
    let (_, products) = merch
        .get(
            &t,
            &format!(
                "/backoffice/sales/{}/products",
                t.count(&format!(
                    "SELECT sale_id FROM products WHERE id = {product}"
                ))
                .await
            ),
        )
        .await;
    assert!(products.contains(&format!(r#"data-travel="{product}""#)));

    // Who travels together.
    let party = format!("{page}/party");
    let (status, _, html) = merch.post(&t, &party, &[("min", "3"), ("max", "2")]).await;
    assert_eq!(status, 422);
    assert!(html.contains("the most not below the least"));
    let (status, _, _) = merch.post(&t, &party, &[("min", "1"), ("max", "6")]).await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT party_min * 100 + party_max FROM travel_offers WHERE product_id = {product}"
        ))
        .await,
        106
    );

    // A package, its departure city, a duration and a season; each refusal saves nothing.
    let packages = t.count("SELECT COUNT(*) FROM travel_packages").await;
    let (status, _, _) = merch
        .post(&t, &format!("{page}/packages"), &[("title", " \u{7} ")])
        .await;
    assert_eq!(status, 422);
    let (status, location, _) = merch
        .post(
            &t,
            &format!("{page}/packages"),
            &[("title", "Printemps à Nice")],
        )
        .await;
    assert_eq!(
        (status, location.as_str()),
        (303, format!("{page}?done=1").as_str())
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM travel_packages").await,
        packages + 1
    );
    let package = t.count("SELECT MAX(id) FROM travel_packages").await;
    let cities = format!("/backoffice/travel/packages/{package}/cities");
    let (status, _, html) = merch
        .post(&t, &cities, &[("code", "N-C"), ("name", "Nice")])
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter a code of 2 to 5 letters or digits"));
    let (status, _, _) = merch
        .post(&t, &cities, &[("code", "nce"), ("name", "Nice")])
        .await;
    assert_eq!(status, 303);
    let city = t.count("SELECT MAX(id) FROM travel_departure_cities").await;
    let durations = format!("/backoffice/travel/cities/{city}/durations");
    let (status, _, _) = merch
        .post(
            &t,
            &durations,
            &[("days", "8"), ("nights", "8"), ("supplement", "")],
        )
        .await;
    assert_eq!(status, 422);
    let (status, _, _) = merch
        .post(
            &t,
            &durations,
            &[("days", "8"), ("nights", "7"), ("supplement", "150")],
        )
        .await;
    assert_eq!(status, 303);
    let duration = t.count("SELECT MAX(id) FROM travel_durations").await;
    let today = app::travel::rules::Date::from_unix(app::platform::state::now());
    let (first, last) = (today.add_days(30), today.add_days(120));
    let seasons = format!("/backoffice/travel/cities/{city}/seasons");
    let season = |first: String, last: String, price: &'static str| {
        vec![
            ("first_day", first),
            ("last_day", last),
            ("wd0", "on".to_string()),
            ("wd1", "on".to_string()),
            ("wd2", "on".to_string()),
            ("wd3", "on".to_string()),
            ("wd4", "on".to_string()),
            ("wd5", "on".to_string()),
            ("wd6", "on".to_string()),
            ("price", price.to_string()),
            ("reference_price", "799".to_string()),
            ("places", "3".to_string()),
        ]
    };
    for (fields, message) in [
        (
            season(last.to_string(), first.to_string(), "499"),
            "in order",
        ),
        (
            season(first.to_string(), last.to_string(), "899"),
            "retail price cannot be below",
        ),
    ] {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, _, html) = merch.post(&t, &seasons, &pairs).await;
        assert_eq!(status, 422);
        assert!(html.contains(message), "{message}");
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM travel_seasons WHERE city_id = {city}"
        ))
        .await,
        0
    );
    let fields = season(first.to_string(), last.to_string(), "499");
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, _, _) = merch.post(&t, &seasons, &pairs).await;
    assert_eq!(status, 303);
    // The shop's calendar reads it: a departure in the season has its places.
    let day = first.add_days(10);
    assert_eq!(
        app::travel::store::product::season_places(&t.app.state.db, duration, day)
            .await
            .unwrap(),
        Some(3)
    );

    // A departure's places while two are held: not below them, and not on a day without
    // a departure.
    sqlx::query(
        "INSERT INTO travel_departures (duration_id, day, places, held, sold) VALUES ($1, $2, 3, 2, 0)",
    )
    .bind(duration)
    .bind(day.to_string())
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let places = |day: String, n: &'static str| {
        vec![
            ("duration", duration.to_string()),
            ("day", day),
            ("places", n.to_string()),
        ]
    };
    for (fields, status, message) in [
        (places(day.to_string(), "1"), 409, "(Held: 2, Sold: 0)"),
        (
            places(today.to_string(), "5"),
            422,
            "No season of this departure city leaves on that day.",
        ),
        (
            places(day.to_string(), "many"),
            422,
            "Enter the places as a whole number",
        ),
    ] {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (got, _, html) = merch.post(&t, "/backoffice/travel/places", &pairs).await;
        assert_eq!(got, status, "{message}");
        assert!(html.contains(message), "{message}: {html}");
    }
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM travel_departures WHERE duration_id = {duration}"
        ))
        .await,
        1,
        "a refused day keeps no row"
    );
    let fields = places(day.to_string(), "5");
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, _, _) = merch.post(&t, "/backoffice/travel/places", &pairs).await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT places FROM travel_departures WHERE duration_id = {duration} AND day = '{day}'"
        ))
        .await,
        5
    );
    let (_, html) = merch.get(&t, &page).await;
    assert!(html.contains(&format!(r#"data-departure="{duration}/{day}""#)));
    for kind in [
        "travel_party",
        "travel_package",
        "travel_city",
        "travel_duration",
        "travel_season",
    ] {
        assert_eq!(
            audit_count(&t, "create", kind).await + audit_count(&t, "update", kind).await,
            1,
            "{kind}"
        );
    }
    assert_eq!(audit_count(&t, "places", "travel_departure").await, 1);

    // A season's price and places change; its days stay (remove it and add another).
    let season_id = t
        .count(&format!(
            "SELECT MAX(id) FROM travel_seasons WHERE city_id = {city}"
        ))
        .await;
    let terms = format!("/backoffice/travel/seasons/{season_id}");
    let (status, _, html) = merch
        .post(
            &t,
            &terms,
            &[
                ("price", "899"),
                ("reference_price", "799"),
                ("places", "4"),
            ],
        )
        .await;
    assert_eq!(status, 422);
    assert!(html.contains("retail price cannot be below"));
    assert!(html.contains(r#"value="899""#), "what was typed is kept");
    let (status, _, _) = merch
        .post(
            &t,
            &terms,
            &[
                ("price", "549,50"),
                ("reference_price", "799"),
                ("places", "4"),
            ],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT price_cents FROM travel_seasons WHERE id = {season_id}"
        ))
        .await,
        54_950
    );
    assert_eq!(
        app::travel::store::product::season_places(&t.app.state.db, duration, first.add_days(3))
            .await
            .unwrap(),
        Some(4),
        "a departure without places of its own follows its season"
    );

    // Nothing members hold goes: the season and the duration of the held departure stay.
    let (status, _, html) = merch.post(&t, &format!("{terms}/remove"), &[]).await;
    assert_eq!(status, 409);
    assert!(html.contains("within this season"), "{html}");
    let (status, _, html) = merch
        .post(
            &t,
            &format!("/backoffice/travel/durations/{duration}/remove"),
            &[],
        )
        .await;
    assert_eq!(status, 409);
    assert!(html.contains("of this duration"));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM travel_seasons WHERE id = {season_id}"
        ))
        .await
            + t.count(&format!(
                "SELECT COUNT(*) FROM travel_durations WHERE id = {duration}"
            ))
            .await,
        2
    );
    // A duration nobody took goes; once the holds are gone, the season too.
    let (status, _, _) = merch
        .post(
            &t,
            &durations,
            &[("days", "4"), ("nights", "3"), ("supplement", "")],
        )
        .await;
    assert_eq!(status, 303);
    let short = t.count("SELECT MAX(id) FROM travel_durations").await;
    let (status, _, _) = merch
        .post(
            &t,
            &format!("/backoffice/travel/durations/{short}/remove"),
            &[],
        )
        .await;
    assert_eq!(status, 303);
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM travel_durations WHERE id = {short}"
        ))
        .await,
        0
    );
    sqlx::query("UPDATE travel_departures SET held = 0 WHERE duration_id = $1")
        .bind(duration)
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _, _) = merch.post(&t, &format!("{terms}/remove"), &[]).await;
    assert_eq!(status, 303);
    assert_eq!(
        app::travel::store::product::season_places(&t.app.state.db, duration, first.add_days(3))
            .await
            .unwrap(),
        None,
        "no departure without its season"
    );
    assert_eq!(audit_count(&t, "remove", "travel_season").await, 1);
    assert_eq!(audit_count(&t, "remove", "travel_duration").await, 1);

    // A moderator reads it and changes nothing.
    let moderator = sign_in(&t, MODERATOR).await;
    let (status, html) = moderator.get(&t, &page).await;
    assert_eq!(status, 200);
    assert!(
        !html.contains("/travel/places"),
        "no form the role may not send"
    );
    let (status, _, _) = moderator
        .post(&t, &party, &[("min", "1"), ("max", "2")])
        .await;
    assert_eq!(status, 403);
    let (status, _, _) = moderator
        .post(&t, "/backoffice/travel/places", &pairs)
        .await;
    assert_eq!(status, 403);
    let (status, _, _) = moderator
        .post(
            &t,
            &format!("/backoffice/travel/durations/{duration}/remove"),
            &[],
        )
        .await;
    assert_eq!(status, 403);
}
both!(
    an_operator_edits_a_trips_inventory,
    travel_inventory_on_sqlite,
    travel_inventory_on_postgres
);

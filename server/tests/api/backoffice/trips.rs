//! A new trip from the back office: a travel sale, a product made a trip (refusals save
//! nothing), its package, city, duration and season, then the travel catalog lists it at
//! its point on the map with its price.
use super::*;
use crate::helpers::{both, json, TestApp};

async fn an_operator_puts_a_new_trip_on_the_travel_catalog(t: TestApp) {
    let merch = sign_in(&t, MERCH).await;
    let now = app::platform::state::now();
    let (opens, closes) = (
        server::backoffice::ui::datetime_value(now - 3600),
        server::backoffice::ui::datetime_value(now + 5 * 86_400),
    );
    let sale_fields = |kind: &'static str| {
        vec![
            ("site", "1".to_string()),
            ("kind", kind.to_string()),
            ("name", "Escapades niçoises".to_string()),
            ("offer_type", "FlashSale".to_string()),
            ("starts_at", opens.clone()),
            ("ends_at", closes.clone()),
        ]
    };
    let post = async |path: &str, fields: &[(&str, String)]| {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        merch.post(&t, path, &pairs).await
    };
    let (status, _, html) = post("/backoffice/sales/new", &sale_fields("cruise")).await;
    assert_eq!(status, 422);
    assert!(html.contains("Choose products or trips."));
    let (status, location, _) = post("/backoffice/sales/new", &sale_fields("trips")).await;
    assert_eq!(status, 303);
    let sale: i64 = location
        .strip_prefix("/backoffice/sales/")
        .and_then(|r| r.split('?').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sales WHERE id = {sale} AND campaign_kind = 'TRAVEL'"
        ))
        .await,
        1
    );
    let (status, _, _) = post(
        &format!("/backoffice/sales/{sale}/products/new"),
        &[
            ("name", "Hôtel Négresco, vue mer".into()),
            ("price", "499".into()),
            ("retail_price", "799".into()),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let product = t
        .count(&format!(
            "SELECT MAX(id) FROM products WHERE sale_id = {sale}"
        ))
        .await;
    let (_, products) = merch
        .get(&t, &format!("/backoffice/sales/{sale}/products"))
        .await;
    assert!(products.contains(&format!(r#"data-make-trip="{product}""#)));
    // A product of a sale of products is no trip to make.
    let plain = t
        .count("SELECT MIN(id) FROM products WHERE sale_id = 1001")
        .await;
    assert_eq!(
        merch
            .get(&t, &format!("/backoffice/products/{plain}/trip"))
            .await
            .0,
        404
    );

    // The form lists the site's cities; refusals say each field and save nothing.
    let page = format!("/backoffice/products/{product}/trip");
    let (status, html) = merch.get(&t, &page).await;
    assert_eq!(status, 200);
    let nice = t
        .count("SELECT MIN(id) FROM travel_destinations WHERE site_id = 1 AND kind = 'city'")
        .await;
    let elsewhere = t
        .count("SELECT MIN(id) FROM travel_destinations WHERE site_id = 66 AND kind = 'city'")
        .await;
    assert!(html.contains(&format!(r#"<option value="{nice}""#)));
    let trip = |destination: i64, latitude: &'static str, board: &'static str| {
        vec![
            ("destination", destination.to_string()),
            ("latitude", latitude.to_string()),
            ("longitude", "7,262".to_string()),
            ("trip_type", "stay".to_string()),
            ("board", board.to_string()),
            ("accommodation", "hotel".to_string()),
            ("rating", "5".to_string()),
            ("transport", "flight".to_string()),
            ("highlights", "Vue sur la mer\nPiscine".to_string()),
            ("party_min", "1".to_string()),
            ("party_max", "4".to_string()),
        ]
    };
    let (status, _, html) = post(&page, &trip(nice, "95", "buffet")).await;
    assert_eq!(status, 422);
    assert!(html.contains("Enter a latitude from -90 to 90."));
    assert!(html.contains("Choose one of the list."));
    assert!(html.contains(r#"value="95""#), "what was typed is kept");
    let (status, _, html) = post(&page, &trip(elsewhere, "43.7102", "half_board")).await;
    assert_eq!(status, 422, "a city of another site");
    assert!(html.contains("Choose one of the site's cities."));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM travel_offers WHERE product_id = {product}"
        ))
        .await,
        0
    );
    let (status, location, _) = post(&page, &trip(nice, "43.7102", "half_board")).await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/products/{product}/travel?done=1").as_str()
        )
    );
    assert_eq!(audit_count(&t, "create", "trip").await, 1);
    let (status, location, _) = post(&page, &trip(nice, "43.7102", "half_board")).await;
    assert_eq!(
        (status, location.as_str()),
        (
            303,
            format!("/backoffice/products/{product}/travel").as_str()
        ),
        "a trip already: its inventory"
    );

    // Its inventory: a package, a city, a stay and a season.
    let travel = format!("/backoffice/products/{product}/travel");
    let (status, _, _) = post(
        &format!("{travel}/packages"),
        &[("title", "Chambre vue mer".into())],
    )
    .await;
    assert_eq!(status, 303);
    let package = t
        .count(&format!(
            "SELECT MAX(id) FROM travel_packages WHERE product_id = {product}"
        ))
        .await;
    let (status, _, _) = post(
        &format!("/backoffice/travel/packages/{package}/cities"),
        &[("code", "ORY".into()), ("name", "Paris-Orly".into())],
    )
    .await;
    assert_eq!(status, 303);
    let city = t
        .count(&format!(
            "SELECT MAX(id) FROM travel_departure_cities WHERE package_id = {package}"
        ))
        .await;
    let (status, _, _) = post(
        &format!("/backoffice/travel/cities/{city}/durations"),
        &[
            ("days", "4".into()),
            ("nights", "3".into()),
            ("supplement", "".into()),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let today = app::travel::rules::Date::from_unix(now);
    let mut season = vec![
        ("first_day", today.add_days(7).to_string()),
        ("last_day", today.add_days(90).to_string()),
        ("price", "499".to_string()),
        ("reference_price", "799".to_string()),
        ("places", "10".to_string()),
    ];
    for wd in ["wd0", "wd1", "wd2", "wd3", "wd4", "wd5", "wd6"] {
        season.push((wd, "on".to_string()));
    }
    let (status, _, _) = post(
        &format!("/backoffice/travel/cities/{city}/seasons"),
        &season,
    )
    .await;
    assert_eq!(status, 303);

    // The travel catalog lists it, at its point, with its board and price.
    let (status, listed) = json(&t, &format!("/api/travel/v1/campaigns/{sale}/products"), "").await;
    assert_eq!(status, 200, "{listed}");
    let offer = listed["offers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == product)
        .unwrap_or_else(|| panic!("the trip is listed: {listed}"));
    assert_eq!(offer["board"], "half_board");
    assert_eq!(offer["rating"], 5);
    assert!(
        (offer["lat"].as_f64().unwrap() - 43.7102).abs() < 1e-6,
        "{offer}"
    );
    assert!(offer["priceFrom"].as_i64().unwrap() >= 49_900, "{offer}");
    assert_eq!(offer["image"], format!("/img/product/{product}.svg"));

    // Its picture, uploaded as any product's, is the one the catalog and its page show.
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::new(400, 300))
        .write_to(&mut png, image::ImageFormat::Png)
        .unwrap();
    let form = reqwest::multipart::Form::new()
        .text("_xsrf", merch.xsrf.clone())
        .part(
            "picture",
            reqwest::multipart::Part::bytes(png.into_inner()).file_name("nice.png"),
        );
    let res = t
        .client
        .post(t.url(&format!("/backoffice/products/{product}/picture")))
        .header("cookie", &merch.cookie)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let picture = t
        .count(&format!(
            "SELECT image_id FROM products WHERE id = {product}"
        ))
        .await;
    let (_, listed) = json(&t, &format!("/api/travel/v1/campaigns/{sale}/products"), "").await;
    let offer = listed["offers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == product)
        .unwrap();
    assert_eq!(offer["image"], format!("/img/p/{picture}"));
    let (status, trip) = json(
        &t,
        &format!("/api/travel/v1/campaigns/{sale}/products/{product}"),
        &t.member_session(1).await,
    )
    .await;
    assert_eq!(status, 200, "{trip}");
    assert_eq!(trip["image"], format!("/img/p/{picture}"));
}
both!(
    an_operator_puts_a_new_trip_on_the_travel_catalog,
    trips_on_sqlite,
    trips_on_postgres
);

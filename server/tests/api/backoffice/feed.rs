//! The feed import: a feed creates, a second import of it changes nothing, an edited feed
//! updates in place (stock through the guarded write), a broken feed lists every error with
//! its path or line and changes nothing, a CSV adds products; the upload page as a browser
//! sends it.
use serde_json::{json, Value};

use server::backoffice::audit::Actor;
use server::backoffice::feed::{self, Outcome};

use super::*;
use crate::helpers::{both, json, TestApp};

fn example() -> Value {
    serde_json::from_str(include_str!("../../../../docs/feed-example.json")).unwrap()
}

async fn run(t: &TestApp, feed: &str, dry_run: bool) -> Outcome {
    let actor = Actor {
        operator_id: None,
        email: "test".into(),
        ip: "local".into(),
    };
    let input = match feed::parse(feed) {
        Ok(i) => i,
        Err(errors) => {
            return Outcome {
                errors,
                ..Default::default()
            }
        }
    };
    feed::import(
        &t.app.state.db,
        &actor,
        input,
        feed::PictureFiles::Sent(Default::default()),
        feed::Run {
            dry_run,
            lang: "en",
            now: app::platform::state::now(),
            ids: feed::Ids::Next,
        },
    )
    .await
    .unwrap()
}

pub(super) async fn rows(t: &TestApp) -> (i64, i64, i64, i64) {
    (
        t.count("SELECT COUNT(*) FROM sales").await,
        t.count("SELECT COUNT(*) FROM products").await,
        t.count("SELECT COUNT(*) FROM product_options").await,
        t.count("SELECT CAST(COALESCE(SUM(stock), 0) AS BIGINT) FROM product_options")
            .await,
    )
}

async fn a_feed_creates_then_changes_nothing_then_updates_in_place(t: TestApp) {
    let before = rows(&t).await;
    let text = example().to_string();
    let dry = run(&t, &text, true).await;
    assert!(dry.errors.is_empty() && !dry.applied, "{:?}", dry.errors);
    assert_eq!(
        (dry.created.sales, dry.created.products, dry.created.options),
        (1, 1, 2)
    );
    assert_eq!(rows(&t).await, before, "a dry run changes nothing");

    let first = run(&t, &text, false).await;
    assert!(first.applied);
    assert_eq!(
        (
            first.created.sales,
            first.created.products,
            first.created.options
        ),
        (1, 1, 2)
    );
    let after = rows(&t).await;
    assert_eq!(
        (after.0, after.1, after.2, after.3),
        (before.0 + 1, before.1 + 1, before.2 + 2, before.3 + 32)
    );
    let sale: i64 = t
        .count("SELECT id FROM feed_refs WHERE kind = 'sale' AND feed_ref = 'winter-coats-fr'")
        .await;
    assert_eq!(
        t.count(&format!(
            "SELECT with_quotation_price FROM sales WHERE id = {sale}"
        ))
        .await,
        1
    );
    let audit = t.count("SELECT COUNT(*) FROM audit_log").await;
    let m: i64 = t
        .count("SELECT id FROM feed_refs WHERE kind = 'option' AND feed_ref = 'caban-navy-m'")
        .await;
    let option_prices = |id: i64| {
        sqlx::query_as::<_, (Option<i64>, Option<i64>)>(
            "SELECT price_cents, retail_price_cents FROM product_options WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&t.app.state.db.pool)
    };
    assert_eq!(
        option_prices(m).await.unwrap(),
        (Some(9490), Some(18900)),
        "an option's own prices"
    );

    let second = run(&t, &text, false).await;
    assert_eq!(
        (
            second.created.sales,
            second.updated.products,
            second.unchanged
        ),
        (0, 0, 4)
    );
    assert_eq!(rows(&t).await, after, "importing twice changes nothing");
    assert_eq!(t.count("SELECT COUNT(*) FROM audit_log").await, audit);

    // An option's own price above the retail price it would be shown against is refused.
    let mut dear = example();
    dear["sales"][0]["products"][0]["options"][0]["price"] = json!("180");
    let refused = run(&t, &dear.to_string(), false).await;
    assert_eq!(
        refused.errors,
        vec!["sales[0].products[0].options[0].price: The retail price cannot be below the sale price.".to_string()]
    );

    // A member holds 5 M; the edited feed changes the prices and both stocks in place.
    sqlx::query(&format!(
        "UPDATE product_options SET held = 5 WHERE id = {m}"
    ))
    .execute(&t.app.state.db.pool)
    .await
    .unwrap();
    let mut edited = example();
    edited["sales"][0]["products"][0]["price"] = json!("79.90");
    edited["sales"][0]["products"][0]["options"][0]["stock"] = json!(15);
    edited["sales"][0]["products"][0]["options"][1]["price"] = json!("84.90");
    edited["sales"][0]["products"][0]["options"][1]["stock"] = json!(4);
    let refused = run(&t, &edited.to_string(), false).await;
    assert_eq!(refused.errors.len(), 1, "{:?}", refused.errors);
    assert!(refused.errors[0].starts_with("sales[0].products[0].options[1].stock: Refused: the stock cannot go below what is held and sold (5 held, 0 sold)"), "{:?}", refused.errors);
    assert_eq!(
        rows(&t).await,
        after,
        "one error: nothing changed, not even the good lines"
    );
    edited["sales"][0]["products"][0]["options"][1]["stock"] = json!(6);
    let updated = run(&t, &edited.to_string(), false).await;
    assert!(updated.errors.is_empty(), "{:?}", updated.errors);
    assert_eq!((updated.updated.products, updated.updated.options), (1, 2));
    assert_eq!(
        t.count(&format!("SELECT stock FROM product_options WHERE id = {m}"))
            .await,
        6
    );
    assert_eq!(t.count("SELECT price_cents FROM products p JOIN feed_refs r ON r.id = p.id AND r.kind = 'product'").await, 7990);
    assert_eq!(option_prices(m).await.unwrap(), (Some(8490), Some(18900)));
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM stock_history WHERE option_id = {m} AND reason = 'feed import'"
        ))
        .await,
        2
    );
}
both!(
    a_feed_creates_then_changes_nothing_then_updates_in_place,
    feed_on_sqlite,
    feed_on_postgres
);

async fn a_broken_feed_lists_every_error_and_changes_nothing(t: TestApp) {
    let before = rows(&t).await;
    let broken = json!({ "sales": [
        { "ref": "a", "site": 5, "name": "", "offer_type": "Bogus", "opens": "2026-12-04T08:00:00Z", "closes": "2026-12-01T08:00:00Z",
          "products": [ { "ref": "p", "name": "Caban", "price": "12,5", "retail_price": "10", "options": [ { "ref": "o", "label": "", "stock": -1 } ] } ] },
        { "ref": "a", "site": 1, "name": "Twice", "offer_type": "FlashSale", "opens": "x", "closes": "y" }
    ]});
    let dry = run(&t, &broken.to_string(), true).await;
    assert_eq!(
        dry.errors,
        vec![r#"sales[1]: ref "a" is used twice in this feed"#.to_string()],
        "refs are checked first"
    );
    let mut one = broken.clone();
    one["sales"].as_array_mut().unwrap().pop();
    let dry = run(&t, &one.to_string(), true).await;
    for expected in [
        "sales[0].site: Choose one of the 11 sites.",
        "sales[0].name: Enter a name",
        "sales[0].offer_type: Choose an offer type",
        "sales[0].closes: The closing time must be after the opening time.",
    ] {
        assert!(
            dry.errors.iter().any(|e| e.starts_with(expected)),
            "{expected} in {:?}",
            dry.errors
        );
    }
    // Products of a refused sale are not looked at; a good sale with bad products is.
    one["sales"][0] = json!({ "ref": "a", "site": 1, "name": "Ok", "offer_type": "FlashSale", "opens": "2026-12-01T08:00", "closes": "2026-12-02T08:00",
        "products": [ { "ref": "p", "name": "Caban", "price": "12,5", "retail_price": "10", "options": [ { "ref": "o", "label": "", "stock": -1 } ] } ] });
    let applied = run(&t, &one.to_string(), false).await;
    assert_eq!(applied.errors, vec![
        "sales[0].products[0].retail_price: The retail price cannot be below the sale price.".to_string(),
        "sales[0].products[0].options[0].label: Enter the option's label (at most 40 characters).".to_string(),
        "sales[0].products[0].options[0].stock: Enter the stock as a whole number from 0 to 100000.".to_string(),
    ]);
    assert!(!applied.applied);
    assert_eq!(rows(&t).await, before);
    // Unreadable JSON: line and column; an unknown field is an error, not ignored.
    let bad = run(
        &t,
        "{\n  \"sales\": [ { \"ref\": \"a\",\n \"colour\": 1 } ]\n}",
        true,
    )
    .await;
    assert!(
        bad.errors[0].starts_with("line 3 column"),
        "{:?}",
        bad.errors
    );
    assert!(
        bad.errors[0].contains("unknown field `colour`"),
        "{:?}",
        bad.errors
    );
    assert_eq!(t.count("SELECT COUNT(*) FROM feed_refs").await, 0);
}
both!(
    a_broken_feed_lists_every_error_and_changes_nothing,
    broken_feed_on_sqlite,
    broken_feed_on_postgres
);

async fn a_csv_adds_products_and_the_page_takes_files(t: TestApp) {
    assert!(run(&t, &example().to_string(), false).await.applied);
    let csv = "sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock\n\
               winter-coats-fr,parka-red,\"Parka, rouge\",Nouvelle Marque,rouge,120,240,parka-red-m,M,7\n\
               winter-coats-fr,parka-red,\"Parka, rouge\",Nouvelle Marque,rouge,120,240,parka-red-l,L,3\n";
    let out = run(&t, csv, false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(
        (out.created.products, out.created.options, out.unchanged),
        (1, 2, 0)
    );
    assert_eq!(
        t.count("SELECT COUNT(*) FROM brands WHERE name = 'Nouvelle Marque'")
            .await,
        1
    );
    let unknown = run(&t, &csv.replace("winter-coats-fr", "nope"), true).await;
    assert!(
        unknown.errors[0].starts_with("sales[0]: no sale has the feed ref \"nope\""),
        "{:?}",
        unknown.errors
    );

    // The page, as a browser sends it (multipart, the token first).
    let merch = sign_in(&t, MERCH).await;
    let (status, html) = merch.get(&t, "/backoffice/import").await;
    assert_eq!(status, 200);
    assert!(html.contains(r#"enctype="multipart/form-data""#));
    let send = |token: String, file: String, apply: bool| {
        let mut form = reqwest::multipart::Form::new().text("_xsrf", token).part(
            "feed",
            reqwest::multipart::Part::text(file)
                .file_name("feed.json")
                .mime_str("application/json")
                .unwrap(),
        );
        if apply {
            form = form.text("apply", "on");
        }
        t.client
            .post(t.url("/backoffice/import"))
            .header("cookie", &merch.cookie)
            .multipart(form)
            .send()
    };
    let mut edited = example();
    edited["sales"][0]["name"] = json!("Manteaux");
    let res = send(merch.xsrf.clone(), edited.to_string(), false)
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Checked, nothing changed."));
    let res = send("forged".into(), edited.to_string(), true)
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = send(merch.xsrf.clone(), edited.to_string(), true)
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Imported."));
    assert_eq!(
        t.count("SELECT COUNT(*) FROM sales WHERE name = 'Manteaux'")
            .await,
        1
    );
    let res = send(merch.xsrf.clone(), "{ not json".into(), true)
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("line 1 column"));
    // A moderator may not import; the schema is served to operators.
    let moderator = sign_in(&t, MODERATOR).await;
    assert_eq!(moderator.get(&t, "/backoffice/import").await.0, 403);
    let (status, schema) = moderator.get(&t, "/backoffice/feed.schema.json").await;
    assert_eq!(status, 200);
    assert!(schema.contains("withQuotationPrice"));
}
both!(
    a_csv_adds_products_and_the_page_takes_files,
    csv_on_sqlite,
    csv_on_postgres
);

fn png(width: u32, shade: u8) -> Vec<u8> {
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, width / 2, |x, _| {
        image::Rgb([x as u8, shade, 60])
    }))
    .write_to(&mut png, image::ImageFormat::Png)
    .unwrap();
    png.into_inner()
}

pub(super) async fn import_from(
    t: &TestApp,
    feed: &Value,
    files: feed::PictureFiles,
    dry_run: bool,
) -> Outcome {
    let actor = Actor {
        operator_id: None,
        email: "test".into(),
        ip: "local".into(),
    };
    let input = feed::parse(&feed.to_string()).unwrap();
    feed::import(
        &t.app.state.db,
        &actor,
        input,
        files,
        feed::Run {
            dry_run,
            lang: "en",
            now: app::platform::state::now(),
            ids: feed::Ids::Next,
        },
    )
    .await
    .unwrap()
}

async fn a_feed_brings_its_pictures(t: TestApp) {
    let mut with_pictures = example();
    with_pictures["sales"][0]["banner"] = json!("banner.png");
    with_pictures["sales"][0]["logo"] = json!("logo.png");
    with_pictures["sales"][0]["products"][0]["picture"] = json!("caban.png");
    with_pictures["sales"][0]["products"][0]["options"][1]["picture"] = json!("caban-m.png");
    let dir = std::env::temp_dir().join(format!(
        "rosace-feed-{}-{}",
        std::process::id(),
        app::platform::state::now()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let folder = || feed::PictureFiles::Folder(dir.clone());
    let pictures = async || {
        (
            t.count("SELECT COUNT(*) FROM sale_pictures").await,
            t.count("SELECT COUNT(*) FROM product_images").await,
        )
    };

    // Missing files, a name with a folder, a file that is not a picture: every one listed
    // with its path, nothing changed.
    let before = rows(&t).await;
    let mut broken = with_pictures.clone();
    broken["sales"][0]["logo"] = json!("../logo.png");
    std::fs::write(dir.join("caban-m.png"), b"GIF89a, not a PNG").unwrap();
    let out = import_from(&t, &broken, folder(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].banner: no file of this name was sent with the feed",
            "sales[0].logo: a file name, without a folder",
            "sales[0].products[0].picture: no file of this name was sent with the feed",
            "sales[0].products[0].options[1].picture: This file is not a JPEG, PNG or WebP picture.",
        ]
    );
    assert!(!out.applied);
    assert_eq!(rows(&t).await, before, "not even the sale");
    assert_eq!(pictures().await, (0, 0));

    // The files beside the feed: four pictures, in their places.
    for (name, bytes) in [
        ("banner.png", png(1200, 10)),
        ("logo.png", png(96, 20)),
        ("caban.png", png(600, 30)),
        ("caban-m.png", png(600, 40)),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let out = import_from(&t, &with_pictures, folder(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!((out.created.pictures, out.updated.pictures), (4, 0));
    assert_eq!(pictures().await, (2, 2));
    let sale = t
        .count("SELECT id FROM feed_refs WHERE kind = 'sale' AND feed_ref = 'winter-coats-fr'")
        .await;
    assert_eq!(
        t.count(&format!(
            "SELECT COUNT(*) FROM sales WHERE id = {sale} AND banner_image_id IS NOT NULL AND logo_image_id IS NOT NULL"
        ))
        .await,
        1
    );
    let option_m = t
        .count("SELECT id FROM feed_refs WHERE kind = 'option' AND feed_ref = 'caban-navy-m'")
        .await;
    let option_picture = t
        .count(&format!(
            "SELECT image_id FROM product_options WHERE id = {option_m}"
        ))
        .await;
    assert_eq!(
        t.get(&format!("/img/p/{option_picture}?w=285"))
            .await
            .status(),
        200
    );

    // The same feed again changes nothing; a picture with other bytes replaces its place's.
    let out = import_from(&t, &with_pictures, folder(), false).await;
    assert_eq!((out.created, out.updated), Default::default());
    assert_eq!(pictures().await, (2, 2));
    std::fs::write(dir.join("caban.png"), png(600, 99)).unwrap();
    let out = import_from(&t, &with_pictures, folder(), true).await;
    assert_eq!(out.updated.pictures, 1);
    assert_eq!(pictures().await, (2, 2), "a dry run stores nothing");
    let out = import_from(&t, &with_pictures, folder(), false).await;
    assert_eq!((out.created.pictures, out.updated.pictures), (0, 1));
    assert_eq!(pictures().await, (2, 3));

    // The page: the pictures are sent with the feed, by file name.
    let merch = sign_in(&t, MERCH).await;
    let (_, html) = merch.get(&t, "/backoffice/import").await;
    assert!(html.contains(r#"name="pictures" type="file" multiple"#));
    let send = |files: Vec<(&'static str, Vec<u8>)>| {
        let mut form = reqwest::multipart::Form::new()
            .text("_xsrf", merch.xsrf.clone())
            .part(
                "feed",
                reqwest::multipart::Part::text(with_pictures.to_string()).file_name("feed.json"),
            );
        for (name, bytes) in files {
            form = form.part(
                "pictures",
                reqwest::multipart::Part::bytes(bytes).file_name(name),
            );
        }
        t.client
            .post(t.url("/backoffice/import"))
            .header("cookie", &merch.cookie)
            .multipart(form.text("apply", "on"))
            .send()
    };
    let res = send(vec![("logo.png", png(96, 77))]).await.unwrap();
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("sales[0].banner: no file of this name was sent with the feed"),
        "{html}"
    );
    let all = ["banner.png", "caban.png", "caban-m.png"]
        .map(|n| (n, std::fs::read(dir.join(n)).unwrap()));
    let mut files = vec![("logo.png", png(96, 77))];
    files.extend(all);
    let res = send(files).await.unwrap();
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Imported."), "{html}");
    assert!(
        html.contains("pictures: 0 / 1"),
        "only the logo is new: {html}"
    );
    assert_eq!(pictures().await, (3, 3));
    let _ = std::fs::remove_dir_all(&dir);
}
both!(
    a_feed_brings_its_pictures,
    pictures_on_sqlite,
    pictures_on_postgres
);

async fn a_feed_carries_a_trip_and_its_inventory(t: TestApp) {
    let city: String =
        sqlx::query_scalar("SELECT name FROM travel_destinations WHERE site_id = 1 AND kind = 'city' ORDER BY id LIMIT 1")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
    let today = app::travel::rules::Date::from_unix(app::platform::state::now());
    let season = |first: i64, price: &str| {
        json!({
            "ref": "riad-cdg-spring", "first_day": today.add_days(first).to_string(),
            "last_day": today.add_days(90).to_string(), "weekdays": ["mon", "SAT"],
            "price": price, "reference_price": "799", "places": 10
        })
    };
    let feed = |destination: &str, days: i64, season: Value| {
        let city = json!({
            "ref": "riad-cdg", "code": "cdg", "name": "Paris-CDG",
            "durations": [
                { "ref": "riad-cdg-4", "days": days, "nights": 3 },
                { "ref": "riad-cdg-8", "days": 8, "nights": 7, "supplement": "150" }
            ],
            "seasons": [season]
        });
        let travel = json!({
            "destination": destination, "latitude": "31.6295", "longitude": "-7,9811",
            "trip_type": "stay", "board": "half_board", "accommodation": "hotel", "rating": 4,
            "transport": "flight", "highlights": ["Patio", "Hammam"], "party_min": 1, "party_max": 4,
            "packages": [{ "ref": "riad-double", "title": "Chambre double", "cities": [city] }]
        });
        let product = json!({
            "ref": "riad", "name": "Riad des Orangers", "price": "499", "retail_price": "799",
            "travel": travel
        });
        json!({ "sales": [{
            "ref": "trips-spring", "site": 1, "kind": "trips", "name": "Escapades de printemps",
            "offer_type": "FlashSale", "opens": "2026-01-01T08:00:00Z", "closes": "2030-01-01T08:00:00Z",
            "withMap": true, "products": [product]
        }]})
    };
    let files = || feed::PictureFiles::Sent(Default::default());

    // Every error with its path, nothing changed.
    let mut broken = feed("Atlantis", 4, season(7, "499"));
    broken["sales"][0]["products"][0]["travel"]["packages"][0]["cities"][0]["seasons"]
        .as_array_mut()
        .unwrap()
        .push(
            json!({ "ref": "riad-cdg-spring", "first_day": "2027-01-01", "last_day": "2027-02-01",
                      "weekdays": ["funday"], "price": "1", "reference_price": "1", "places": 1 }),
        );
    let mut shop_sale = feed(&city, 4, season(7, "499"))["sales"][0].clone();
    shop_sale["ref"] = json!("not-trips");
    shop_sale["kind"] = json!("shop");
    shop_sale["products"][0]["ref"] = json!("not-a-trip");
    shop_sale["products"][0]["travel"]["packages"] = json!([]);
    broken["sales"].as_array_mut().unwrap().push(shop_sale);
    let before = rows(&t).await;
    let out = import_from(&t, &broken, files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].products[0].travel.packages[0].cities[0].seasons[1]: ref \"riad-cdg-spring\" is used twice in this feed",
        ],
        "refs first"
    );
    broken["sales"][0]["products"][0]["travel"]["packages"][0]["cities"][0]["seasons"][1]["ref"] =
        json!("riad-cdg-winter");
    let out = import_from(&t, &broken, files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].products[0].travel.destination: Choose one of the site's cities.",
            "sales[1].products[0].travel: only a product of a trips sale is a trip (the sale's kind)",
        ]
    );
    broken["sales"][0]["products"][0]["travel"]["destination"] = json!(city.to_uppercase());
    let out = import_from(&t, &broken, files(), true).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].products[0].travel.packages[0].cities[0].seasons[1].weekdays: weekdays are mon, tue, wed, thu, fri, sat or sun",
            "sales[1].products[0].travel: only a product of a trips sale is a trip (the sale's kind)",
        ],
        "the city found by its name in any case"
    );
    assert_eq!(rows(&t).await, before);
    assert_eq!(
        t.count("SELECT COUNT(*) FROM feed_refs WHERE kind = 'season'")
            .await,
        0
    );

    // Made: the trip, its package, city, two stays and a season; the catalog lists it.
    let good = feed(&city, 4, season(7, "499"));
    let out = import_from(&t, &good, files(), false).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.created.travel, 6);
    let sale = t
        .count("SELECT id FROM feed_refs WHERE kind = 'sale' AND feed_ref = 'trips-spring'")
        .await;
    let product = t
        .count("SELECT id FROM feed_refs WHERE kind = 'product' AND feed_ref = 'riad'")
        .await;
    let (status, listed) = json(&t, &format!("/api/travel/v1/campaigns/{sale}/products"), "").await;
    assert_eq!(status, 200);
    let offer = listed["offers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == product)
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(offer["board"], "half_board");
    assert_eq!(offer["priceFrom"], 49_900);

    // The same feed changes nothing; a new price updates the season in place.
    let out = import_from(&t, &good, files(), false).await;
    assert_eq!((out.created, out.updated), Default::default());
    let out = import_from(&t, &feed(&city, 4, season(7, "459")), files(), false).await;
    assert_eq!((out.created.travel, out.updated.travel), (0, 1));
    let season_id = t
        .count("SELECT id FROM feed_refs WHERE kind = 'season' AND feed_ref = 'riad-cdg-spring'")
        .await;
    assert_eq!(
        t.count(&format!(
            "SELECT price_cents FROM travel_seasons WHERE id = {season_id}"
        ))
        .await,
        45_900
    );

    // Nothing members hold moves: with a departure held, neither the season's days nor
    // the stay's length change.
    let short = t
        .count("SELECT id FROM feed_refs WHERE kind = 'duration' AND feed_ref = 'riad-cdg-4'")
        .await;
    let mut day = today.add_days(14);
    while day.weekday() != 0 {
        day = day.add_days(1);
    }
    sqlx::query("INSERT INTO travel_departures (duration_id, day, places, held, sold) VALUES ($1, $2, 10, 2, 0)")
        .bind(short)
        .bind(day.to_string())
        .execute(&t.app.state.db.pool)
        .await
        .unwrap();
    let out = import_from(&t, &feed(&city, 5, season(20, "459")), files(), false).await;
    assert_eq!(
        out.errors,
        vec![
            "sales[0].products[0].travel.packages[0].cities[0].durations[0]: members hold, bought or booked departures of this stay: its days and nights stay as they are",
            "sales[0].products[0].travel.packages[0].cities[0].seasons[0]: Refused: members hold or bought departures within this season's days; change its places or price instead.",
        ]
    );
    assert_eq!(
        t.count(&format!(
            "SELECT days FROM travel_durations WHERE id = {short}"
        ))
        .await,
        4
    );
}
both!(
    a_feed_carries_a_trip_and_its_inventory,
    feed_trips_on_sqlite,
    feed_trips_on_postgres
);

//! Cities by zip code (spec 000 §7): the places of a code in the site's
//! country (or the one asked), from the bundled tables; bad input is a localized 400.
use crate::helpers::{json, start, Backend};

#[tokio::test]
async fn a_zip_code_names_its_places_in_the_sites_country() {
    let t = start(Backend::Sqlite).await;
    let cities = |v: &serde_json::Value| -> Vec<String> {
        v["cities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    let (status, fr) = json(&t, "/api/members/v1/cities?zipCode=75001&siteId=1", "").await;
    assert_eq!(status, 200);
    assert!(cities(&fr).contains(&"Paris".to_string()), "{fr}");
    let (_, de) = json(&t, "/api/members/v1/cities?zipCode=10115&siteId=2", "").await;
    assert_eq!(cities(&de), vec!["Berlin"]);
    // The same code is another place in another country.
    let (_, at) = json(&t, "/api/members/v1/cities?zipCode=1030&siteId=7", "").await;
    let (_, be) = json(&t, "/api/members/v1/cities?zipCode=1030&siteId=70", "").await;
    assert!(!cities(&at).is_empty() && !cities(&be).is_empty());
    assert_ne!(cities(&at), cities(&be));
    // Dutch codes by their four digits, Luxembourg's with or without "L-".
    let (_, nl) = json(&t, "/api/members/v1/cities?zipCode=1011%20AB&siteId=76", "").await;
    assert_eq!(cities(&nl), vec!["Amsterdam"]);
    assert_eq!(nl["zipCode"], "1011");
    let (_, lu) = json(&t, "/api/members/v1/cities?zipCode=l-1111&siteId=73", "").await;
    assert_eq!(cities(&lu), vec!["Luxembourg"]);
    // The form's country wins over the site's.
    let (_, asked) = json(
        &t,
        "/api/members/v1/cities?zipCode=1000&country=be&siteId=1",
        "",
    )
    .await;
    assert_eq!(cities(&asked), vec!["Bruxelles"]);
    // Unknown: nothing to offer; a country without a table too.
    let (status, none) = json(&t, "/api/members/v1/cities?zipCode=00000&siteId=1", "").await;
    assert_eq!((status, cities(&none).len()), (200, 0));
    let (_, elsewhere) = json(&t, "/api/members/v1/cities?zipCode=75001&country=JP", "").await;
    assert!(cities(&elsewhere).is_empty());
    // Missing, too long or in another alphabet: a 400 with the message key, or nothing found.
    for path in [
        "/api/members/v1/cities",
        "/api/members/v1/cities?zipCode=",
        "/api/members/v1/cities?zipCode=12345678901",
    ] {
        let (status, body) = json(&t, path, "").await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(body["error_description"], "auth.zipcode.invalid");
    }
    let (status, odd) = json(
        &t,
        "/api/members/v1/cities?zipCode=%D9%A3%D9%A3%20%E2%80%AE&siteId=1",
        "",
    )
    .await;
    assert_eq!((status, cities(&odd).len()), (200, 0));
    // In the OpenAPI document derived from the code.
    let (_, doc) = json(&t, "/api/openapi.json", "").await;
    assert!(doc["paths"]["/api/members/v1/cities"]["get"].is_object());
}

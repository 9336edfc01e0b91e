//! Travel catalog calls and pages, against the real server on SQLite and PostgreSQL:
//! campaign, products (filters, paging, favourites), offers and count, SEO; the catalog
//! page's HTML (offers, facets, "more", the drawer cookie, the `DDMMYY` redirect).
use serde_json::Value;

use crate::helpers::{both, cookie_value, json, TestApp};

/// The first travel sale of site 1 (24 ordinary sales come first): 12 offers.
const SALE: i64 = 1025;

fn cards(html: &str) -> usize {
    html.matches("data-testid=\"offer-card\"").count()
}

async fn page(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    (res.status().as_u16(), res.text().await.unwrap())
}

fn ids(page: &Value) -> Vec<i64> {
    page["offers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

/// A facet's values as (value, count).
fn facet(v: &Value, name: &str) -> Vec<(String, u64)> {
    v["facets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("facet {name} in {v}"))["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["value"].as_str().unwrap().to_string(),
                x["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

async fn calls(t: TestApp) {
    let (status, sale) = json(&t, &format!("/api/travel/v1/campaigns/{SALE}"), "").await;
    assert_eq!(status, 200, "{sale}");
    assert_eq!(sale["withMap"], true);
    assert_eq!(sale["withQuotationPrice"], true);
    assert_eq!(sale["total"], 12);
    assert_eq!(sale["url"], format!("/t/c/{SALE}"));
    let names: Vec<&str> = sale["facets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    for name in [
        "dates",
        "location",
        "board",
        "accomodationtype",
        "establishmentrating",
        "thematics",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let location = &sale["facets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "location")
        .unwrap();
    assert_eq!(location["category"], "City");
    // Labels are in the site's language.
    let boards = &sale["facets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "board")
        .unwrap()["values"];
    assert!(
        boards
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["label"] != b["value"]),
        "{boards}"
    );

    // Paging: 9 then 3, no offer twice.
    let products = format!("/api/travel/v1/campaigns/{SALE}/products");
    let (_, first) = json(&t, &products, "").await;
    let (_, second) = json(&t, &format!("{products}?page=2"), "").await;
    assert_eq!(
        (
            first["total"].as_u64(),
            first["pageSize"].as_u64(),
            first["page"].as_u64()
        ),
        (Some(12), Some(9), Some(0))
    );
    assert_eq!(
        (
            ids(&first).len(),
            ids(&second).len(),
            second["page"].as_u64()
        ),
        (9, 3, Some(1))
    );
    let mut all = [ids(&first), ids(&second)].concat();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 12);
    let offer = &first["offers"][0];
    assert_eq!(offer["href"], format!("/t/p/{SALE}/{}", offer["id"]));
    assert!(offer["nights"].as_u64().unwrap() >= 3);
    assert!(offer["priceFrom"].as_i64().unwrap() > 0);
    assert_eq!(first["campaignName"], sale["name"]);

    // A filter narrows the list; its count and the count call agree.
    let (board, n) = facet(&sale, "board")
        .into_iter()
        .min_by_key(|(_, n)| *n)
        .unwrap();
    assert!(n < 12);
    let (status, narrowed) = json(&t, &format!("{products}?board={board}"), "").await;
    assert_eq!(status, 200);
    assert_eq!(narrowed["total"].as_u64(), Some(n));
    assert!(narrowed["offers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["board"] == board.as_str()));
    // The board facet still offers the other boards (it is counted without itself).
    assert_eq!(facet(&narrowed, "board").len(), facet(&sale, "board").len());
    let (_, count) = json(
        &t,
        &format!("/api/travel/v1/offers/count?campaignId={SALE}&board={board}"),
        "",
    )
    .await;
    assert_eq!(count["count"].as_u64(), Some(n));
    // Two values of a filter are alternatives.
    let (other, m) = facet(&sale, "board")
        .into_iter()
        .find(|(b, _)| *b != board)
        .unwrap();
    let (_, either) = json(&t, &format!("{products}?board={board},{other}"), "").await;
    assert_eq!(either["total"].as_u64(), Some(n + m));

    // A month of the dates facet; dates travel as DDMMYY.
    let (month, in_month) = facet(&sale, "dates").into_iter().next().unwrap();
    let ddmmyy = format!("01{}{}", &month[5..7], &month[2..4]);
    let (_, dated) = json(&t, &format!("{products}?dates={ddmmyy}"), "").await;
    assert_eq!(dated["total"].as_u64(), Some(in_month));

    // Searches: every travel sale of the site, or one by its `sale-` destination.
    let (_, everything) = json(&t, "/api/travel/v1/offers", "").await;
    assert_eq!(everything["total"], 36);
    let (_, one_sale) = json(&t, "/api/travel/v1/offers?destinationId=sale-1026", "").await;
    assert_eq!(one_sale["total"], 12);
    assert!(one_sale["offers"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["campaignId"] == 1026));
    let (_, nothing) = json(
        &t,
        "/api/travel/v1/offers/count?destinationText=Atlantis",
        "",
    )
    .await;
    assert_eq!(nothing["count"], 0);

    // Bad parameters are a 400 naming them; unknown or ordinary sales a 404.
    for bad in [
        "checkin=310227",
        "checkin=zz",
        "page=0",
        "page=x",
        "destinationId=abc",
        "dates=2027-13",
    ] {
        let (status, body) = json(&t, &format!("{products}?{bad}"), "").await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert_eq!(body["error_code"], "invalid_query");
        assert_eq!(body["error_description"], "travel.catalog.invalid");
        assert!(
            body["message"].as_str().unwrap().len() > 5,
            "a localized message"
        );
    }
    let (_, body) = json(&t, &format!("{products}?checkin=zz"), "").await;
    assert_eq!(body["fieldErrors"][0]["field"], "checkin");
    assert_eq!(
        json(&t, "/api/travel/v1/offers/count?campaignId=x", "")
            .await
            .0,
        400
    );
    for missing in [
        "/api/travel/v1/campaigns/999999",
        "/api/travel/v1/campaigns/1001",
        "/api/travel/v1/campaigns/999999/products",
        "/api/travel/v1/offers/count?campaignId=999999",
    ] {
        let (status, body) = json(&t, missing, "").await;
        assert_eq!(status, 404, "{missing}: {body}");
    }
    // Another site's sale is not visible here.
    assert_eq!(json(&t, "/api/travel/v1/campaigns/2025", "").await.0, 404);

    // SEO: the SEO path unfiltered is indexable, with its canonical address.
    let (status, seo) = json(
        &t,
        &format!("/api/travel/v1/seo?path=/voyages/c/{SALE}"),
        "",
    )
    .await;
    assert_eq!(status, 200, "{seo}");
    assert_eq!(seo["indexable"], true);
    assert!(
        seo["canonical"]
            .as_str()
            .unwrap()
            .contains(&format!("/voyages/c/{SALE}")),
        "{seo}"
    );
    assert!(seo["title"]
        .as_str()
        .unwrap()
        .contains(sale["name"].as_str().unwrap()));
    assert!(!seo["description"].as_str().unwrap().is_empty());
    for unindexed in [
        format!("/voyages/c/{SALE}%3Fboard%3Dx"),
        format!("/t/c/{SALE}"),
    ] {
        let (_, seo) = json(&t, &format!("/api/travel/v1/seo?path={unindexed}"), "").await;
        assert_eq!(seo["indexable"], false, "{unindexed}");
    }
    assert_eq!(
        json(&t, "/api/travel/v1/seo?path=/voyages/c/999999", "")
            .await
            .0,
        404
    );
    assert_eq!(json(&t, "/api/travel/v1/seo?path=/cart", "").await.0, 400);
    assert_eq!(json(&t, "/api/travel/v1/seo", "").await.0, 400);
}

both!(
    calls,
    travel_catalog_calls_on_sqlite,
    travel_catalog_calls_on_postgres
);

async fn favourites(t: TestApp) {
    let session = t.member_session(1).await;
    let products = format!("/api/travel/v1/campaigns/{SALE}/products");
    let (_, before) = json(&t, &products, &session).await;
    let id = before["offers"][1]["id"].as_i64().unwrap();
    assert_eq!(before["offers"][1]["favorite"], false);
    let xsrf = cookie_value(
        &t.get_with_cookie("/gr/aboutus", &session).await,
        "XSRF-TOKEN",
    )
    .unwrap();
    let res = t
        .client
        .put(t.url(&format!("/api/catalog/v2/sale/{SALE}/item/{id}/favorite")))
        .header(
            "cookie",
            format!("{session}; {}", crate::helpers::xsrf_cookie(&xsrf)),
        )
        .header("X-XSRF-TOKEN", xsrf)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let (_, after) = json(&t, &products, &session).await;
    assert_eq!(after["offers"][1]["favorite"], true);
    assert_eq!(after["offers"][0]["favorite"], false);
    let (_, anonymous) = json(&t, &products, "").await;
    assert_eq!(anonymous["offers"][1]["favorite"], false);
    // The page shows the member's heart pressed.
    let (_, html) = page(&t, &format!("/t/c/{SALE}"), &session).await;
    assert_eq!(html.matches("aria-pressed=\"true\"").count(), 1);
}

both!(
    favourites,
    travel_catalog_favourites_on_sqlite,
    travel_catalog_favourites_on_postgres
);

async fn pages(t: TestApp) {
    let session = t.member_session(1).await;
    // Members only at /t/c; the SEO path is open.
    let res = t.get(&format!("/t/c/{SALE}")).await;
    assert!(res.status().is_redirection());
    let (status, seo) = page(&t, &format!("/voyages/c/{SALE}"), "").await;
    assert_eq!(status, 200);
    assert_eq!(cards(&seo), 9);
    assert!(seo.contains(&format!("/voyages/c/{SALE}\"")), "canonical");
    assert!(!seo.contains("noindex"));
    let (_, filtered_seo) = page(&t, &format!("/voyages/c/{SALE}?board=half_board"), "").await;
    assert!(filtered_seo.contains("noindex"));

    let (status, html) = page(&t, &format!("/t/c/{SALE}"), &session).await;
    assert_eq!(status, 200);
    assert_eq!(cards(&html), 9);
    assert!(html.contains("data-total=\"12\""));
    assert!(html.contains("<h1>"));
    // Facets as checkboxes of a GET form, the map with the offers, "more" as a link.
    assert!(html.contains("name=\"board\""));
    assert!(html.contains("name=\"location\""));
    assert!(html.contains("type=\"date\" name=\"checkin\""));
    assert!(html.contains("<travel-map"));
    assert!(html.contains("/widgets/travel-map.js"));
    assert!(
        html.contains(&format!("href=\"/t/c/{SALE}?page=2\"")),
        "more link"
    );
    // Without scripts page 2 shows pages 1 and 2, and no more link.
    let (_, two) = page(&t, &format!("/t/c/{SALE}?page=2"), &session).await;
    assert_eq!(cards(&two), 12);
    assert_eq!(two.matches("data-page=\"1\"").count(), 3);
    assert!(!two.contains("data-testid=\"more-offers\""));

    // A filter narrows the page; its remove link goes back; reset is dc=0.
    let (_, sale) = json(&t, &format!("/api/travel/v1/campaigns/{SALE}"), "").await;
    let (board, n) = facet(&sale, "board")
        .into_iter()
        .min_by_key(|(_, n)| *n)
        .unwrap();
    let (_, narrowed) = page(&t, &format!("/t/c/{SALE}?board={board}"), &session).await;
    assert_eq!(cards(&narrowed), n.min(9) as usize);
    assert!(narrowed.contains(&format!("data-total=\"{n}\"")));
    assert!(narrowed.contains("data-testid=\"remove-filter\""));
    assert!(narrowed.contains(&format!("href=\"/t/c/{SALE}?dc=0\"")));
    let (_, reset) = page(&t, &format!("/t/c/{SALE}?dc=0&board={board}"), &session).await;
    assert_eq!(cards(&reset), 9);

    // A date input's YYYY-MM-DD moves to DDMMYY; other keys ride along.
    let res = t
        .get_with_cookie(
            &format!("/t/c/{SALE}?checkin=2027-03-06&checkout=&board={board}&site=1"),
            &session,
        )
        .await;
    assert_eq!(res.status().as_u16(), 302);
    assert_eq!(
        res.headers()["location"].to_str().unwrap(),
        format!("/t/c/{SALE}?checkin=060327&board={board}&site=1")
    );

    // The phone drawer opens as the cookie left it.
    let drawer = |html: &str| {
        let start = html.find("<details id=\"trv-filters\"").expect("drawer");
        html[start..start + html[start..].find('>').unwrap()].to_string()
    };
    assert!(!drawer(&html).contains(" open"));
    let (_, open) = page(
        &t,
        &format!("/t/c/{SALE}"),
        &format!("{session}; trv_push_filter=drawerOpened"),
    )
    .await;
    assert!(drawer(&open).contains(" open"), "{}", drawer(&open));

    // Unknown, ended or ordinary sales: the localized not-found page.
    for missing in ["/t/c/999999", "/t/c/1001"] {
        let (status, html) = page(&t, missing, &session).await;
        assert_eq!(status, 404, "{missing}");
        assert!(html.contains("data-testid=\"not-found\""));
    }
}

both!(
    pages,
    travel_catalog_pages_on_sqlite,
    travel_catalog_pages_on_postgres
);

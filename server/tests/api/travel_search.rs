//! Travel search on SQLite and PostgreSQL, against the real server: the autocomplete
//! (countries, cities and sales in French and German; any input is a 400 or a list, never
//! a 500), the countries, the search narrowing by destination, the redirect, and the
//! server-rendered travel home, search and results pages (departure-city cookie, last
//! viewed offers, a sale chosen as destination).
use serde_json::Value;

use crate::helpers::{both, cookie_value, json, TestApp};

async fn site_json(t: &TestApp, path: &str, site: u16) -> (u16, Value) {
    let res = t
        .client
        .get(t.url(path))
        .header("x-vp-siteid", site.to_string())
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn html(t: &TestApp, path: &str, cookie: &str) -> (u16, String) {
    let res = t.get_with_cookie(path, cookie).await;
    let status = res.status().as_u16();
    (status, res.text().await.unwrap())
}

/// The live travel sales of a site: (id, name).
async fn travel_sales(t: &TestApp, site: u16) -> Vec<(i64, String)> {
    sqlx::query_as(
        "SELECT id, name FROM sales WHERE site_id = $1 AND campaign_kind = 'TRAVEL' ORDER BY id",
    )
    .bind(i64::from(site))
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap()
}

fn find<'a>(list: &'a Value, label: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|s| s["label"] == label)
}

fn suggestion(list: &Value, label: &str, kind: &str) -> String {
    let s = find(list, label).unwrap_or_else(|| panic!("{label} in {list}"));
    assert_eq!(s["type"], kind, "{s}");
    assert!(s["count"].as_u64().unwrap() > 0, "{s}");
    s["id"].as_str().unwrap().to_string()
}

async fn autocomplete(t: TestApp) {
    // French: a country without its accent, a city by its start, a sale by its name.
    let (status, found) = site_json(&t, "/api/travel/v1/autocomplete?q=grece", 1).await;
    assert_eq!(status, 200, "{found}");
    suggestion(&found, "Grèce", "country");
    assert_eq!(found[0]["label"], "Grèce", "the whole name comes first");
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=S%C3%A9v", 1).await;
    suggestion(&found, "Séville", "city");
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=cret", 1).await;
    suggestion(&found, "Crète", "region");
    let sales = travel_sales(&t, 1).await;
    assert_eq!(sales.len(), 3);
    let (sale_id, sale_name) = &sales[0];
    // The brand, the word after "Hôtel": a word of the name, not its start.
    let brand = sale_name.split_whitespace().nth(1).unwrap();
    let (_, found) = site_json(
        &t,
        &format!("/api/travel/v1/autocomplete?q={}", brand.to_lowercase()),
        1,
    )
    .await;
    assert_eq!(
        suggestion(&found, sale_name, "sale"),
        format!("sale-{sale_id}")
    );
    assert!(found.as_array().unwrap().len() <= 8);

    // German: the same places under their German names, the site's own sales.
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=griech", 2).await;
    suggestion(&found, "Griechenland", "country");
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=sevil", 2).await;
    suggestion(&found, "Sevilla", "city");
    let (de_sale, de_name) = &travel_sales(&t, 2).await[0];
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=hotel", 2).await;
    assert_eq!(
        suggestion(&found, de_name, "sale"),
        format!("sale-{de_sale}")
    );
    assert!(find(&found, sale_name).is_none() || sale_name == de_name);
    // A French name is unknown on the German site.
    let (_, found) = site_json(&t, "/api/travel/v1/autocomplete?q=grece", 2).await;
    assert_eq!(found, Value::Array(vec![]));
}

async fn autocomplete_refuses_nothing_with_a_500(t: TestApp) {
    for (q, want) in [
        ("", 400),
        ("%20%20", 400),
        ("Москва", 200),
        ("%F0%9F%8F%96%EF%B8%8F", 200),
        ("%27%20OR%201%3D1%20--", 200),
        ("%22%3B%20DROP%20TABLE%20sales%3B--", 200),
        ("%25", 200),
        ("_", 200),
        ("%E4%B8%8A%E6%B5%B7", 200),
    ] {
        let (status, body) = json(&t, &format!("/api/travel/v1/autocomplete?q={q}"), "").await;
        assert_eq!(status, want, "q={q}: {body}");
        if want == 200 {
            assert_eq!(body, Value::Array(vec![]), "q={q} matches nothing");
        } else {
            assert_eq!(body["error_code"], "query_empty");
            assert!(!body["message"].as_str().unwrap().is_empty());
        }
    }
    let (status, body) = json(&t, "/api/travel/v1/autocomplete", "").await;
    assert_eq!(
        (status, &body["error_code"]),
        (400, &Value::from("query_empty"))
    );
    let long = "a".repeat(1000);
    let (status, body) = json(&t, &format!("/api/travel/v1/autocomplete?q={long}"), "").await;
    assert_eq!(status, 400);
    assert_eq!(body["error_code"], "query_too_long");
    assert_eq!(
        body["error_description"],
        "travel.search.errors.query_too_long"
    );
    // The message is in the site's language.
    let (_, de) = site_json(&t, &format!("/api/travel/v1/autocomplete?q={long}"), 2).await;
    assert!(de["message"].as_str().unwrap().contains("Zeichen"), "{de}");
}

async fn countries_search_and_redirect(t: TestApp) {
    let (status, countries) = json(&t, "/api/travel/v1/countries", "").await;
    assert_eq!(status, 200);
    let list = countries.as_array().unwrap();
    assert!(list.len() >= 5, "{countries}");
    assert!(list
        .iter()
        .all(|c| c["type"] == "country" && c["count"].as_u64() > Some(0)));
    let greece = suggestion(&countries, "Grèce", "country");
    suggestion(&countries, "Espagne", "country");

    let (status, all) = json(&t, "/api/travel/v1/search", "").await;
    assert_eq!(status, 200, "{all}");
    let total = all["total"].as_u64().unwrap();
    assert_eq!(total, 36, "3 travel sales of 12 offers");
    assert_eq!(all["offers"].as_array().unwrap().len(), 9, "a page of 9");
    let (_, greek) = json(
        &t,
        &format!("/api/travel/v1/search?destinationId={greece}"),
        "",
    )
    .await;
    let greek_total = greek["total"].as_u64().unwrap();
    assert!(greek_total > 0 && greek_total < total, "{greek}");
    for offer in greek["offers"].as_array().unwrap() {
        let d = offer["destination"].as_str().unwrap();
        assert!(["Santorin", "Héraklion"].contains(&d), "{d}");
    }
    // The free text finds the same when nothing was chosen.
    let (_, text) = json(&t, "/api/travel/v1/search?destinationText=Gr%C3%A8ce", "").await;
    assert_eq!(text["total"].as_u64(), Some(greek_total));
    // A bad value is left out; a checkout before the checkin is refused.
    let (status, _) = json(&t, "/api/travel/v1/search?checkin=not-a-date&page=x", "").await;
    assert_eq!(status, 200);
    let (status, err) = json(
        &t,
        "/api/travel/v1/search?checkin=2030-05-10&checkout=2030-05-01",
        "",
    )
    .await;
    assert_eq!(
        (status, &err["error_code"]),
        (400, &Value::from("checkout_before_checkin"))
    );

    let (sale, _) = &travel_sales(&t, 1).await[1];
    let (status, to) = json(
        &t,
        &format!("/api/travel/v1/redirect?destinationId=sale-{sale}"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(to["url"], format!("/t/c/{sale}"));
    let (_, to) = json(
        &t,
        &format!(
            "/api/travel/v1/redirect?destinationId={greece}&destinationText=Gr%C3%A8ce&flex=1"
        ),
        "",
    )
    .await;
    assert_eq!(
        to["url"],
        format!("/t/r?destinationId={greece}&destinationText=Gr%C3%A8ce&flex=1")
    );
}

async fn pages(t: TestApp) {
    let member = t.member_session(1).await;
    // The travel home: the search form, the live travel sales, nothing viewed yet.
    let (status, home) = html(&t, "/home/travel", &member).await;
    assert_eq!(status, 200);
    assert!(home.contains(r#"data-testid="travel-home""#));
    assert!(home.contains(r#"action="/t/r""#) && home.contains(r#"role="combobox""#));
    assert_eq!(home.matches(r#"data-testid="travel-sale""#).count(), 3);
    let (sale, _) = &travel_sales(&t, 1).await[0];
    // Linked by the sale's slug (spec 001 §2's catalog link), which leads to /t/c/{id}.
    let slug: String = sqlx::query_scalar("SELECT slug FROM sales WHERE id = $1")
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    assert!(home.contains(&format!(r#"href="/catalog/{slug}""#)));
    assert!(!home.contains(r#"data-testid="travel-last-viewed""#));
    // The modules of the site's travel home: its sales as banners, the shop's homes.
    let highlights = home
        .split(r#"data-module="travel-highlights""#)
        .nth(1)
        .expect("the travel highlights module");
    assert!(highlights.contains(&format!(r#"href="/voyages/c/{sale}""#)));
    assert!(home.contains(r#"data-module="travel-universes""#));
    assert!(
        !home.contains(r#"data-module="highlights""#),
        "not the default home's"
    );
    // Opening a product as the member puts it in the last viewed list.
    let product: i64 = sqlx::query_scalar("SELECT MIN(id) FROM products WHERE sale_id = $1")
        .bind(sale)
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
    let (status, _) = json(
        &t,
        &format!("/api/travel/v1/campaigns/{sale}/products/{product}"),
        &member,
    )
    .await;
    assert_eq!(status, 200);
    let (_, home) = html(&t, "/home/travel", &member).await;
    let recent = home
        .split(r#"data-testid="travel-last-viewed""#)
        .nth(1)
        .expect("the last viewed section");
    assert!(recent.contains(&format!("/t/p/{sale}/{product}")));

    // The open-door travel home: indexable, canonical, sales lead to open-door catalogs.
    let (status, open) = html(&t, "/voyages", "").await;
    assert_eq!(status, 200);
    assert!(open.contains(r#"rel="canonical""#) && open.contains("/voyages\""));
    assert!(!open.contains("noindex"));
    assert!(open.contains(&format!(r#"href="/voyages/c/{sale}""#)));
    assert!(!open.contains(r#"data-testid="travel-last-viewed""#));
    let (_, member_home) = html(&t, "/voyage", &member).await;
    assert!(member_home.contains("noindex"), "only /voyages is indexed");

    // Results: the form prefilled, the offers, and the departure city remembered.
    let res = t
        .get_with_cookie(
            "/t/r?destinationText=Gr%C3%A8ce&departureCityCode=PAR",
            &member,
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        cookie_value(&res, "trv_departure_city").as_deref(),
        Some("PAR")
    );
    let set = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|v| v.starts_with("trv_departure_city"))
        .unwrap();
    assert!(
        set.contains("Max-Age=2592000") && set.contains("Path=/") && set.contains("SameSite=Lax"),
        "{set}"
    );
    let body = res.text().await.unwrap();
    assert!(
        body.contains(r#"value="Grèce""#),
        "the destination is prefilled"
    );
    assert!(body.contains(r#"data-testid="offer-card""#));
    assert!(
        body.contains("/widgets/travel-map.js"),
        "the results have the map"
    );
    assert!(body.contains("noindex"));
    // Next time, the remembered city is preselected.
    let (_, search) = html(&t, "/t/s", &format!("{member}; trv_departure_city=PAR")).await;
    assert!(search.contains(r#"data-testid="travel-countries""#));
    let select = search.split(r#"id="trv-departure""#).nth(1).unwrap();
    let select = &select[..select.find("</select>").unwrap()];
    assert!(select.contains(r#"value="PAR" selected"#), "{select}");
    // A city no offer leaves from is ignored.
    let (_, search) = html(&t, "/t/s", &format!("{member}; trv_departure_city=XXX")).await;
    assert!(!search.contains(r#"value="XXX""#));

    // Wrong dates: the message, the rest of the search still runs.
    let (status, body) = html(&t, "/t/r?checkin=2030-05-10&checkout=2030-05-01", &member).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#"data-testid="travel-search-error""#));
    // Nothing found: the empty state leads back to the travel home.
    let (_, body) = html(&t, "/t/r?destinationText=Atlantide", &member).await;
    assert!(body.contains(r#"data-testid="travel-results-empty""#));
    assert!(body.contains(r#"href="/home/travel""#));
    // A travel sale chosen as destination opens its catalog.
    let res = t
        .get_with_cookie(&format!("/t/r?destinationId=sale-{sale}"), &member)
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], format!("/t/c/{sale}").as_str());
    // Visitors are sent to sign in first.
    let res = t.get("/t/r?destinationText=Gr%C3%A8ce").await;
    assert!(res.status().is_redirection());
}

both!(
    autocomplete,
    autocomplete_on_sqlite,
    autocomplete_on_postgres
);
both!(
    autocomplete_refuses_nothing_with_a_500,
    weird_autocomplete_on_sqlite,
    weird_autocomplete_on_postgres
);
both!(
    countries_search_and_redirect,
    countries_search_and_redirect_on_sqlite,
    countries_search_and_redirect_on_postgres
);
both!(pages, pages_on_sqlite, pages_on_postgres);

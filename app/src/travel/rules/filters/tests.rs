//! The filter state rules.
use super::*;
use crate::model::travel_catalog::FacetValue;

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn the_url_reads_into_a_query() {
    let q = parse_offer_query(&pairs(&[
        ("checkin", "060327"),
        ("checkout", "2027-03-13"),
        ("flex", "1"),
        ("board", "all_inclusive,half_board"),
        ("board", "half_board"),
        ("thematics", "beach"),
        ("location", "140"),
        ("unknown", "x"),
        ("page", "3"),
    ]));
    assert_eq!(q.checkin.as_deref(), Some("2027-03-06"));
    assert_eq!(q.checkout.as_deref(), Some("2027-03-13"));
    assert_eq!(q.flex, 1);
    assert_eq!(q.filters["board"], ["all_inclusive", "half_board"]);
    assert_eq!(q.filters["thematics"], ["beach"]);
    assert_eq!(q.filters["location"], ["140"]);
    assert!(!q.filters.contains_key("unknown"));
    assert_eq!(q.page, 2);
    assert_eq!((q.site_id, q.campaign_id, q.universe_id), (0, None, None));
}

#[test]
fn bad_values_are_dropped() {
    let long = "x".repeat(65);
    let q = parse_offer_query(&pairs(&[
        ("checkin", "310227"),
        ("checkout", "zz"),
        ("flex", "1"),
        ("dates", "2027-13"),
        ("board", ""),
        ("board", ",,"),
        ("thematics", &long),
        ("page", "-4"),
        ("destinationId", "12; DROP TABLE"),
    ]));
    assert_eq!(q, OfferQuery::default());
    let q = parse_offer_query(&pairs(&[("page", "0")]));
    assert_eq!(q.page, 0);
    let q = parse_offer_query(&pairs(&[("page", "99999999999")]));
    assert_eq!(q.page, 0, "not a u32");
    let q = parse_offer_query(&pairs(&[("page", "5000")]));
    assert_eq!(q.page, MAX_PAGE - 1);
    let q = parse_offer_query(&pairs(&[("destinationId", "sale-1025")]));
    assert_eq!(q.destination_id.as_deref(), Some("sale-1025"));
}

#[test]
fn checkout_before_checkin_and_flex_without_checkin_are_dropped() {
    let q = parse_offer_query(&pairs(&[("checkin", "100327"), ("checkout", "090327")]));
    assert_eq!(
        (q.checkin.as_deref(), q.checkout),
        (Some("2027-03-10"), None)
    );
    let q = parse_offer_query(&pairs(&[("flex", "1"), ("dates", "2027-03")]));
    assert_eq!(q.flex, 0);
    assert_eq!(q.dates.as_deref(), Some("2027-03"));
}

#[test]
fn exact_dates_win_over_a_period() {
    let q = parse_offer_query(&pairs(&[("dates", "010327"), ("checkin", "100327")]));
    assert_eq!((q.dates, q.checkin.as_deref()), (None, Some("2027-03-10")));
    let q = parse_offer_query(&pairs(&[("dates", "150327")]));
    assert_eq!(q.dates.as_deref(), Some("2027-03"));
}

#[test]
fn dc_zero_is_the_default_catalogue() {
    let q = parse_offer_query(&pairs(&[
        ("dc", "0"),
        ("board", "half_board"),
        ("checkin", "100327"),
        ("page", "2"),
    ]));
    assert!(q.filters.is_empty());
    assert_eq!(q.checkin, None);
    assert_eq!(q.page, 1);
}

#[test]
fn the_query_string_round_trips_with_ddmmyy_dates() {
    let q = parse_offer_query(&pairs(&[
        ("checkin", "2027-03-06"),
        ("flex", "7"),
        ("board", "half_board"),
        ("board", "all_inclusive"),
        ("location", "Côte d'Azur"),
        ("page", "2"),
    ]));
    let s = offer_query_string(&q);
    assert_eq!(
        s,
        "?checkin=060327&flex=7&location=C%C3%B4te%20d%27Azur&board=half_board,all_inclusive&page=2"
    );
    assert_eq!(parse_offer_query(&query_pairs(&s)), q);
    let month = parse_offer_query(&pairs(&[("dates", "2027-03")]));
    assert_eq!(offer_query_string(&month), "?dates=010327");
    assert_eq!(offer_query_string(&OfferQuery::default()), "");
}

#[test]
fn the_canonical_query_keeps_foreign_keys() {
    let raw = pairs(&[
        ("checkin", "2027-03-06"),
        ("site", "2"),
        ("board", "x"),
        ("flex", ""),
    ]);
    let q = parse_offer_query(&raw);
    assert_eq!(canonical_query(&q, &raw), "?checkin=060327&board=x&site=2");
    assert_eq!(
        canonical_query(&OfferQuery::default(), &pairs(&[("site", "2")])),
        "?site=2"
    );
}

#[test]
fn with_page_replaces_only_the_page() {
    assert_eq!(with_page("?a=1&page=2&b=%20", 3), "?a=1&b=%20&page=3");
    assert_eq!(with_page("", 2), "?page=2");
    assert_eq!(with_page("pages=1", 2), "?pages=1&page=2");
}

#[test]
fn query_pairs_decode_forms_and_links() {
    assert_eq!(
        query_pairs("?a=b+c&d=%C3%A9%2C&e&=x&f=%zz"),
        pairs(&[
            ("a", "b c"),
            ("d", "é,"),
            ("e", ""),
            ("", "x"),
            ("f", "%zz")
        ])
    );
    assert_eq!(query_pairs("x=%4"), pairs(&[("x", "%4")]));
    assert!(query_pairs("").is_empty());
}

#[test]
fn iso_dates_in_the_url_are_noticed() {
    assert!(has_iso_dates(&pairs(&[("checkin", "2027-03-06")])));
    assert!(has_iso_dates(&pairs(&[("dates", "2027-03")])));
    assert!(!has_iso_dates(&pairs(&[
        ("checkin", "060327"),
        ("board", "a-b")
    ])));
}

#[test]
fn active_filters_remove_one_value_each() {
    let q = parse_offer_query(&pairs(&[
        ("checkin", "060327"),
        ("flex", "1"),
        ("board", "half_board,all_inclusive"),
        ("page", "3"),
    ]));
    let active = active_filters(&q);
    let names: Vec<(&str, &str)> = active
        .iter()
        .map(|a| (a.name.as_str(), a.value.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("checkin", "2027-03-06"),
            ("board", "half_board"),
            ("board", "all_inclusive")
        ]
    );
    assert_eq!(active[0].without.checkin, None);
    assert_eq!(active[0].without.flex, 0);
    assert_eq!(active[1].without.filters["board"], ["all_inclusive"]);
    assert_eq!(active[1].without.page, 0);
    assert_eq!(
        offer_query_string(&active[2].without),
        "?checkin=060327&flex=1&board=half_board"
    );
    assert!(is_filtered(&q));
    assert!(!is_filtered(&OfferQuery {
        page: 4,
        ..Default::default()
    }));
}

#[test]
fn facets_get_labels() {
    let value = |v: &str| FacetValue {
        value: v.into(),
        label: v.into(),
        count: 1,
        selected: false,
    };
    let mut facets = vec![
        Facet {
            name: "board".into(),
            category: String::new(),
            values: vec![value("half_board"), value("odd")],
        },
        Facet {
            name: "establishmentrating".into(),
            category: String::new(),
            values: vec![value("4")],
        },
        Facet {
            name: "dates".into(),
            category: "Dates".into(),
            values: vec![value("2026-12")],
        },
        Facet {
            name: "location".into(),
            category: "City".into(),
            values: vec![FacetValue {
                label: "Nice".into(),
                ..value("140")
            }],
        },
    ];
    let t = |k: &str| match k {
        "travel.filter.board.half_board" => Some("Demi-pension".to_string()),
        "travel.filter.month.12" => Some("décembre".to_string()),
        _ => None,
    };
    let t_with = |k: &str, args: &[(&str, &str)]| format!("{k}:{}", args[0].1);
    label_facets(&mut facets, t, t_with);
    assert_eq!(facets[0].values[0].label, "Demi-pension");
    assert_eq!(facets[0].values[1].label, "odd");
    assert_eq!(
        facets[1].values[0].label,
        "travel.filter.establishmentrating.value:4"
    );
    assert_eq!(facets[2].values[0].label, "décembre 2026");
    assert_eq!(facets[3].values[0].label, "Nice");
}

#[test]
fn months_have_bounds() {
    let (a, b) = month_bounds("2028-02").unwrap();
    assert_eq!(
        (a.to_string(), b.to_string()),
        ("2028-02-01".into(), "2028-02-29".into())
    );
    let (_, b) = month_bounds("2026-12").unwrap();
    assert_eq!(b.to_string(), "2026-12-31");
    assert_eq!(month_bounds("2026-13"), None);
}

#[test]
fn the_drawer_cookie_is_read_and_written() {
    assert!(drawer_open("a=1; trv_push_filter=drawerOpened; b=2"));
    assert!(!drawer_open("trv_push_filter=; a=1"));
    assert!(!drawer_open("xtrv_push_filter=drawerOpened"));
    assert!(!drawer_open(""));
    assert_eq!(
        drawer_cookie(true),
        "trv_push_filter=drawerOpened; path=/; SameSite=Lax"
    );
    assert!(drawer_cookie(false).contains("max-age=0"));
}

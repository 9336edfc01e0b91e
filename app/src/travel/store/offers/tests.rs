//! The selection rules of the offers store, without a database.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::select::{passes, Candidate, Departures, Search};
use crate::model::travel::TravelOffer;
use crate::model::travel_catalog::OfferQuery;
use crate::travel::rules::{known_filters, Date};

fn d(s: &str) -> Date {
    Date::parse(s).unwrap()
}

#[test]
fn departures_fall_on_the_season_weekdays() {
    // Saturdays only (bit 5), from Mon 2026-12-07 to Thu 2026-12-31.
    let s = Departures {
        first: d("2026-12-07"),
        last: d("2026-12-31"),
        weekdays: 0b010_0000,
        sold_out: BTreeSet::new(),
        stays: vec![8],
    };
    assert!(s.any_within(d("2026-12-12"), d("2026-12-12")), "a Saturday");
    assert!(
        !s.any_within(d("2026-12-13"), d("2026-12-18")),
        "Sunday to Friday"
    );
    assert!(
        s.any_within(d("2026-12-10"), d("2026-12-16")),
        "a week holds one"
    );
    assert!(
        !s.any_within(d("2026-12-01"), d("2026-12-06")),
        "before the season"
    );
    assert!(!s.any_within(d("2027-01-01"), d("2027-01-31")), "after it");
    let none = Departures { weekdays: 0, ..s };
    assert!(!none.any_within(d("2026-12-01"), d("2026-12-31")));
}

fn candidate(values: &[(&'static str, &[&str])]) -> Candidate {
    Candidate {
        offer: TravelOffer {
            id: 1,
            campaign_id: 9,
            title: String::new(),
            destination: String::new(),
            image: String::new(),
            href: String::new(),
            price_from: 0,
            retail_value: 0,
            nights: 0,
            board: String::new(),
            rating: 0,
            lat: 0.0,
            lng: 0.0,
            benefit: None,
            favorite: false,
        },
        with_map: true,
        destination_id: 3,
        trip_type: "stay".into(),
        values: values
            .iter()
            .map(|(k, vs)| (*k, vs.iter().map(|v| v.to_string()).collect()))
            .collect(),
        cities: vec![(
            "PAR".into(),
            vec![Departures {
                first: d("2026-12-07"),
                last: d("2027-01-31"),
                weekdays: 0b010_0000,
                sold_out: BTreeSet::new(),
                stays: vec![4, 8],
            }],
        )],
    }
}

#[test]
fn values_of_a_filter_are_alternatives_and_filters_add_up() {
    let c = candidate(&[("board", &["half_board"]), ("thematics", &["beach", "spa"])]);
    let own = |pairs: &[(&str, &[&str])]| -> BTreeMap<String, Vec<String>> {
        pairs
            .iter()
            .map(|(k, vs)| (k.to_string(), vs.iter().map(|v| v.to_string()).collect()))
            .collect()
    };
    let q = OfferQuery {
        filters: own(&[
            ("board", &["all_inclusive", "half_board"]),
            ("thematics", &["spa"]),
        ]),
        ..Default::default()
    };
    assert!(passes(&c, &known_filters(&q), None));
    let q = OfferQuery {
        filters: own(&[("board", &["half_board"]), ("thematics", &["family"])]),
        ..Default::default()
    };
    assert!(!passes(&c, &known_filters(&q), None));
    assert!(
        passes(&c, &known_filters(&q), Some("thematics")),
        "its own facet is left out"
    );
    let q = OfferQuery {
        filters: own(&[("notoriousbrands", &["1"])]),
        ..Default::default()
    };
    assert!(!passes(&c, &known_filters(&q), None), "no value: no match");
}

#[test]
fn the_search_matches_place_sale_city_and_days() {
    // Dec 1st 2026 at noon: bookable from Dec 4th.
    let now = 1_796_126_400;
    assert_eq!(Date::from_unix(now), d("2026-12-01"));
    let places: HashMap<i64, (Option<i64>, String)> = [
        (1, (None, "france".to_string())),
        (2, (Some(1), "provence".to_string())),
        (3, (Some(2), "marseille".to_string())),
    ]
    .into_iter()
    .collect();
    let c = candidate(&[]);
    let search = |q: OfferQuery| Search::of(&q, now).matches(&c, &places);
    assert!(search(OfferQuery::default()));
    assert!(search(OfferQuery {
        destination_id: Some("1".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        destination_id: Some("4".into()),
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        destination_id: Some("sale-9".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        destination_id: Some("sale-8".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        destination_id: Some("x".into()),
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        destination_text: Some("Provençe".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        destination_text: Some("Nice".into()),
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        departure_city_code: Some("PAR".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        departure_city_code: Some("LYS".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        trip_type_id: Some("tour".into()),
        ..Default::default()
    }));
    // Saturday Dec 12th; Thursday Dec 10th only with ±3 days or more, not ±1.
    assert!(search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-10".into()),
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        checkin: Some("2026-12-10".into()),
        flex: 3,
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-10".into()),
        flex: 1,
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        checkin: Some("2026-12-11".into()),
        flex: 1,
        ..Default::default()
    }));
    // Saturday Dec 5th is a week before: ±7 days only.
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-05".into()),
        flex: 3,
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        checkin: Some("2026-12-05".into()),
        flex: 7,
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        dates: Some("2027-01".into()),
        ..Default::default()
    }));
    // A checkout: only the lengths of stay the offer has (checkout = check-in + days - 1).
    assert!(search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        checkout: Some("2026-12-19".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        checkout: Some("2026-12-20".into()),
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        checkout: Some("2026-12-20".into()),
        flex: 3,
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        dates: Some("2027-02".into()),
        ..Default::default()
    }));
    let months: Vec<String> = Search::of(&OfferQuery::default(), now)
        .months(&c)
        .into_iter()
        .collect();
    assert_eq!(months, ["2026-12", "2027-01"]);
}

#[test]
fn sold_out_days_are_no_departure_for_dates_or_months() {
    // Dec 1st 2026 at noon.
    let now = 1_796_126_400;
    let places = HashMap::new();
    let mut c = candidate(&[]);
    // Every Saturday of January 2027 sold out, and Saturday Dec 12th.
    let (first, last) = (d("2026-12-07"), d("2027-01-31"));
    let sold_out: BTreeSet<Date> = (0..=first.days_until(last))
        .map(|n| first.add_days(n))
        .filter(|day| day.weekday() == 5 && (day.month == 1 || day.day == 12))
        .collect();
    c.cities[0].1[0].sold_out = sold_out;
    let search = |q: OfferQuery| Search::of(&q, now).matches(&c, &places);
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        ..Default::default()
    }));
    // ±3 days reaches no other Saturday; the next one has places.
    assert!(!search(OfferQuery {
        checkin: Some("2026-12-12".into()),
        flex: 3,
        ..Default::default()
    }));
    assert!(search(OfferQuery {
        checkin: Some("2026-12-19".into()),
        ..Default::default()
    }));
    assert!(!search(OfferQuery {
        dates: Some("2027-01".into()),
        ..Default::default()
    }));
    let months: Vec<String> = Search::of(&OfferQuery::default(), now)
        .months(&c)
        .into_iter()
        .collect();
    assert_eq!(months, ["2026-12"]);
}

//! The configurator form's reading (spec 001 §4): the state it carries, and each change
//! found against what the page showed going through the configurator's transitions.
use super::fixtures::{city, duration, package, person, product};
use super::form::{configure, duration_value, state_query, step_value};
use super::*;
use crate::model::travel::{Benefit, ParticipantType, TravelProduct};
use ParticipantType::{Adults, Children};

/// Package 1: Paris (10) with 8 and 15 days, Lyon (11) at a lower price with 8 and 15 days,
/// a benefit 5; package 2: one city, one duration.
fn trip() -> TravelProduct {
    let mut p = product(vec![
        package(
            1,
            false,
            vec![
                city(
                    10,
                    59_900,
                    false,
                    vec![
                        duration(100, 8, 59_900, false),
                        duration(101, 15, 89_900, false),
                    ],
                ),
                city(
                    11,
                    49_900,
                    false,
                    vec![
                        duration(110, 8, 49_900, false),
                        duration(111, 15, 79_900, false),
                    ],
                ),
            ],
        ),
        package(
            2,
            false,
            vec![city(
                20,
                69_900,
                false,
                vec![duration(200, 4, 69_900, false)],
            )],
        ),
    ]);
    p.packages[0].configurator.benefits = vec![Benefit {
        id: 5,
        label: "Transfer".into(),
        price: 2_500,
        min: 0,
    }];
    p
}

/// Reads a query string as the form's fields would arrive.
fn run(product: &TravelProduct, query: &str) -> Configuration {
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let first = |k: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let all = |k: &str| {
        pairs
            .iter()
            .filter(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .collect()
    };
    configure(product, Configuration::initial(product, false), first, all)
}

/// What a page in cheapest mode on package 1 shows: Lyon and 8 days, two adults.
const CHEAPEST_PAGE: &str = "package=1&city=11&duration=8-7&party=a,a&cheapest=1\
    &shown_package=1&shown_city=11&shown_duration=8-7&shown_checkin=&shown_cheapest=1";

#[test]
fn without_a_package_field_the_page_opens_as_on_load() {
    let p = trip();
    let config = run(&p, "utm_source=mail");
    assert_eq!(config, Configuration::initial(&p, false));
    assert!(config.cheapest);
}

#[test]
fn the_state_address_reads_back_as_the_same_configuration() {
    let p = trip();
    let config = Configuration {
        package_id: Some(1),
        city_id: Some(10),
        stay: Some(StayLength {
            days: 15,
            nights: 14,
        }),
        checkin: Some("2027-03-06".into()),
        benefits: vec![5],
        participants: vec![
            person(Adults, None),
            person(Adults, None),
            person(Children, Some("2020-06-15")),
        ],
        cheapest: false,
    };
    assert_eq!(run(&p, &state_query(&config)), config);
    let cheapest = Configuration {
        cheapest: true,
        ..Configuration::initial(&p, false)
    };
    assert_eq!(run(&p, &state_query(&cheapest)), cheapest);
}

#[test]
fn a_day_picked_in_cheapest_mode_ends_it_and_keeps_the_city_and_duration_shown() {
    let p = trip();
    let config = run(&p, &format!("{CHEAPEST_PAGE}&checkin=2027-03-06"));
    assert!(!config.cheapest);
    assert_eq!(config.checkin.as_deref(), Some("2027-03-06"));
    assert_eq!(config.city_id, Some(11));
    assert_eq!(config.stay, Some(StayLength { days: 8, nights: 7 }));
}

#[test]
fn another_city_or_duration_ends_cheapest_mode() {
    let p = trip();
    let config = run(&p, &CHEAPEST_PAGE.replacen("city=11&", "city=10&", 1));
    assert!(!config.cheapest);
    assert_eq!(config.city_id, Some(10));
    let config = run(
        &p,
        &CHEAPEST_PAGE.replacen("duration=8-7", "duration=15-14", 1),
    );
    assert!(!config.cheapest);
    assert_eq!(
        config.stay,
        Some(StayLength {
            days: 15,
            nights: 14
        })
    );
}

#[test]
fn unchanged_fields_keep_cheapest_mode_on() {
    let p = trip();
    assert!(run(&p, CHEAPEST_PAGE).cheapest);
}

#[test]
fn ticking_cheapest_alone_turns_it_on_and_a_day_sent_with_it_still_ends_it() {
    let p = trip();
    let page = "package=1&city=10&duration=15-14&checkin=2027-03-06&party=a,a\
        &shown_package=1&shown_city=10&shown_duration=15-14&shown_checkin=2027-03-06&shown_cheapest=0";
    assert!(run(&p, &format!("{page}&cheapest=1")).cheapest);
    assert!(!run(&p, page).cheapest);
    let both = page.replacen("checkin=2027-03-06", "checkin=2027-03-13", 1);
    let config = run(&p, &format!("{both}&cheapest=1"));
    assert!(!config.cheapest);
    assert_eq!(config.checkin.as_deref(), Some("2027-03-13"));
}

#[test]
fn another_package_resets_benefits_and_party() {
    let p = trip();
    let page = "package=2&city=10&duration=8-7&party=a,a,c2020-06-15&benefits=5\
        &shown_package=1&shown_city=10&shown_duration=8-7&shown_checkin=&shown_cheapest=0";
    let config = run(&p, page);
    assert_eq!(config.package_id, Some(2));
    assert!(config.benefits.is_empty());
    assert_eq!(
        config.participants,
        vec![person(Adults, None), person(Adults, None)]
    );
}

#[test]
fn another_package_keeps_the_city_and_stay_the_page_showed_where_it_has_them() {
    // Package 3 leaves from Lyon too (another row, the same name) for 15 days.
    let mut p = trip();
    let mut lyon = city(30, 52_900, false, vec![duration(300, 15, 52_900, false)]);
    lyon.value = "City 11".into();
    p.packages.push(package(3, false, vec![lyon]));
    let page = "package=3&city=11&duration=15-14&party=a,a\
        &shown_package=1&shown_city=11&shown_duration=15-14&shown_checkin=&shown_cheapest=0";
    let config = run(&p, page);
    assert_eq!(config.package_id, Some(3));
    assert_eq!(config.city_id, Some(30));
    assert_eq!(config.stay.map(|s| (s.days, s.nights)), Some((15, 14)));
    // Package 2 has neither: its own city and stay, not none.
    let page = "package=2&city=11&duration=15-14&party=a,a\
        &shown_package=1&shown_city=11&shown_duration=15-14&shown_checkin=&shown_cheapest=0";
    let config = run(&p, page);
    assert_eq!(config.city_id, Some(20));
    assert_eq!(config.stay.map(|s| s.days), Some(4));
}

#[test]
fn an_unknown_package_selects_none() {
    let p = trip();
    let page = "package=99&party=a,a&shown_package=1&shown_cheapest=1";
    assert_eq!(run(&p, page).package_id, None);
}

#[test]
fn benefits_come_as_repeated_checkboxes() {
    let p = trip();
    let config = run(
        &p,
        &format!("{CHEAPEST_PAGE}&benefits=5&benefits=5&benefits=x"),
    );
    assert_eq!(config.benefits, vec![5]);
}

#[test]
fn party_steps_follow_the_rules_table() {
    let p = trip();
    let add_child = format!("{CHEAPEST_PAGE}&step={}", step_value(true, Children));
    let config = run(&p, &add_child);
    assert_eq!(config.counts().get(Children), 1);
    // Two adults and one child is the table's largest party with children.
    let full = add_child.replace("party=a,a", "party=a,a,c");
    assert_eq!(run(&p, &full).counts().get(Children), 1);
    let remove = format!("{CHEAPEST_PAGE}&step={}", step_value(false, Adults));
    assert_eq!(run(&p, &remove).counts().get(Adults), 1);
    assert_eq!(
        run(&p, &format!("{CHEAPEST_PAGE}&step=add-x"))
            .counts()
            .get(Adults),
        2
    );
}

#[test]
fn birthdays_are_read_by_participant_and_malformed_ones_dropped() {
    let p = trip();
    let page = CHEAPEST_PAGE.replace("party=a,a", "party=a,a,c");
    let config = run(&p, &format!("{page}&bday2=2020-06-15"));
    assert_eq!(
        config.participants[2].birthday.as_deref(),
        Some("2020-06-15")
    );
    let config = run(&p, &format!("{page}&bday2=2020-02-31"));
    assert_eq!(config.participants[2].birthday, None);
    // A field for a participant that is not there changes nothing.
    assert_eq!(
        run(&p, &format!("{page}&bday7=2020-06-15"))
            .participants
            .len(),
        3
    );
}

#[test]
fn durations_are_days_dash_nights() {
    assert_eq!(duration_value(StayLength { days: 8, nights: 7 }), "8-7");
    let p = trip();
    let config = run(
        &p,
        &CHEAPEST_PAGE.replacen("duration=8-7", "duration=8-", 1),
    );
    assert_eq!(config.stay, None);
}

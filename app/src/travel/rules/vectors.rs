//! The cases `vectors.json` shares with the React widgets' tests.
use serde::Deserialize;

use super::{age_category, checkout_date, is_selectable_day};
use crate::model::travel::{CalendarDays, ParticipantProfile, ParticipantType};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vectors {
    age_category: AgeCategory,
    calendar_selectable: CalendarSelectable,
    checkout_date: Cases<CheckoutCase>,
}

#[derive(Deserialize)]
struct Cases<T> {
    cases: Vec<T>,
}

#[derive(Deserialize)]
struct AgeCategory {
    profiles: Vec<ParticipantProfile>,
    cases: Vec<AgeCase>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AgeCase {
    travel_date: String,
    birthday: String,
    expected: Option<ParticipantType>,
}

#[derive(Deserialize)]
struct CalendarSelectable {
    days: CalendarDays,
    cases: Vec<SelectableCase>,
}

#[derive(Deserialize)]
struct SelectableCase {
    date: String,
    expected: bool,
}

#[derive(Deserialize)]
struct CheckoutCase {
    checkin: String,
    days: u32,
    expected: String,
}

fn vectors() -> Vectors {
    serde_json::from_str(include_str!("../vectors.json")).expect("vectors.json parses")
}

#[test]
fn shared_age_category_vectors() {
    let v = vectors().age_category;
    assert!(!v.cases.is_empty());
    for c in v.cases {
        assert_eq!(
            age_category(&c.birthday, &c.travel_date, &v.profiles),
            c.expected,
            "born {} travelling {}",
            c.birthday,
            c.travel_date
        );
    }
}

#[test]
fn shared_calendar_selectable_vectors() {
    let v = vectors().calendar_selectable;
    assert!(!v.cases.is_empty());
    for c in v.cases {
        assert_eq!(
            is_selectable_day(&v.days, &c.date),
            c.expected,
            "{}",
            c.date
        );
    }
}

#[test]
fn shared_checkout_date_vectors() {
    let v = vectors().checkout_date;
    assert!(!v.cases.is_empty());
    for c in v.cases {
        assert_eq!(
            checkout_date(&c.checkin, c.days).as_deref(),
            Some(c.expected.as_str()),
            "{} + {} days",
            c.checkin,
            c.days
        );
    }
}

//! The checkout's rules (spec 001 §2 "Checkout", §5): the configuration carried from the
//! product page to the checkout in the URL, what the travellers' names and birthdays must
//! hold before places are held, and what blocks the checkout (the configurator's blocks
//! and an empty address book: the booking goes to one of the member's saved addresses).
use serde::{Deserialize, Serialize};

use super::configuration::{booking_blocks, BookingBlock, Configuration, StayLength};
use super::date::Date;
use crate::model::travel::{
    CalendarDays, Participant, ParticipantProfile, ParticipantType, TravelProduct,
};

/// A traveller's identity at checkout, in the order of the configuration's participants.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct Traveller {
    pub first_name: String,
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub birthday: String,
}

/// Everything that blocks booking at checkout: the configurator's blocks
/// ([`booking_blocks`]), then [`BookingBlock::MissingAddress`] when the member has no
/// saved address (the booking is recorded with one of their address book's addresses).
/// The checkout page and the booking call both ask this one rule.
pub fn checkout_blocks(
    product: &TravelProduct,
    config: &Configuration,
    days: &CalendarDays,
    has_address: bool,
) -> Vec<BookingBlock> {
    let mut blocks = booking_blocks(product, config, days);
    if !has_address {
        blocks.push(BookingBlock::MissingAddress);
    }
    blocks
}

/// A field the member must correct: its name in the form and the message key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckoutProblem {
    pub field: String,
    pub key: &'static str,
}

fn problem(field: impl Into<String>, key: &'static str) -> CheckoutProblem {
    CheckoutProblem {
        field: field.into(),
        key,
    }
}

/// A traveller's name: the member name rule of the registration and profile forms.
fn is_name(s: &str) -> bool {
    crate::auth::rules::is_valid_name(s)
}

/// What is wrong with the travellers, in form order; empty when the booking can go on.
/// Each traveller needs a name and a birthday inside their type's age window on the
/// travel date (`checkin`).
pub fn checkout_problems(
    participants: &[Participant],
    travellers: &[Traveller],
    checkin: &str,
    profiles: &[ParticipantProfile],
) -> Vec<CheckoutProblem> {
    let mut out = Vec::new();
    let travel = Date::parse(checkin);
    for (i, p) in participants.iter().enumerate() {
        let t = travellers.get(i).cloned().unwrap_or_default();
        if !is_name(&t.first_name) {
            out.push(problem(
                format!("travellers.{i}.firstName"),
                "travel.checkout.invalid_name",
            ));
        }
        if !is_name(&t.last_name) {
            out.push(problem(
                format!("travellers.{i}.lastName"),
                "travel.checkout.invalid_name",
            ));
        }
        let field = format!("travellers.{i}.birthday");
        match (Date::parse(t.birthday.trim()), travel) {
            (None, _) => out.push(problem(field, "travel.checkout.missing_birthday")),
            (Some(born), Some(travel)) => {
                let age = travel.age_of(born);
                let window = profiles.iter().find(|pr| pr.kind == p.kind);
                let fits = match (age, window) {
                    (Some(age), Some(w)) => (w.min_age..=w.max_age).contains(&age),
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                if !fits {
                    out.push(problem(field, "travel.checkout.birthday_out_of_range"));
                }
            }
            (Some(_), None) => {}
        }
    }
    out
}

/// The participants once the travellers' birthdays are known: a birthday given at
/// checkout replaces the one from the configurator.
pub fn with_birthdays(participants: &[Participant], travellers: &[Traveller]) -> Vec<Participant> {
    participants
        .iter()
        .enumerate()
        .map(|(i, p)| Participant {
            kind: p.kind,
            birthday: travellers
                .get(i)
                .map(|t| t.birthday.trim().to_string())
                .filter(|b| Date::parse(b).is_some())
                .or_else(|| p.birthday.clone()),
        })
        .collect()
}

fn kind_code(kind: ParticipantType) -> char {
    match kind {
        ParticipantType::Adults => 'a',
        ParticipantType::Children => 'c',
        ParticipantType::Babies => 'b',
    }
}

/// The party as the `party` field: a letter per traveller (`a`, `c`, `b`) with the
/// birthday after it, comma-separated (`a,a,c2019-05-01`).
pub fn party_value(participants: &[Participant]) -> String {
    participants
        .iter()
        .map(|p| {
            format!(
                "{}{}",
                kind_code(p.kind),
                p.birthday.as_deref().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The configuration as the checkout URL's query (`package`, `city`, `days`, `nights`,
/// `checkin`, `party` = `a,a,c2019-05-01`, `benefits` = `3,4`); the URL starts from the
/// product path. Cheapest mode is resolved by the caller first (`city`/`days` given).
pub fn checkout_query(config: &Configuration) -> String {
    let mut parts: Vec<(&str, String)> = Vec::new();
    if let Some(p) = config.package_id {
        parts.push(("package", p.to_string()));
    }
    if let Some(c) = config.city_id {
        parts.push(("city", c.to_string()));
    }
    if let Some(s) = config.stay {
        parts.push(("days", s.days.to_string()));
        parts.push(("nights", s.nights.to_string()));
    }
    if let Some(d) = &config.checkin {
        parts.push(("checkin", d.clone()));
    }
    parts.push(("party", party_value(&config.participants)));
    if !config.benefits.is_empty() {
        let b: Vec<String> = config.benefits.iter().map(i64::to_string).collect();
        parts.push(("benefits", b.join(",")));
    }
    parts
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// Reads [`checkout_query`] back; malformed values are dropped (the checkout then says
/// what is missing). At most 20 participants and 20 benefits are read.
pub fn parse_checkout_query(get: impl Fn(&str) -> Option<String>) -> Configuration {
    let id = |k: &str| {
        get(k)
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|v| *v > 0)
    };
    let small = |k: &str| {
        get(k)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|v| *v <= 366)
    };
    let participants = get("party")
        .unwrap_or_default()
        .split(',')
        .take(20)
        .filter_map(|code| {
            let mut chars = code.trim().chars();
            let kind = match chars.next()? {
                'a' => ParticipantType::Adults,
                'c' => ParticipantType::Children,
                'b' => ParticipantType::Babies,
                _ => return None,
            };
            let rest: String = chars.collect();
            Some(Participant {
                kind,
                birthday: Date::parse(&rest).map(|d| d.to_string()),
            })
        })
        .collect();
    Configuration {
        package_id: id("package"),
        city_id: id("city"),
        stay: small("days")
            .zip(small("nights"))
            .map(|(days, nights)| StayLength { days, nights }),
        checkin: get("checkin").filter(|d| Date::parse(d).is_some()),
        benefits: get("benefits")
            .unwrap_or_default()
            .split(',')
            .take(20)
            .filter_map(|b| b.trim().parse().ok())
            .collect(),
        participants,
        cheapest: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::travel::rules::fixtures::{person, profiles};

    fn traveller(birthday: &str) -> Traveller {
        Traveller {
            first_name: "Анна".into(),
            last_name: "Ли".into(),
            birthday: birthday.into(),
        }
    }

    #[test]
    fn a_complete_party_in_its_age_windows_passes() {
        let party = [
            person(ParticipantType::Adults, None),
            person(ParticipantType::Children, Some("2019-05-01")),
        ];
        let t = [traveller("1980-01-31"), traveller("2019-05-01")];
        assert!(checkout_problems(&party, &t, "2027-03-06", &profiles()).is_empty());
    }

    #[test]
    fn names_and_birthdays_are_each_named() {
        let party = [
            person(ParticipantType::Adults, None),
            person(ParticipantType::Children, None),
        ];
        let t = [
            Traveller {
                first_name: "Jo3".into(),
                last_name: " ".into(),
                birthday: "1980-02-30".into(),
            },
            // An adult's birthday on a child: outside the children's window.
            traveller("1990-01-01"),
        ];
        let fields: Vec<(String, &str)> = checkout_problems(&party, &t, "2027-03-06", &profiles())
            .into_iter()
            .map(|p| (p.field, p.key))
            .collect();
        assert_eq!(
            fields,
            vec![
                (
                    "travellers.0.firstName".into(),
                    "travel.checkout.invalid_name"
                ),
                (
                    "travellers.0.lastName".into(),
                    "travel.checkout.invalid_name"
                ),
                (
                    "travellers.0.birthday".into(),
                    "travel.checkout.missing_birthday"
                ),
                (
                    "travellers.1.birthday".into(),
                    "travel.checkout.birthday_out_of_range"
                ),
            ]
        );
    }

    #[test]
    fn missing_travellers_count_as_blank() {
        let party = [person(ParticipantType::Adults, None)];
        let problems = checkout_problems(&party, &[], "2027-03-06", &profiles());
        assert_eq!(problems.len(), 3);
    }

    #[test]
    fn checkout_birthdays_replace_the_configurators() {
        let party = [
            person(ParticipantType::Adults, None),
            person(ParticipantType::Babies, Some("2026-01-01")),
        ];
        let t = [traveller("1980-01-31"), traveller("bad")];
        let out = with_birthdays(&party, &t);
        assert_eq!(out[0].birthday.as_deref(), Some("1980-01-31"));
        assert_eq!(out[1].birthday.as_deref(), Some("2026-01-01"));
    }

    #[test]
    fn the_checkout_query_round_trips_and_drops_junk() {
        let config = Configuration {
            package_id: Some(10),
            city_id: Some(11),
            stay: Some(StayLength { days: 8, nights: 7 }),
            checkin: Some("2027-03-06".into()),
            benefits: vec![3, 4],
            participants: vec![
                person(ParticipantType::Adults, None),
                person(ParticipantType::Children, Some("2019-05-01")),
            ],
            cheapest: false,
        };
        let q = checkout_query(&config);
        assert_eq!(
            q,
            "package=10&city=11&days=8&nights=7&checkin=2027-03-06&party=a,c2019-05-01&benefits=3,4"
        );
        let map: std::collections::HashMap<String, String> = q
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(parse_checkout_query(|k| map.get(k).cloned()), config);
        let junk = parse_checkout_query(|k| match k {
            "package" => Some("-1".into()),
            "days" => Some("99999".into()),
            "nights" => Some("7".into()),
            "checkin" => Some("2027-02-30".into()),
            "party" => Some("a,x,c1999-99-99,<script>".into()),
            _ => None,
        });
        assert_eq!(junk.package_id, None);
        assert_eq!(junk.stay, None);
        assert_eq!(junk.checkin, None);
        assert_eq!(
            junk.participants,
            vec![
                person(ParticipantType::Adults, None),
                person(ParticipantType::Children, None)
            ]
        );
    }
}

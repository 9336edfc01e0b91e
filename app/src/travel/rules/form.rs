//! The configurator as a form (spec 001 §4). The product page renders the configuration as
//! a GET form: each picker a radio group or checkbox, each traveller's birthday a date
//! field, the party's steps submit buttons, and beside them the selections the page showed
//! (`shown_*`: what the rules resolved, cheapest mode's pick included). What comes back is
//! read here: the member's changes are found by comparing the fields with what was shown,
//! and go through the same transitions as [`Configuration`]'s methods, so the rules stay
//! in one place whether a page script sends the form in place or the browser submits it.
use super::checkout::{checkout_query, parse_checkout_query};
use super::configuration::{Configuration, StayLength};
use super::date::Date;
use crate::model::travel::{ParticipantType, TravelProduct};

/// The form's field names.
pub mod field {
    pub const PACKAGE: &str = "package";
    pub const CITY: &str = "city";
    pub const DURATION: &str = "duration";
    pub const CHECKIN: &str = "checkin";
    pub const BENEFITS: &str = "benefits";
    pub const CHEAPEST: &str = "cheapest";
    pub const PARTY: &str = "party";
    /// A party step: `add-a`, `remove-c`, ... (adults, children, babies).
    pub const STEP: &str = "step";
    /// Prefix of the birthday of participant `i` (`bday0`, `bday1`, ...).
    pub const BIRTHDAY: &str = "bday";
    /// Prefix of what the page showed (`shown_package`, ...).
    pub const SHOWN: &str = "shown_";
}

/// A duration as the picker's value: `days-nights`.
pub fn duration_value(stay: StayLength) -> String {
    format!("{}-{}", stay.days, stay.nights)
}

fn parse_duration(v: &str) -> Option<StayLength> {
    let (days, nights) = v.trim().split_once('-')?;
    let (days, nights) = (days.parse::<u32>().ok()?, nights.parse::<u32>().ok()?);
    (days <= 366 && nights <= 366).then_some(StayLength { days, nights })
}

/// A party step's value: the participant type's letter after `add-` or `remove-`.
pub fn step_value(add: bool, kind: ParticipantType) -> String {
    let letter = match kind {
        ParticipantType::Adults => 'a',
        ParticipantType::Children => 'c',
        ParticipantType::Babies => 'b',
    };
    format!("{}-{letter}", if add { "add" } else { "remove" })
}

fn parse_step(v: &str) -> Option<(bool, ParticipantType)> {
    let (op, letter) = v.split_once('-')?;
    let add = match op {
        "add" => true,
        "remove" => false,
        _ => return None,
    };
    let kind = match letter {
        "a" => ParticipantType::Adults,
        "c" => ParticipantType::Children,
        "b" => ParticipantType::Babies,
        _ => return None,
    };
    Some((add, kind))
}

/// The configuration as an address query: the checkout's query and cheapest mode. The
/// page reads it back with [`configure`] as it is, without transitions (no `shown_*`).
pub fn state_query(config: &Configuration) -> String {
    let query = checkout_query(config);
    if config.cheapest {
        format!("{query}&{}=1", field::CHEAPEST)
    } else {
        query
    }
}

/// The configuration a product page shows for its query. Without a `package` field the
/// page opens as on load (`start`). With one, the fields are the state; when they also
/// carry what the page showed, each change the member made is applied as its transition:
/// a new package resets benefits and party; otherwise cheapest mode first (so a city,
/// duration or day picked along with it still ends it), then city, duration and check-in;
/// then the party step. `get` gives a field's first value, `all` every value (benefits).
/// Malformed values are dropped, as the checkout does.
pub fn configure(
    product: &TravelProduct,
    start: Configuration,
    get: impl Fn(&str) -> Option<String>,
    all: impl Fn(&str) -> Vec<String>,
) -> Configuration {
    if get(field::PACKAGE).is_none() {
        return start;
    }
    let mut config = parse_checkout_query(&get);
    if let Some(stay) = get(field::DURATION).as_deref().and_then(parse_duration) {
        config.stay = Some(stay);
    }
    config.benefits = all(field::BENEFITS)
        .iter()
        .flat_map(|v| v.split(','))
        .filter_map(|b| b.trim().parse::<i64>().ok())
        .take(20)
        .collect();
    config.benefits.dedup();
    config.cheapest = get(field::CHEAPEST).as_deref() == Some("1");
    for (i, p) in config.participants.iter_mut().enumerate() {
        if let Some(v) = get(&format!("{}{i}", field::BIRTHDAY)) {
            p.birthday = Date::parse(v.trim()).map(|d| d.to_string());
        }
    }
    let shown = |name: &str| get(&format!("{}{name}", field::SHOWN));
    if shown(field::PACKAGE).is_none() {
        return config;
    }
    let changed = |name: &str, now: Option<String>| now.is_some() && now != shown(name);
    let package_id = config.package_id.unwrap_or_default();
    if changed(field::PACKAGE, Some(package_id.to_string())) {
        // The city and stay sent are the shown package's: the change starts from it, so
        // that the new package keeps them where it offers them too.
        config.package_id = shown(field::PACKAGE).and_then(|v| v.parse().ok());
        config.cheapest = shown(field::CHEAPEST).as_deref() == Some("1");
        if !config.select_package(product, package_id) {
            config.package_id = None;
        }
    } else {
        let cheapest_now = config.cheapest;
        config.cheapest = shown(field::CHEAPEST).as_deref() == Some("1");
        if cheapest_now != config.cheapest {
            config.set_cheapest(cheapest_now);
        }
        if let Some(city) = config
            .city_id
            .filter(|c| changed(field::CITY, Some(c.to_string())))
        {
            config.select_city(city);
        }
        if let Some(stay) = config
            .stay
            .filter(|s| changed(field::DURATION, Some(duration_value(*s))))
        {
            config.select_duration(stay.days, stay.nights);
        }
        if let Some(day) = config
            .checkin
            .clone()
            .filter(|d| changed(field::CHECKIN, Some(d.clone())))
        {
            config.select_checkin(day);
        }
    }
    if let Some((add, kind)) = get(field::STEP).as_deref().and_then(parse_step) {
        if let Some(rules) = config
            .package(product)
            .map(|p| p.configurator.participants.clone())
        {
            if add {
                config.add_participant(&rules, kind);
            } else {
                config.remove_participant(&rules, kind);
            }
        }
    }
    config
}

//! Test data builders shared by the rules' tests.
use std::collections::BTreeMap;

use crate::model::travel::{
    CalendarDay, Configurator, DefaultConfiguration, DepartureCity, Duration, Package, Participant,
    ParticipantProfile, ParticipantRules, ParticipantType, PriceText, TravelPrice, TravelProduct,
};

pub fn day(price: i64, sold_out: bool) -> CalendarDay {
    CalendarDay {
        price,
        reference_price: price + 10_000,
        id: String::new(),
        vp_entity_id: 11,
        is_out_of_stock: sold_out,
        is_lowest: false,
    }
}

pub fn person(kind: ParticipantType, birthday: Option<&str>) -> Participant {
    Participant {
        kind,
        birthday: birthday.map(str::to_string),
    }
}

/// Adults 12–99, children 2–11, babies 0–1 (as in `vectors.json`).
pub fn profiles() -> Vec<ParticipantProfile> {
    [
        (ParticipantType::Adults, 12, 99),
        (ParticipantType::Children, 2, 11),
        (ParticipantType::Babies, 0, 1),
    ]
    .into_iter()
    .map(|(kind, min_age, max_age)| ParticipantProfile {
        kind,
        min_age,
        max_age,
        price_percent: None,
    })
    .collect()
}

/// A rules table from `(adults, children, allowed babies)` rows; min 1, max 9.
pub fn rules_table(rows: &[(u32, u32, &[u32])]) -> ParticipantRules {
    let mut rules: BTreeMap<u32, BTreeMap<u32, Vec<u32>>> = BTreeMap::new();
    for &(adults, children, babies) in rows {
        rules
            .entry(adults)
            .or_default()
            .insert(children, babies.to_vec());
    }
    ParticipantRules {
        min: 1,
        max: 9,
        rules,
        profiles: profiles(),
    }
}

pub fn duration(id: i64, day: u32, price: i64, sold_out: bool) -> Duration {
    Duration {
        id,
        day,
        night: day - 1,
        price,
        is_out_of_stock: sold_out,
    }
}

pub fn city(id: i64, price: i64, sold_out: bool, durations: Vec<Duration>) -> DepartureCity {
    DepartureCity {
        id,
        code: format!("C{id}"),
        value: format!("City {id}"),
        price,
        reference_price: price + 10_000,
        is_out_of_stock: sold_out,
        durations,
    }
}

pub fn package(id: i64, sold_out: bool, cities: Vec<DepartureCity>) -> Package {
    Package {
        id,
        title: format!("Package {id}"),
        configurator: Configurator {
            departure_cities: cities,
            participants: rules_table(&[(1, 0, &[0, 1]), (2, 0, &[0, 1]), (2, 1, &[0, 1])]),
            benefits: Vec::new(),
            with_benefits: false,
            with_departure_dates: false,
            with_durations: false,
            with_departure_cities: false,
            with_participants: true,
            with_cheapest_toggle: true,
        },
        is_out_of_stock: sold_out,
    }
}

pub fn product(packages: Vec<Package>) -> TravelProduct {
    TravelProduct {
        id: 7,
        campaign_id: 300,
        campaign_name: "Sun".into(),
        title: "Riad".into(),
        description: String::new(),
        bullet_points: Vec::new(),
        is_public: true,
        image: String::new(),
        destination: "Marrakech".into(),
        lat: 31.6,
        lng: -8.0,
        price: TravelPrice {
            value: 49_900,
            unit: "per person".into(),
            text: PriceText {
                prefix: "from".into(),
            },
            retail_value: 69_900,
            retail_price_notice: 52_900,
            payment_facilities: Vec::new(),
        },
        tabs: Vec::new(),
        benefit: None,
        default_configuration: DefaultConfiguration::default(),
        packages,
        with_quotation_price: false,
        favorite: false,
    }
}

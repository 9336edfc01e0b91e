//! The configurator island's props: what it needs of the product, its starting
//! configuration and calendar, as a flat list of strings ("tape").
//!
//! Why not the wire types: an island's props are JSON that the browser deserializes with
//! serde, and the derived `Deserialize` of the whole `TravelProduct` (title, description,
//! tabs, price texts, coordinates, ... none of which the configurator uses) and of the
//! nested package types was the largest part of the configurator's WASM. A list of
//! strings costs serde nothing new (`Vec<String>` is decoded elsewhere already) and the
//! hand decoder below is a few hundred bytes. The calendar travels as its JSON text, as
//! the REST call returns it: the island parses both with the same function and hands the
//! text to the calendar widget without serializing it again.
//!
//! Layout: numbers in decimal, flags `1`/`0`, an absent value as an empty string (no field
//! here is ever an empty string when present), lists as their length then their items.
use std::collections::BTreeMap;

use crate::model::travel::{
    Benefit, Configurator, DefaultConfiguration, DepartureCity, Duration, Package, Participant,
    ParticipantProfile, ParticipantRules, ParticipantType, PriceText, TravelPrice, TravelProduct,
};
use crate::travel::rules::{Configuration, StayLength};

/// What the configurator starts with: the product (only the fields the rules read), the
/// configuration and the calendar's JSON.
pub struct ConfiguratorStart {
    pub product: TravelProduct,
    pub config: Configuration,
    pub days_json: String,
}

fn kind_code(kind: ParticipantType) -> &'static str {
    match kind {
        ParticipantType::Adults => "0",
        ParticipantType::Children => "1",
        ParticipantType::Babies => "2",
    }
}

#[derive(Default)]
struct Writer(Vec<String>);

impl Writer {
    fn num(&mut self, n: impl ToString) {
        self.0.push(n.to_string());
    }
    fn text(&mut self, s: &str) {
        self.0.push(s.to_string());
    }
    fn flag(&mut self, b: bool) {
        self.text(if b { "1" } else { "0" });
    }
    fn opt_num(&mut self, n: Option<i64>) {
        self.0.push(n.map(|n| n.to_string()).unwrap_or_default());
    }
    fn opt_text(&mut self, s: Option<&str>) {
        self.text(s.unwrap_or(""));
    }
}

/// The server side: the tape of a product, its starting configuration and calendar JSON.
pub fn encode(product: &TravelProduct, config: &Configuration, days_json: &str) -> Vec<String> {
    let mut w = Writer::default();
    w.flag(product.with_quotation_price);
    w.num(product.price.value);
    w.num(product.packages.len());
    for p in &product.packages {
        w.num(p.id);
        w.text(&p.title);
        w.flag(p.is_out_of_stock);
        let c = &p.configurator;
        for f in [
            c.with_benefits,
            c.with_departure_dates,
            c.with_durations,
            c.with_departure_cities,
            c.with_participants,
            c.with_cheapest_toggle,
        ] {
            w.flag(f);
        }
        w.num(c.departure_cities.len());
        for city in &c.departure_cities {
            w.num(city.id);
            w.text(&city.code);
            w.text(&city.value);
            w.num(city.price);
            w.num(city.reference_price);
            w.flag(city.is_out_of_stock);
            w.num(city.durations.len());
            for d in &city.durations {
                w.num(d.id);
                w.num(d.day);
                w.num(d.night);
                w.num(d.price);
                w.flag(d.is_out_of_stock);
            }
        }
        let r = &c.participants;
        w.num(r.min);
        w.num(r.max);
        w.num(r.rules.len());
        for (adults, children) in &r.rules {
            w.num(*adults);
            w.num(children.len());
            for (n, babies) in children {
                w.num(*n);
                w.num(babies.len());
                for b in babies {
                    w.num(*b);
                }
            }
        }
        w.num(r.profiles.len());
        for pr in &r.profiles {
            w.text(kind_code(pr.kind));
            w.num(pr.min_age);
            w.num(pr.max_age);
        }
        w.num(c.benefits.len());
        for b in &c.benefits {
            w.num(b.id);
            w.text(&b.label);
            w.num(b.price);
            w.num(b.min);
        }
    }
    w.opt_num(config.package_id);
    w.opt_num(config.city_id);
    w.opt_num(config.stay.map(|s| i64::from(s.days)));
    w.opt_num(config.stay.map(|s| i64::from(s.nights)));
    w.opt_text(config.checkin.as_deref());
    w.num(config.benefits.len());
    for b in &config.benefits {
        w.num(*b);
    }
    w.num(config.participants.len());
    for p in &config.participants {
        w.text(kind_code(p.kind));
        w.opt_text(p.birthday.as_deref());
    }
    w.flag(config.cheapest);
    w.text(days_json);
    w.0
}

struct Reader<'a>(std::slice::Iter<'a, String>);

impl Reader<'_> {
    fn text(&mut self) -> String {
        self.0.next().cloned().unwrap_or_default()
    }
    fn opt_text(&mut self) -> Option<String> {
        Some(self.text()).filter(|s| !s.is_empty())
    }
    fn opt_int(&mut self) -> Option<i64> {
        self.0.next().and_then(|s| s.parse().ok())
    }
    fn int(&mut self) -> i64 {
        self.opt_int().unwrap_or_default()
    }
    fn small(&mut self) -> u32 {
        self.int() as u32
    }
    fn flag(&mut self) -> bool {
        self.0.next().is_some_and(|s| s == "1")
    }
    fn kind(&mut self) -> ParticipantType {
        match self.int() {
            1 => ParticipantType::Children,
            2 => ParticipantType::Babies,
            _ => ParticipantType::Adults,
        }
    }
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> T) -> Vec<T> {
        (0..self.int()).map(|_| item(self)).collect()
    }
}

fn read_package(r: &mut Reader) -> Package {
    let id = r.int();
    let title = r.text();
    let is_out_of_stock = r.flag();
    let flags = [r.flag(), r.flag(), r.flag(), r.flag(), r.flag(), r.flag()];
    let departure_cities = r.list(|r| DepartureCity {
        id: r.int(),
        code: r.text(),
        value: r.text(),
        price: r.int(),
        reference_price: r.int(),
        is_out_of_stock: r.flag(),
        durations: r.list(|r| Duration {
            id: r.int(),
            day: r.small(),
            night: r.small(),
            price: r.int(),
            is_out_of_stock: r.flag(),
        }),
    });
    let min = r.small();
    let max = r.small();
    // Inserted one by one: collecting into a map would bring a sort into the WASM.
    let mut rules = BTreeMap::new();
    for _ in 0..r.int() {
        let adults = r.small();
        let mut children = BTreeMap::new();
        for _ in 0..r.int() {
            let n = r.small();
            children.insert(n, r.list(Reader::small));
        }
        rules.insert(adults, children);
    }
    let profiles = r.list(|r| ParticipantProfile {
        kind: r.kind(),
        min_age: r.small(),
        max_age: r.small(),
    });
    let benefits = r.list(|r| Benefit {
        id: r.int(),
        label: r.text(),
        price: r.int(),
        min: r.small(),
    });
    Package {
        id,
        title,
        is_out_of_stock,
        configurator: Configurator {
            departure_cities,
            participants: ParticipantRules {
                min,
                max,
                rules,
                profiles,
            },
            benefits,
            with_benefits: flags[0],
            with_departure_dates: flags[1],
            with_durations: flags[2],
            with_departure_cities: flags[3],
            with_participants: flags[4],
            with_cheapest_toggle: flags[5],
        },
    }
}

/// The browser side: [`encode`] read back. The product's other fields are empty.
pub fn decode(tape: &[String]) -> ConfiguratorStart {
    let r = &mut Reader(tape.iter());
    let with_quotation_price = r.flag();
    let value = r.int();
    let packages = r.list(read_package);
    let package_id = r.opt_int();
    let city_id = r.opt_int();
    let days = r.opt_int();
    let nights = r.opt_int();
    let stay = days.zip(nights).map(|(d, n)| StayLength {
        days: d as u32,
        nights: n as u32,
    });
    let config = Configuration {
        package_id,
        city_id,
        stay,
        checkin: r.opt_text(),
        benefits: r.list(Reader::int),
        participants: r.list(|r| Participant {
            kind: r.kind(),
            birthday: r.opt_text(),
        }),
        cheapest: r.flag(),
    };
    let days_json = r.text();
    let product = TravelProduct {
        id: 0,
        campaign_id: 0,
        campaign_name: String::new(),
        title: String::new(),
        description: String::new(),
        bullet_points: Vec::new(),
        is_public: true,
        image: String::new(),
        destination: String::new(),
        lat: 0.0,
        lng: 0.0,
        price: TravelPrice {
            value,
            unit: String::new(),
            text: PriceText {
                prefix: String::new(),
            },
            retail_value: 0,
            retail_price_notice: 0,
            payment_facilities: Vec::new(),
        },
        tabs: Vec::new(),
        benefit: None,
        default_configuration: DefaultConfiguration::default(),
        packages,
        with_quotation_price,
        favorite: false,
    };
    ConfiguratorStart {
        product,
        config,
        days_json,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(id: i64, sold_out: bool) -> Package {
        let mut rules = BTreeMap::new();
        rules.insert(1, BTreeMap::from([(0, vec![0, 1])]));
        rules.insert(2, BTreeMap::from([(0, vec![0, 1, 2]), (1, vec![])]));
        Package {
            id,
            title: format!("Package \"{id}\" — été"),
            configurator: Configurator {
                departure_cities: vec![
                    DepartureCity {
                        id: 10 + id,
                        code: "ORY".into(),
                        value: "Paris, Orly".into(),
                        price: 49_900,
                        reference_price: 59_900,
                        is_out_of_stock: false,
                        durations: vec![
                            Duration {
                                id: 100,
                                day: 8,
                                night: 7,
                                price: 49_900,
                                is_out_of_stock: false,
                            },
                            Duration {
                                id: 101,
                                day: 15,
                                night: 14,
                                price: 89_900,
                                is_out_of_stock: true,
                            },
                        ],
                    },
                    DepartureCity {
                        id: 20 + id,
                        code: "LYS".into(),
                        value: "Lyon".into(),
                        price: 0,
                        reference_price: 0,
                        is_out_of_stock: true,
                        durations: Vec::new(),
                    },
                ],
                participants: ParticipantRules {
                    min: 1,
                    max: 9,
                    rules,
                    profiles: vec![
                        ParticipantProfile {
                            kind: ParticipantType::Adults,
                            min_age: 12,
                            max_age: 120,
                        },
                        ParticipantProfile {
                            kind: ParticipantType::Babies,
                            min_age: 0,
                            max_age: 1,
                        },
                    ],
                },
                benefits: vec![Benefit {
                    id: 5,
                    label: "Transfer, 2 ways".into(),
                    price: 2_500,
                    min: 1,
                }],
                with_benefits: true,
                with_departure_dates: true,
                with_durations: false,
                with_departure_cities: true,
                with_participants: true,
                with_cheapest_toggle: false,
            },
            is_out_of_stock: sold_out,
        }
    }

    fn product() -> TravelProduct {
        let mut p = decode(&encode(
            &decode(&[]).product,
            &Configuration::default(),
            "{}",
        ))
        .product;
        p.with_quotation_price = true;
        p.price.value = 45_000;
        p.packages = vec![package(1, false), package(2, true)];
        p
    }

    #[test]
    fn the_configurator_start_round_trips_through_the_tape() {
        let product = product();
        let configs = [
            Configuration::default(),
            Configuration {
                package_id: Some(1),
                city_id: Some(11),
                stay: Some(StayLength { days: 8, nights: 7 }),
                checkin: Some("2027-03-06".into()),
                benefits: vec![5, 7],
                participants: vec![
                    Participant {
                        kind: ParticipantType::Adults,
                        birthday: None,
                    },
                    Participant {
                        kind: ParticipantType::Children,
                        birthday: Some("2020-01-31".into()),
                    },
                    Participant {
                        kind: ParticipantType::Babies,
                        birthday: None,
                    },
                ],
                cheapest: true,
            },
        ];
        let days = r#"{"2027-03-06":{"price":49900,"referencePrice":59900,"id":"100-20270306","vpEntityId":100,"isOutOfStock":false,"isLowest":true}}"#;
        for config in configs {
            let tape = encode(&product, &config, days);
            let start = decode(&tape);
            assert_eq!(start.product, product);
            assert_eq!(start.config, config);
            assert_eq!(start.days_json, days);
        }
    }

    #[test]
    fn only_what_the_configurator_reads_is_kept() {
        let mut full = product();
        full.id = 7;
        full.title = "Riad".into();
        full.description = "<p>long</p>".into();
        full.lat = 31.6;
        let start = decode(&encode(&full, &Configuration::default(), "{}"));
        assert_eq!(start.product.packages, full.packages);
        assert_eq!(start.product.price.value, 45_000);
        assert!(start.product.with_quotation_price);
        assert_eq!(start.product.title, "");
        assert_eq!(start.product.description, "");
        assert_eq!(start.product.lat, 0.0);
    }
}

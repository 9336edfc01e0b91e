//! Travel offers: per site the destinations (countries, regions, cities), the site's
//! geography the feed names trips' destinations in; per travel product its trip as the
//! feed carries it (destination, board, party rules, texts), one or two packages leaving
//! from one to three cities with two or three durations, extras, and a year of seasons
//! (departures on set weekdays, priced by season, with places); and some departures
//! already sold out.
//! Draws come from a generator of each product's own, so the shopping catalog's draws do
//! not depend on how many travel rows there are.
use std::collections::HashMap;

use sqlx::{Any, Transaction};

use app::text::fold::fold;
use app::travel::rules::Date;

use crate::backoffice::feed::{
    FeedBenefit, FeedCity, FeedDuration, FeedPackage, FeedSeason, FeedStart, FeedTab, FeedTrip,
};

use super::catalog::{amount, demo_ref};
use super::travel_words::{lang_index, travel_words, DESTINATIONS};
use super::words::Words;
use super::{insert, t, Rng, Rows, V};

/// The travel rows of every site besides the trips: destinations (inserted before the
/// feed is imported) and sold-out departures (after).
#[derive(Default)]
pub(super) struct Travel {
    destinations: Rows,
    departures: Rows,
}

/// The id of a site's city destination `i` (regions and countries follow in their ranges).
fn city_destination(site_index: usize, i: usize) -> i64 {
    (site_index as i64 + 1) * 100 + i as i64
}

/// Which destination a travel product goes to.
pub(super) fn destination_of(site_index: usize, sale: i64, k: i64) -> usize {
    ((sale * 5 + k * 7 + site_index as i64) % DESTINATIONS.len() as i64) as usize
}

/// The city name of destination `i` in `lang`.
pub(super) fn city_name(lang: &str, i: usize) -> &'static str {
    DESTINATIONS[i].city[lang_index(lang)]
}

/// The kind of stay of product `k` in `lang` ("Club", "Resort & Spa", ...).
pub(super) fn stay_name(lang: &str, k: i64) -> &'static str {
    travel_words(lang).stays[(k % 4) as usize]
}

type PartyRules = std::collections::BTreeMap<String, std::collections::BTreeMap<String, Vec<i64>>>;

const BOARDS: [&str; 4] = ["all_inclusive", "half_board", "breakfast", "room_only"];
const ACCOMMODATION: [&str; 4] = ["hotel", "club", "residence", "hotel"];
const TRIP_TYPES: [&str; 3] = ["stay", "tour", "weekend"];
const THEMATICS: [&str; 4] = ["beach", "spa", "family", "culture"];

impl Travel {
    /// The destinations of a site: cities with their region and country as parents.
    pub(super) fn site(&mut self, site_index: usize, site_id: i64, lang: &str) {
        let l = lang_index(lang);
        let base = (site_index as i64 + 1) * 100;
        let mut countries: HashMap<&str, i64> = HashMap::new();
        for (i, d) in DESTINATIONS.iter().enumerate() {
            let country = *countries.entry(d.country[l]).or_insert_with(|| {
                let id = base + 40 + i as i64;
                self.destinations.push(vec![
                    V::I(id),
                    V::I(site_id),
                    t("country"),
                    t(d.country[l]),
                    t(fold(d.country[l])),
                    V::NullI,
                ]);
                id
            });
            let region = base + 20 + i as i64;
            self.destinations.push(vec![
                V::I(region),
                V::I(site_id),
                t("region"),
                t(d.region[l]),
                t(fold(d.region[l])),
                V::I(country),
            ]);
            self.destinations.push(vec![
                V::I(city_destination(site_index, i)),
                V::I(site_id),
                t("city"),
                t(d.city[l]),
                t(fold(d.city[l])),
                V::I(region),
            ]);
        }
    }

    /// The trip of travel product `pid` (the `k`-th of its sale, priced `price` per
    /// person), as the feed carries it; the departures already sold out are kept aside
    /// (members' bookings, not the catalogue).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn product(
        &mut self,
        w: &Words,
        lang: &str,
        dest: usize,
        pid: i64,
        k: i64,
        price: i64,
        retail: i64,
        now: i64,
    ) -> FeedTrip {
        let mut rng = Rng(0x7EA7_E100 ^ (pid as u64).wrapping_mul(0x9E37_79B9));
        let tw = travel_words(lang);
        let d = &DESTINATIONS[dest];
        let lat = ((d.lat + (rng.below(200) as f64 - 100.0) / 1000.0) * 1e6) as i64;
        let lng = ((d.lng + (rng.below(200) as f64 - 100.0) / 1000.0) * 1e6) as i64;
        // Couples-only offers (exactly two travellers) besides the family ones.
        let couples = k % 6 == 5;
        let (min, max, rules) = if couples {
            (2, 2, None)
        } else {
            (1, 6, Some(family_rules()))
        };
        let single_package = k % 3 == 0;
        let single_city = k % 4 == 1;
        let first_package = pid * 10;
        let mut trip = FeedTrip {
            destination: city_name(lang, dest).into(),
            latitude: format!("{:.6}", lat as f64 / 1e6),
            longitude: format!("{:.6}", lng as f64 / 1e6),
            trip_type: TRIP_TYPES[(k % 3) as usize].into(),
            board: BOARDS[rng.below(4) as usize].into(),
            accommodation: ACCOMMODATION[(k % 4) as usize].into(),
            rating: 3 + rng.below(3),
            transport: (if k % 5 == 4 { "none" } else { "flight" }).into(),
            themes: vec![
                THEMATICS[(k % 4) as usize].into(),
                THEMATICS[((k + 1) % 4) as usize].into(),
            ],
            payment_facilities: if k % 2 == 0 {
                vec!["3x".into(), "4x".into()]
            } else {
                vec!["3x".into()]
            },
            renowned_brand: k % 3 == 2,
            perk: (k % 3 != 1).then(|| tw.perks[(k % 3) as usize].into()),
            // The third perk is "children up to 11 -50 %": the price says so too.
            child_price_percent: (k % 3 == 2).then_some(50),
            highlights: tw.bullets.iter().map(|b| b.to_string()).collect(),
            tabs: tw
                .tabs
                .iter()
                .map(|(title, content)| FeedTab {
                    title: (*title).into(),
                    content: (*content).into(),
                })
                .collect(),
            lowest_price_30_days: Some(amount(price - price / 20 / 100 * 100)),
            party_min: min,
            party_max: max,
            party_rules: rules,
            // A start on every other offer: the second package (if any), the first city
            // and the long stay.
            start: (k % 2 == 0).then(|| FeedStart {
                package: demo_ref(first_package + i64::from(!single_package)),
                city: w.cities[0].0.into(),
                days: 8,
                nights: 7,
            }),
            packages: Vec::new(),
            // The demo's cities are in the site's destinations already.
            region: None,
            country: None,
        };
        let today = Date::from_unix(now);
        let packages = if single_package { 1 } else { 2 };
        for p in 0..packages {
            let pkg = first_package + p;
            // Extras on every other offer.
            let benefits = if k % 2 == 0 {
                (tw.benefits.iter().enumerate())
                    .map(|(b, label)| FeedBenefit {
                        reference: demo_ref(pkg * 10 + b as i64),
                        label: (*label).into(),
                        price: amount(if b == 0 { 2_500 } else { 3_900 }),
                        min_count: 0,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let mut package = FeedPackage {
                reference: demo_ref(pkg),
                title: w.packages[p as usize].into(),
                benefits,
                cheapest_toggle: !single_city,
                cities: Vec::new(),
            };
            let cities = if single_city { 1 } else { w.cities.len() };
            for (c, (code, city)) in w.cities.iter().take(cities).enumerate() {
                let city_id = pkg * 10 + c as i64;
                let stays: &[(i64, i64)] = if k % 5 == 2 {
                    &[(4, 3), (8, 7), (11, 10)]
                } else {
                    &[(4, 3), (8, 7)]
                };
                let mut feed_city = FeedCity {
                    reference: demo_ref(city_id),
                    code: (*code).into(),
                    name: (*city).into(),
                    ..FeedCity::default()
                };
                let mut durations = Vec::new();
                for (n, (days, nights)) in stays.iter().enumerate() {
                    let id = city_id * 10 + n as i64;
                    // Longer stays cost more; nothing is added for the shortest one.
                    let supplement = (price * (days - 4) / 4) / 100 * 100;
                    feed_city.durations.push(FeedDuration {
                        reference: demo_ref(id),
                        days: *days,
                        nights: *nights,
                        supplement: amount(supplement),
                    });
                    durations.push(id);
                }
                // A year in four seasons; the second city flies out on Wednesdays too.
                let weekdays: &[&str] = if c == 1 { &["wed", "sat"] } else { &["sat"] };
                let city_extra = c as i64 * 3_000 + p * 15_000;
                for (s, (from, to, factor)) in [
                    (3, 60, 100),
                    (61, 150, 130),
                    (151, 240, 95),
                    (241, 400, 110),
                ]
                .iter()
                .enumerate()
                {
                    let season_price = (price * factor / 100 + city_extra) / 100 * 100 + 9 * 100;
                    feed_city.seasons.push(FeedSeason {
                        reference: demo_ref(city_id * 10 + s as i64),
                        first_day: today.add_days(*from).to_string(),
                        last_day: today.add_days(*to).to_string(),
                        weekdays: weekdays.iter().map(|d| d.to_string()).collect(),
                        price: amount(season_price),
                        reference_price: amount((retail * factor / 100 + city_extra) / 100 * 100),
                        places: 4 + rng.below(12),
                    });
                }
                // A few departures already sold out, on every duration of the city.
                for week in [2, 5, 9, 14, 20] {
                    let mut day = today.add_days(week * 7);
                    while day.weekday() != 5 {
                        day = day.add_days(1);
                    }
                    if rng.below(3) == 0 {
                        continue;
                    }
                    for id in &durations {
                        self.departures.push(vec![
                            V::I(*id),
                            t(day.to_string()),
                            V::I(6),
                            V::I(0),
                            V::I(6),
                        ]);
                    }
                }
                package.cities.push(feed_city);
            }
            trip.packages.push(package);
        }
        trip
    }

    /// Inserts the destinations, which the feed's trips name.
    pub(super) async fn insert_destinations(
        &mut self,
        tx: &mut Transaction<'_, Any>,
    ) -> Result<(), sqlx::Error> {
        let cols = ["id", "site_id", "kind", "name", "folded", "parent_id"];
        let rows = std::mem::take(&mut self.destinations);
        insert(tx, "travel_destinations", &cols, rows).await
    }

    /// Inserts the departures already sold out, once the trips are in.
    pub(super) async fn insert_departures(
        self,
        tx: &mut Transaction<'_, Any>,
    ) -> Result<(), sqlx::Error> {
        let cols = ["duration_id", "day", "places", "held", "sold"];
        insert(tx, "travel_departures", &cols, self.departures).await
    }
}

/// The family rules table: 1 to 4 adults, up to 3 children and 2 babies, 6 people at most.
fn family_rules() -> PartyRules {
    (1..=4i64)
        .map(|a| {
            let children = (0..=3i64.min(6 - a))
                .map(|c| (c.to_string(), (0..=2i64.min(6 - a - c)).collect()))
                .collect();
            (a.to_string(), children)
        })
        .collect()
}

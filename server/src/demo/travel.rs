//! Travel offers: per site the destinations (countries, regions, cities); per travel product
//! its offer (destination, board, party rules, texts), one or two packages leaving from one
//! to three cities with two or three durations, benefits, and a year of seasons (departures
//! on set weekdays, priced by season, with places), some departures already sold out.
//! Draws come from a generator of each product's own, so the shopping catalog's draws do
//! not depend on how many travel rows there are.
use std::collections::HashMap;

use sqlx::{Any, Transaction};

use app::text::fold::fold;
use app::travel::rules::Date;

use super::travel_words::{lang_index, travel_words, DESTINATIONS};
use super::words::Words;
use super::{insert, t, Rng, Rows, V};

/// The travel rows of every site, in the order they are inserted.
#[derive(Default)]
pub(super) struct Travel {
    destinations: Rows,
    offers: Rows,
    packages: Rows,
    benefits: Rows,
    cities: Rows,
    durations: Rows,
    seasons: Rows,
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

    /// The offer, packages, cities, durations, benefits and seasons of travel product
    /// `pid` (the `k`-th of its sale, priced `price` per person).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn product(
        &mut self,
        w: &Words,
        lang: &str,
        site_index: usize,
        dest: usize,
        pid: i64,
        k: i64,
        price: i64,
        retail: i64,
        now: i64,
    ) {
        let mut rng = Rng(0x7EA7_E100 ^ (pid as u64).wrapping_mul(0x9E37_79B9));
        let tw = travel_words(lang);
        let d = &DESTINATIONS[dest];
        let lat = ((d.lat + (rng.below(200) as f64 - 100.0) / 1000.0) * 1e6) as i64;
        let lng = ((d.lng + (rng.below(200) as f64 - 100.0) / 1000.0) * 1e6) as i64;
        // Couples-only offers (exactly two travellers) besides the family ones.
        let couples = k % 6 == 5;
        let (min, max, rules) = if couples {
            (2, 2, "{}".to_string())
        } else {
            (1, 6, family_rules())
        };
        let profiles = app::travel::rules::offer::DEFAULT_PROFILES;
        let tabs = serde_json::to_string(
            &tw.tabs
                .iter()
                .map(|(title, content)| serde_json::json!({ "title": title, "content": content }))
                .collect::<Vec<_>>(),
        )
        .unwrap_or_else(|_| "[]".into());
        let single_package = k % 3 == 0;
        let single_city = k % 4 == 1;
        let first_package = pid * 10;
        self.offers.push(vec![
            V::I(pid),
            V::I(city_destination(site_index, dest)),
            V::I(lat),
            V::I(lng),
            t(TRIP_TYPES[(k % 3) as usize]),
            t(BOARDS[rng.below(4) as usize]),
            t(ACCOMMODATION[(k % 4) as usize]),
            V::I(3 + rng.below(3)),
            t(if k % 5 == 4 { "none" } else { "flight" }),
            t(format!(
                "{},{}",
                THEMATICS[(k % 4) as usize],
                THEMATICS[((k + 1) % 4) as usize]
            )),
            t(if k % 2 == 0 { "3x,4x" } else { "3x" }),
            V::I(i64::from(k % 3 == 2)),
            if k % 3 == 1 {
                V::NullT
            } else {
                t(tw.perks[(k % 3) as usize])
            },
            t(tw.bullets.join("\n")),
            t(tabs),
            t(tw.unit),
            t(tw.prefix),
            V::I(price - price / 20 / 100 * 100),
            V::I(min),
            V::I(max),
            t(rules),
            t(profiles),
            // A default configuration on every other offer: the second package, the
            // first city and the long stay.
            if k % 2 == 0 && !single_package {
                V::I(first_package + 1)
            } else {
                V::NullI
            },
            if k % 2 == 0 {
                t(w.cities[0].0)
            } else {
                V::NullT
            },
            if k % 2 == 0 { V::I(8) } else { V::NullI },
            if k % 2 == 0 { V::I(7) } else { V::NullI },
        ]);
        let today = Date::from_unix(now);
        let packages = if single_package { 1 } else { 2 };
        for p in 0..packages {
            let pkg = first_package + p;
            self.packages.push(vec![
                V::I(pkg),
                V::I(pid),
                t(w.packages[p as usize]),
                V::I(p),
                V::I(i64::from(k % 2 == 0)),
                V::I(1),
                V::I(1),
                V::I(1),
                V::I(1),
                V::I(i64::from(!single_city)),
            ]);
            for (b, label) in tw.benefits.iter().enumerate() {
                self.benefits.push(vec![
                    V::I(pkg * 10 + b as i64),
                    V::I(pkg),
                    t(*label),
                    V::I(if b == 0 { 2_500 } else { 3_900 }),
                    V::I(0),
                ]);
            }
            let cities = if single_city { 1 } else { w.cities.len() };
            for (c, (code, city)) in w.cities.iter().take(cities).enumerate() {
                let city_id = pkg * 10 + c as i64;
                self.cities.push(vec![
                    V::I(city_id),
                    V::I(pkg),
                    t(*code),
                    t(*city),
                    V::I(c as i64),
                ]);
                let stays: &[(i64, i64)] = if k % 5 == 2 {
                    &[(4, 3), (8, 7), (11, 10)]
                } else {
                    &[(4, 3), (8, 7)]
                };
                let mut durations = Vec::new();
                for (n, (days, nights)) in stays.iter().enumerate() {
                    let id = city_id * 10 + n as i64;
                    // Longer stays cost more; nothing is added for the shortest one.
                    let supplement = (price * (days - 4) / 4) / 100 * 100;
                    self.durations.push(vec![
                        V::I(id),
                        V::I(city_id),
                        V::I(*days),
                        V::I(*nights),
                        V::I(supplement),
                    ]);
                    durations.push(id);
                }
                // A year in four seasons; the second city flies out on Wednesdays too.
                let weekdays: i64 = if c == 1 { 0b010_0100 } else { 0b010_0000 };
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
                    self.seasons.push(vec![
                        V::I(city_id * 10 + s as i64),
                        V::I(city_id),
                        t(today.add_days(*from).to_string()),
                        t(today.add_days(*to).to_string()),
                        V::I(weekdays),
                        V::I(season_price),
                        V::I((retail * factor / 100 + city_extra) / 100 * 100),
                        V::I(4 + rng.below(12)),
                    ]);
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
            }
        }
    }

    /// Inserts every travel row.
    pub(super) async fn insert(self, tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
        let tables: [(&str, &[&str], Rows); 8] = [
            (
                "travel_destinations",
                &["id", "site_id", "kind", "name", "folded", "parent_id"],
                self.destinations,
            ),
            (
                "travel_offers",
                &[
                    "product_id",
                    "destination_id",
                    "lat_e6",
                    "lng_e6",
                    "trip_type",
                    "board",
                    "accommodation_type",
                    "rating",
                    "transport",
                    "thematics",
                    "payment_facilities",
                    "notorious_brand",
                    "benefit",
                    "bullet_points",
                    "tabs_json",
                    "price_unit",
                    "price_prefix",
                    "lowest_30d_cents",
                    "party_min",
                    "party_max",
                    "party_rules_json",
                    "profiles_json",
                    "default_package_id",
                    "default_city_code",
                    "default_days",
                    "default_nights",
                ],
                self.offers,
            ),
            (
                "travel_packages",
                &[
                    "id",
                    "product_id",
                    "title",
                    "position",
                    "with_benefits",
                    "with_departure_dates",
                    "with_durations",
                    "with_departure_cities",
                    "with_participants",
                    "with_cheapest_toggle",
                ],
                self.packages,
            ),
            (
                "travel_benefits",
                &["id", "package_id", "label", "price_cents", "min_count"],
                self.benefits,
            ),
            (
                "travel_departure_cities",
                &["id", "package_id", "code", "name", "position"],
                self.cities,
            ),
            (
                "travel_durations",
                &["id", "city_id", "days", "nights", "supplement_cents"],
                self.durations,
            ),
            (
                "travel_seasons",
                &[
                    "id",
                    "city_id",
                    "first_day",
                    "last_day",
                    "weekdays",
                    "price_cents",
                    "reference_price_cents",
                    "places",
                ],
                self.seasons,
            ),
            (
                "travel_departures",
                &["duration_id", "day", "places", "held", "sold"],
                self.departures,
            ),
        ];
        for (table, cols, rows) in tables {
            insert(tx, table, cols, rows).await?;
        }
        Ok(())
    }
}

/// The family rules table: 1 to 4 adults, up to 3 children and 2 babies, 6 people at most.
fn family_rules() -> String {
    let mut adults = serde_json::Map::new();
    for a in 1..=4u32 {
        let mut children = serde_json::Map::new();
        for c in 0..=3u32.min(6 - a) {
            let babies: Vec<u32> = (0..=2u32.min(6 - a - c)).collect();
            children.insert(c.to_string(), serde_json::json!(babies));
        }
        adults.insert(a.to_string(), serde_json::Value::Object(children));
    }
    serde_json::Value::Object(adults).to_string()
}

//! Which offers a query selects, and the facets of a selection: the search part
//! (destination, departure city, trip type, departure days within the bookable window)
//! and the filters (values of one filter are alternatives; filters add up).
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::model::travel::TravelOffer;
use crate::model::travel_catalog::{Facet, FacetValue, OfferQuery};
use crate::text::fold::fold;
use crate::travel::rules::{known_filters, month_bounds, Date, DATES_FACET, FILTER_NAMES};

use super::super::product::window;

/// A season of a departure city: departures on its weekdays between its days, except the
/// days on which every duration is sold out.
pub(super) struct Departures {
    pub(super) first: Date,
    pub(super) last: Date,
    pub(super) weekdays: u8,
    pub(super) sold_out: BTreeSet<Date>,
    /// The lengths of stay (days) the city offers.
    pub(super) stays: Vec<u32>,
}

impl Departures {
    /// Whether a departure with places left falls within `from..=to`.
    pub(super) fn any_within(&self, from: Date, to: Date) -> bool {
        let (from, to) = (from.max(self.first), to.min(self.last));
        if from > to || self.weekdays & 0x7f == 0 {
            return false;
        }
        // At most the bookable window (a year) when no dates are asked: ended at the first hit.
        (0..=from.days_until(to))
            .map(|n| from.add_days(n))
            .any(|day| self.weekdays & (1 << day.weekday()) != 0 && !self.sold_out.contains(&day))
    }
}

/// An offer with what the filters look at.
pub(super) struct Candidate {
    pub(super) offer: TravelOffer,
    pub(super) with_map: bool,
    pub(super) destination_id: i64,
    pub(super) trip_type: String,
    /// Per filter name, the offer's values.
    pub(super) values: BTreeMap<&'static str, Vec<String>>,
    /// Departure cities: code and seasons.
    pub(super) cities: Vec<(String, Vec<Departures>)>,
}

/// A destination and the ones above it (bounded: the tree is three levels deep).
fn lineage(destinations: &HashMap<i64, (Option<i64>, String)>, id: i64) -> Vec<i64> {
    let mut out = vec![id];
    let mut current = id;
    while let Some((Some(parent), _)) = destinations.get(&current) {
        if out.contains(parent) || out.len() > 8 {
            break;
        }
        out.push(*parent);
        current = *parent;
    }
    out
}

/// The filters that do not make facets: destination, departure city, trip type, dates.
pub(super) struct Search {
    pub(super) destination: Option<Destination>,
    pub(super) text: Option<String>,
    pub(super) city_code: Option<String>,
    pub(super) trip_type: Option<String>,
    /// Departure days wanted, already inside the bookable window; `None`: any.
    pub(super) days: Option<(Date, Date)>,
    /// The length of stay wanted (days, from exact check-in and checkout dates).
    pub(super) stay: Option<u32>,
    pub(super) bookable: (Date, Date),
}

pub(super) enum Destination {
    Place(i64),
    Sale(i64),
    /// Not an id the autocomplete gives: matches nothing.
    Unknown,
}

impl Search {
    pub(super) fn of(query: &OfferQuery, now: i64) -> Search {
        let bookable = window(now);
        let days = if let Some(checkin) = query.checkin.as_deref().and_then(Date::parse) {
            let spread = i64::from(query.flex);
            Some((checkin.add_days(-spread), checkin.add_days(spread)))
        } else {
            query.dates.as_deref().and_then(month_bounds)
        };
        // Checkout = check-in + days - 1 (spec 001 §4); with flexible dates any length goes.
        let stay = match (
            query.checkin.as_deref().and_then(Date::parse),
            query.checkout.as_deref().and_then(Date::parse),
        ) {
            (Some(checkin), Some(checkout)) if query.flex == 0 && checkout > checkin => {
                u32::try_from(checkin.days_until(checkout) + 1).ok()
            }
            _ => None,
        };
        Search {
            stay,
            destination: query.destination_id.as_deref().map(|d| {
                let (sale, digits) = match d.strip_prefix("sale-") {
                    Some(rest) => (true, rest),
                    None => (false, d),
                };
                match (sale, digits.parse::<i64>()) {
                    (true, Ok(id)) => Destination::Sale(id),
                    (false, Ok(id)) => Destination::Place(id),
                    _ => Destination::Unknown,
                }
            }),
            text: query
                .destination_text
                .as_deref()
                .map(fold)
                .filter(|t| !t.trim().is_empty()),
            city_code: query.departure_city_code.clone(),
            trip_type: query.trip_type_id.clone(),
            days: days.map(|(a, b)| (a.max(bookable.0), b.min(bookable.1))),
            bookable,
        }
    }

    /// The departure cities of the offer that count (all, or the chosen one).
    fn cities<'a>(&'a self, c: &'a Candidate) -> impl Iterator<Item = &'a Vec<Departures>> + 'a {
        c.cities
            .iter()
            .filter(move |(code, _)| self.city_code.as_ref().is_none_or(|want| want == code))
            .map(|(_, seasons)| seasons)
    }

    pub(super) fn matches(
        &self,
        c: &Candidate,
        places: &HashMap<i64, (Option<i64>, String)>,
    ) -> bool {
        let up = || lineage(places, c.destination_id);
        let destination_ok = match &self.destination {
            None => true,
            Some(Destination::Place(id)) => up().contains(id),
            Some(Destination::Sale(id)) => c.offer.campaign_id == *id,
            Some(Destination::Unknown) => false,
        };
        let text_ok = self.text.as_ref().is_none_or(|t| {
            up().iter()
                .filter_map(|id| places.get(id))
                .any(|(_, folded)| folded.contains(t.trim()))
        });
        let trip_ok = self.trip_type.as_ref().is_none_or(|t| *t == c.trip_type);
        let city_ok = self.city_code.is_none() || self.cities(c).next().is_some();
        let days_ok = search_days_ok(self, c);
        destination_ok && text_ok && trip_ok && city_ok && days_ok
    }

    /// The months (`YYYY-MM`) of the bookable window with a departure of the offer.
    pub(super) fn months(&self, c: &Candidate) -> BTreeSet<String> {
        let (from, to) = self.bookable;
        let mut out = BTreeSet::new();
        let mut first = Date { day: 1, ..from };
        while first <= to {
            let month = format!("{:04}-{:02}", first.year, first.month);
            let Some((start, end)) = month_bounds(&month) else {
                break;
            };
            if self
                .cities(c)
                .flatten()
                .any(|s| s.any_within(start.max(from), end.min(to)))
            {
                out.insert(month);
            }
            first = end.add_days(1);
        }
        out
    }
}

/// Whether the offer has one of the wanted values of every filter but `except`.
pub(super) fn passes(
    c: &Candidate,
    filters: &BTreeMap<&'static str, &[String]>,
    except: Option<&str>,
) -> bool {
    filters
        .iter()
        .filter(|(name, _)| Some(**name) != except)
        .all(|(name, wanted)| {
            c.values
                .get(name)
                .is_some_and(|have| have.iter().any(|v| wanted.contains(v)))
        })
}

pub(super) fn facets(in_scope: &[Candidate], query: &OfferQuery, search: &Search) -> Vec<Facet> {
    let filters = known_filters(query);
    let mut out = Vec::new();
    // Months with departures, counted over the other filters (the dates are what it sets).
    let mut months: BTreeMap<String, u32> = BTreeMap::new();
    let undated = Search {
        days: None,
        city_code: search.city_code.clone(),
        ..Search::empty(search.bookable)
    };
    for c in in_scope.iter().filter(|c| passes(c, &filters, None)) {
        for m in undated.months(c) {
            *months.entry(m).or_default() += 1;
        }
    }
    out.push(Facet {
        name: DATES_FACET.into(),
        category: "Dates".into(),
        values: months
            .into_iter()
            .map(|(value, count)| FacetValue {
                selected: query.dates.as_deref() == Some(value.as_str()),
                label: value.clone(),
                value,
                count,
            })
            .collect(),
    });
    for name in FILTER_NAMES {
        let mut counts: BTreeMap<String, (u32, String)> = BTreeMap::new();
        for c in in_scope
            .iter()
            .filter(|c| search_days_ok(search, c) && passes(c, &filters, Some(name)))
        {
            for v in c.values.get(name).into_iter().flatten() {
                let label = if name == "location" {
                    c.offer.destination.clone()
                } else {
                    v.clone()
                };
                counts.entry(v.clone()).or_insert((0, label)).0 += 1;
            }
        }
        let chosen = filters.get(name).copied().unwrap_or_default();
        for v in chosen {
            counts.entry(v.clone()).or_insert((0, v.clone()));
        }
        let mut values: Vec<FacetValue> = counts
            .into_iter()
            .map(|(value, (count, label))| FacetValue {
                selected: chosen.contains(&value),
                value,
                label,
                count,
            })
            .collect();
        match name {
            "establishmentrating" => values.sort_by(|a, b| b.value.cmp(&a.value)),
            "location" => values.sort_by(|a, b| a.label.cmp(&b.label)),
            _ => {}
        }
        if !values.is_empty() {
            out.push(Facet {
                name: name.into(),
                category: if name == "location" {
                    "City".into()
                } else {
                    String::new()
                },
                values,
            });
        }
    }
    out
}

/// Whether the offer departs on one of the wanted days (with places left) for the wanted
/// length of stay.
pub(super) fn search_days_ok(search: &Search, c: &Candidate) -> bool {
    let stay_ok = |s: &Departures| search.stay.is_none_or(|days| s.stays.contains(&days));
    match search.days {
        None => search.stay.is_none() || search.cities(c).flatten().any(stay_ok),
        Some((from, to)) => search
            .cities(c)
            .flatten()
            .any(|s| stay_ok(s) && s.any_within(from, to)),
    }
}

impl Search {
    fn empty(bookable: (Date, Date)) -> Search {
        Search {
            destination: None,
            text: None,
            city_code: None,
            trip_type: None,
            days: None,
            stay: None,
            bookable,
        }
    }
}

//! The travel catalog's filter state (spec 001 §2 "Travel filters"): the URL query read
//! into an [`OfferQuery`] (lenient: a bad value is dropped, never an error), the query
//! written back (dates as `DDMMYY`, through `catalogue_query`), the remove links of
//! active filters, the facets' labels, and the phone drawer's cookie.
#[cfg(test)]
mod tests;
mod url;

use std::collections::BTreeMap;

use super::date::{from_filter_date, Date};
use crate::model::travel_catalog::{Facet, OfferQuery};

/// The checkbox filters by name, in the order the form shows them. `location` is a city
/// (category City); the date filters (category Dates) are `checkin`, `checkout`, `flex`
/// and `dates`.
pub const FILTER_NAMES: [&str; 9] = [
    "location",
    "transportation",
    "transportationtype",
    "accomodationtype",
    "board",
    "establishmentrating",
    "thematics",
    "paymentfacility",
    "notoriousbrands",
];

/// The facet of the flexible period (months with departures), category Dates.
pub const DATES_FACET: &str = "dates";

/// The phone filter drawer's cookie and the value that means "open" (spec 001 §9).
pub const DRAWER_COOKIE: &str = "trv_push_filter";
pub const DRAWER_OPENED: &str = "drawerOpened";

/// Pages a URL may ask for at once: a no-JS "more" link shows every page up to its own.
pub const MAX_PAGE: u32 = 50;

const MAX_VALUES: usize = 20;
const MAX_VALUE_CHARS: usize = 64;

/// A date of the query: `DDMMYY` as the URL carries it, or `YYYY-MM-DD` as a date input
/// submits it. `YYYY-MM-DD` out.
pub fn parse_filter_date(value: &str) -> Option<String> {
    let v = value.trim();
    from_filter_date(v).or_else(|| Date::parse(v).map(|d| d.to_string()))
}

/// The flexible period: `YYYY-MM`, or a `DDMMYY`/`YYYY-MM-DD` day of that month.
pub fn parse_month(value: &str) -> Option<String> {
    let v = value.trim();
    let month = if v.len() == 7 {
        Date::parse(&format!("{v}-01"))
    } else {
        parse_filter_date(v).and_then(|d| Date::parse(&d))
    }?;
    Some(format!("{:04}-{:02}", month.year, month.month))
}

/// The first and last day of a `YYYY-MM` month.
pub fn month_bounds(month: &str) -> Option<(Date, Date)> {
    let first = Date::parse(&format!("{month}-01"))?;
    let next = if first.month == 12 {
        Date::new(first.year + 1, 1, 1)?
    } else {
        Date::new(first.year, first.month + 1, 1)?
    };
    Some((first, next.add_days(-1)))
}

/// A destination as the autocomplete gives it: a numeric id or `sale-{id}`.
fn valid_destination(v: &str) -> bool {
    let digits = v.strip_prefix("sale-").unwrap_or(v);
    !digits.is_empty() && digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit())
}

fn short(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty() && v.chars().count() <= MAX_VALUE_CHARS).then(|| v.to_string())
}

/// Reads a catalog or results URL query (pairs in order; a key may repeat, as checkboxes
/// submit it, and values may be comma-joined, as links write them). `site_id`,
/// `campaign_id` and `universe_id` come from the path and stay unset. `dc=0` is the
/// default catalogue: its filters are ignored. `page` is 1-based in the URL.
pub fn parse_offer_query(pairs: &[(String, String)]) -> OfferQuery {
    let first = |key: &str| {
        pairs
            .iter()
            .find(|(k, v)| k == key && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
    };
    let mut q = OfferQuery {
        destination_id: first("destinationId")
            .map(str::trim)
            .filter(|v| valid_destination(v))
            .map(String::from),
        destination_text: first("destinationText").and_then(short),
        departure_city_code: first("departureCityCode").and_then(short),
        trip_type_id: first("tripTypeId").and_then(short),
        page: first("page")
            .and_then(|p| p.trim().parse::<u32>().ok())
            .filter(|p| *p >= 1)
            .map(|p| p.min(MAX_PAGE) - 1)
            .unwrap_or(0),
        ..OfferQuery::default()
    };
    if first("dc").map(str::trim) == Some("0") {
        return q;
    }
    q.checkin = first("checkin").and_then(parse_filter_date);
    q.checkout = first("checkout")
        .and_then(parse_filter_date)
        .filter(|out| q.checkin.as_ref().is_none_or(|inn| out > inn));
    q.flex = first("flex")
        .filter(|_| q.checkin.is_some())
        .map_or(0, crate::travel::rules::flex_days);
    // Exact dates and a flexible period exclude each other (spec 001 §4): exact dates win.
    q.dates = first("dates")
        .and_then(parse_month)
        .filter(|_| q.checkin.is_none() && q.checkout.is_none());
    for name in FILTER_NAMES {
        let mut values: Vec<String> = Vec::new();
        for (_, v) in pairs.iter().filter(|(k, _)| k == name) {
            for part in v.split(',').filter_map(short) {
                if !values.contains(&part) && values.len() < MAX_VALUES {
                    values.push(part);
                }
            }
        }
        if !values.is_empty() {
            q.filters.insert(name.to_string(), values);
        }
    }
    q
}

pub use url::{canonical_query, has_iso_dates, offer_query_string, query_pairs, with_page};

/// The state without paging: what a filter change or a remove link starts from.
pub fn first_page(q: &OfferQuery) -> OfferQuery {
    OfferQuery {
        page: 0,
        ..q.clone()
    }
}

/// True when the member narrowed the list (dates or filters), not just paged it: such a
/// state is not indexed.
pub fn is_filtered(q: &OfferQuery) -> bool {
    q.checkin.is_some()
        || q.checkout.is_some()
        || q.dates.is_some()
        || q.filters.values().any(|v| !v.is_empty())
        || q.destination_id.is_some()
        || q.destination_text.is_some()
        || q.departure_city_code.is_some()
        || q.trip_type_id.is_some()
}

/// One chosen filter value and the state without it (first page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveFilter {
    pub name: String,
    pub value: String,
    pub without: OfferQuery,
}

/// The chosen values, each with the state that removes it: dates first, then the filters
/// in form order. Removing the check-in removes the flexibility that hangs on it.
pub fn active_filters(q: &OfferQuery) -> Vec<ActiveFilter> {
    let base = first_page(q);
    let mut out = Vec::new();
    let mut date = |name: &str, value: &Option<String>, clear: &dyn Fn(&mut OfferQuery)| {
        if let Some(v) = value {
            let mut without = base.clone();
            clear(&mut without);
            out.push(ActiveFilter {
                name: name.into(),
                value: v.clone(),
                without,
            });
        }
    };
    date("checkin", &q.checkin, &|w| {
        w.checkin = None;
        w.flex = 0;
    });
    date("checkout", &q.checkout, &|w| w.checkout = None);
    date("dates", &q.dates, &|w| w.dates = None);
    for name in FILTER_NAMES {
        for value in q.filters.get(name).into_iter().flatten() {
            let mut without = base.clone();
            let rest: Vec<String> = q.filters[name]
                .iter()
                .filter(|v| *v != value)
                .cloned()
                .collect();
            if rest.is_empty() {
                without.filters.remove(name);
            } else {
                without.filters.insert(name.to_string(), rest);
            }
            out.push(ActiveFilter {
                name: name.into(),
                value: value.clone(),
                without,
            });
        }
    }
    out
}

/// The translation key of a facet's name.
pub fn facet_title_key(name: &str) -> String {
    format!("travel.filter.{name}")
}

/// Gives the facets' values their labels in the member's language: `t` looks a key up.
/// Cities keep their names; ratings read "4 stars"; months "December 2026"; the others
/// are `travel.filter.{name}.{value}`, and a value without a text keeps its own.
pub fn label_facets(
    facets: &mut [Facet],
    t: impl Fn(&str) -> Option<String>,
    t_with: impl Fn(&str, &[(&str, &str)]) -> String,
) {
    for facet in facets.iter_mut() {
        for v in facet.values.iter_mut() {
            v.label = match facet.name.as_str() {
                "location" => continue,
                "establishmentrating" => t_with(
                    "travel.filter.establishmentrating.value",
                    &[("count", &v.value)],
                ),
                DATES_FACET => month_label(&v.value, &t).unwrap_or_else(|| v.value.clone()),
                name => t(&format!("travel.filter.{name}.{}", v.value))
                    .unwrap_or_else(|| v.value.clone()),
            };
        }
    }
}

/// `2026-12` as "December 2026" (`travel.filter.month.12`).
pub fn month_label(month: &str, t: impl Fn(&str) -> Option<String>) -> Option<String> {
    let (first, _) = month_bounds(month)?;
    let name = t(&format!("travel.filter.month.{}", first.month))?;
    Some(format!("{name} {}", first.year))
}

/// Whether a `Cookie` header says the phone filter drawer was left open.
pub fn drawer_open(cookie_header: &str) -> bool {
    cookie_header.split(';').any(|c| {
        c.trim()
            .split_once('=')
            .is_some_and(|(k, v)| k.trim() == DRAWER_COOKIE && v.trim() == DRAWER_OPENED)
    })
}

/// The `document.cookie` assignment of the drawer state: set while open (the session),
/// cleared when closed.
pub fn drawer_cookie(open: bool) -> String {
    if open {
        format!("{DRAWER_COOKIE}={DRAWER_OPENED}; path=/; SameSite=Lax")
    } else {
        format!("{DRAWER_COOKIE}=; path=/; max-age=0; SameSite=Lax")
    }
}

/// The filters of a query as the store reads them: only known names, non-empty lists.
pub fn known_filters(q: &OfferQuery) -> BTreeMap<&'static str, &[String]> {
    FILTER_NAMES
        .iter()
        .filter_map(|n| {
            q.filters
                .get(*n)
                .filter(|v| !v.is_empty())
                .map(|v| (*n, v.as_slice()))
        })
        .collect()
}

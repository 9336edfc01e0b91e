//! The filter state in a URL: reading a raw query string, writing a state back (dates as
//! `DDMMYY`), and the addresses the page redirects or pages to.
use super::FILTER_NAMES;
use crate::model::travel_catalog::OfferQuery;
use crate::travel::rules::catalogue::{catalogue_query, QueryValue};
use crate::travel::rules::date::to_filter_date;

pub use crate::routes::query_pairs;

/// True when the URL carries a date the way a date input submits it (`YYYY-MM-DD`): the
/// page then moves to the [`offer_query_string`] form, whose dates are `DDMMYY`.
pub fn has_iso_dates(pairs: &[(String, String)]) -> bool {
    pairs
        .iter()
        .any(|(k, v)| matches!(k.as_str(), "checkin" | "checkout" | "dates") && v.contains('-'))
}

/// The query string of a state (`?`-prefixed, empty for the plain catalog): dates as
/// `DDMMYY` (a month as its first day), lists comma-joined, `page` 1-based and left out on
/// the first page.
pub fn offer_query_string(q: &OfferQuery) -> String {
    let one = |v: &Option<String>| QueryValue::One(v.clone().unwrap_or_default());
    let day = |v: &Option<String>| {
        QueryValue::One(v.as_deref().and_then(to_filter_date).unwrap_or_default())
    };
    let month = q
        .dates
        .as_deref()
        .and_then(|m| to_filter_date(&format!("{m}-01")))
        .unwrap_or_default();
    let mut params: Vec<(&str, QueryValue)> = vec![
        ("destinationId", one(&q.destination_id)),
        ("destinationText", one(&q.destination_text)),
        ("departureCityCode", one(&q.departure_city_code)),
        ("tripTypeId", one(&q.trip_type_id)),
        ("checkin", day(&q.checkin)),
        ("checkout", day(&q.checkout)),
        (
            "flex",
            QueryValue::One(if q.flex > 0 {
                q.flex.to_string()
            } else {
                String::new()
            }),
        ),
        ("dates", QueryValue::One(month)),
    ];
    for name in FILTER_NAMES {
        if let Some(values) = q.filters.get(name) {
            params.push((name, QueryValue::Many(values.clone())));
        }
    }
    let page = if q.page > 0 {
        (q.page + 1).to_string()
    } else {
        String::new()
    };
    params.push(("page", QueryValue::One(page)));
    catalogue_query(&params)
}

/// Query keys of an offer state; any other key (`site`, tracking) rides along untouched.
const STATE_KEYS: [&str; 11] = [
    "destinationId",
    "destinationText",
    "departureCityCode",
    "tripTypeId",
    "checkin",
    "checkout",
    "flex",
    "dates",
    "page",
    "dc",
    "productId",
];

/// [`offer_query_string`] of `q` followed by the keys of `pairs` that are not part of an
/// offer state, so a redirect to the `DDMMYY` form keeps them.
pub fn canonical_query(q: &OfferQuery, pairs: &[(String, String)]) -> String {
    let mut out = offer_query_string(q);
    for (k, v) in pairs {
        let known = STATE_KEYS.contains(&k.as_str()) || FILTER_NAMES.contains(&k.as_str());
        if known || k.is_empty() || v.is_empty() {
            continue;
        }
        out.push(if out.is_empty() { '?' } else { '&' });
        out.push_str(&format!(
            "{}={}",
            crate::routes::encode_query_value(k),
            crate::routes::encode_query_value(v)
        ));
    }
    out
}

/// A raw query string (with or without `?`) with its `page` set to `page` (1-based) and
/// every other pair kept as it was: the "more" link of a list, whichever page shows it.
pub fn with_page(raw: &str, page: u32) -> String {
    let mut parts: Vec<String> = raw
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && kv.split('=').next() != Some("page"))
        .map(String::from)
        .collect();
    parts.push(format!("page={page}"));
    format!("?{}", parts.join("&"))
}

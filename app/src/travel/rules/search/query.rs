//! The travel search in the URL: `/t/r?destinationId=…&checkin=…` read leniently (a value
//! that does not fit is dropped, never an error page), written back, and turned into the
//! offers query or the address a search leads to.
use crate::model::travel::TravelSearch;
use crate::model::travel_catalog::OfferQuery;
use crate::routes::encode_query_value;
use crate::travel::rules::{catalog_link, from_filter_date, Date};

use super::{set_checkin_checkout, set_dates};

/// The longest destination text kept (longer text is cut, not refused: it came from a URL).
pub const MAX_TEXT_CHARS: usize = 100;
/// The results page.
pub const RESULTS_PATH: &str = "/t/r";

/// What a search URL asks for, and what was wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchRequest {
    pub search: TravelSearch,
    /// 0-based page of results.
    pub page: u32,
    pub problem: Option<SearchProblem>,
    /// The checkout day as the URL gave it, when [`SearchProblem::CheckoutBeforeCheckin`]
    /// dropped it from the search: the form shows it back, by its error.
    pub refused_checkout: Option<String>,
}

/// A search the member must correct; the rest of the search still runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchProblem {
    /// The checkout day is not after the checkin day: the checkout is dropped.
    CheckoutBeforeCheckin,
}

impl SearchProblem {
    pub fn message_key(self) -> &'static str {
        match self {
            SearchProblem::CheckoutBeforeCheckin => "travel.search.errors.checkout_before_checkin",
        }
    }
    pub fn code(self) -> &'static str {
        match self {
            SearchProblem::CheckoutBeforeCheckin => "checkout_before_checkin",
        }
    }
}

/// A destination id as the autocomplete gives it: a destination's number, or `sale-{id}`.
fn destination_id(v: &str) -> Option<String> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit());
    match v.strip_prefix("sale-") {
        Some(id) if digits(id) => Some(v.to_string()),
        None if digits(v) => Some(v.to_string()),
        _ => None,
    }
}

/// Free text: control characters out, spaces collapsed, at most [`MAX_TEXT_CHARS`].
pub fn clean_text(v: &str) -> String {
    let spaced: String = v
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_TEXT_CHARS)
        .collect()
}

/// A code made of letters, digits, `_` and `-` (departure city codes, trip types).
fn code(v: &str, max: usize) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()
        && v.len() <= max
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then(|| v.to_string())
}

/// A day as `YYYY-MM-DD`, or as the filters write it (`DDMMYY`).
fn day(v: &str) -> Option<Date> {
    let v = v.trim();
    Date::parse(v).or_else(|| from_filter_date(v).and_then(|iso| Date::parse(&iso)))
}

/// A month `YYYY-MM`.
pub fn month(v: &str) -> Option<(i32, u32)> {
    let v = v.trim();
    let (y, m) = v.split_once('-')?;
    if y.len() != 4 || m.len() != 2 {
        return None;
    }
    let (y, m) = (y.parse::<i32>().ok()?, m.parse::<u32>().ok()?);
    Date::new(y, m, 1).map(|_| (y, m))
}

/// Reads a search from the URL's query. Exact dates win over a period when both are
/// given (the setters of spec 001 §4 applied in that order); a checkout not after the
/// checkin is dropped and reported.
pub fn parse_search(get: impl Fn(&str) -> Option<String>) -> SearchRequest {
    let text = |k: &str| get(k).map(|v| clean_text(&v)).unwrap_or_default();
    let mut s = TravelSearch {
        destination_id: get("destinationId").and_then(|v| destination_id(v.trim())),
        destination_text: text("destinationText"),
        departure_city_code: get("departureCityCode")
            .and_then(|v| code(&v, 8))
            .map(|c| c.to_ascii_uppercase())
            .unwrap_or_default(),
        trip_type_id: get("tripTypeId")
            .and_then(|v| code(&v, 32))
            .unwrap_or_default(),
        flex: get("flex").map_or(0, |v| crate::travel::rules::flex_days(&v)),
        ..TravelSearch::default()
    };
    s.is_destination_suggested = s.destination_id.is_some();
    s.destination_suggestion_type = match s.destination_id.as_deref() {
        Some(id) if id.starts_with("sale-") => "sale".into(),
        Some(_) => "destination".into(),
        None => String::new(),
    };
    let dates = get("dates")
        .and_then(|v| month(&v))
        .map(|(y, m)| format!("{y:04}-{m:02}"));
    set_dates(&mut s, dates);
    let checkin = get("checkin").and_then(|v| day(&v));
    let mut checkout = get("checkout").and_then(|v| day(&v));
    let mut problem = None;
    let mut refused_checkout = None;
    if let (Some(i), Some(o)) = (checkin, checkout) {
        if o <= i {
            refused_checkout = Some(o.to_string());
            checkout = None;
            problem = Some(SearchProblem::CheckoutBeforeCheckin);
        }
    }
    if checkin.is_some() || checkout.is_some() {
        set_checkin_checkout(
            &mut s,
            checkin.map(|d| d.to_string()),
            checkout.map(|d| d.to_string()),
        );
    }
    let page = get("page")
        .and_then(|p| p.trim().parse::<u32>().ok())
        .filter(|p| *p <= 1000)
        .unwrap_or(0);
    SearchRequest {
        search: s,
        page,
        problem,
        refused_checkout,
    }
}

/// The search's query pairs, in the form's order; empty values are left out.
pub fn search_pairs(s: &TravelSearch) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut push = |k: &'static str, v: Option<&str>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            out.push((k, v.to_string()));
        }
    };
    push("destinationId", s.destination_id.as_deref());
    push("destinationText", Some(s.destination_text.as_str()));
    push("departureCityCode", Some(s.departure_city_code.as_str()));
    push("tripTypeId", Some(s.trip_type_id.as_str()));
    push("checkin", s.checkin.as_deref());
    push("checkout", s.checkout.as_deref());
    push("dates", s.dates.as_deref());
    let flex = s.flex.to_string();
    push("flex", (s.flex > 0).then_some(flex.as_str()));
    out
}

/// `/t/r?…` for a search (and a page after the first).
pub fn results_url(s: &TravelSearch, page: u32) -> String {
    let mut pairs = search_pairs(s);
    if page > 0 {
        pairs.push(("page", page.to_string()));
    }
    let query: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode_query_value(v)))
        .collect();
    if query.is_empty() {
        RESULTS_PATH.to_string()
    } else {
        format!("{RESULTS_PATH}?{}", query.join("&"))
    }
}

/// The travel sale a destination names (`sale-{id}`).
pub fn sale_of(destination_id: Option<&str>) -> Option<i64> {
    destination_id?.strip_prefix("sale-")?.parse().ok()
}

/// Where a search leads: a travel sale chosen as destination opens its catalog (the
/// catalog link rule, by id: a destination names its sale by id alone), anything else the
/// results page.
pub fn redirect_url(s: &TravelSearch) -> String {
    match sale_of(s.destination_id.as_deref()) {
        Some(id) => catalog_link(None, None, id),
        None => results_url(s, 0),
    }
}

/// Whether the search asks for anything (an empty one lists every live offer).
pub fn is_empty(s: &TravelSearch) -> bool {
    search_pairs(s).is_empty()
}

/// The offers query of a search on a site (every live travel sale: no campaign).
pub fn offer_query(s: &TravelSearch, site_id: u16, page: u32) -> OfferQuery {
    let opt = |v: &str| (!v.is_empty()).then(|| v.to_string());
    OfferQuery {
        site_id,
        campaign_id: None,
        destination_id: s.destination_id.clone(),
        destination_text: opt(&s.destination_text).filter(|_| s.destination_id.is_none()),
        departure_city_code: opt(&s.departure_city_code),
        trip_type_id: opt(&s.trip_type_id),
        checkin: s.checkin.clone(),
        checkout: s.checkout.clone(),
        dates: s.dates.clone(),
        flex: s.flex,
        page,
        ..OfferQuery::default()
    }
}

/// The months a flexible period can name: this one and the next `count - 1`, as
/// (`YYYY-MM`, year, month).
pub fn months(today: Date, count: u32) -> Vec<(String, i32, u32)> {
    (0..count)
        .map(|i| {
            let n = today.month - 1 + i;
            let (y, m) = (today.year + (n / 12) as i32, n % 12 + 1);
            (format!("{y:04}-{m:02}"), y, m)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> SearchRequest {
        parse_search(|k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn a_full_search_reads_every_field() {
        let r = parse(&[
            ("destinationId", "142"),
            ("destinationText", "  Grèce  "),
            ("departureCityCode", "par"),
            ("tripTypeId", "stay"),
            ("checkin", "2026-12-05"),
            ("checkout", "121226"),
            ("flex", "7"),
            ("page", "2"),
        ]);
        let s = &r.search;
        assert_eq!(s.destination_id.as_deref(), Some("142"));
        assert!(s.is_destination_suggested);
        assert_eq!(s.destination_text, "Grèce");
        assert_eq!(s.departure_city_code, "PAR");
        assert_eq!(s.trip_type_id, "stay");
        assert_eq!(s.checkin.as_deref(), Some("2026-12-05"));
        assert_eq!(
            s.checkout.as_deref(),
            Some("2026-12-12"),
            "DDMMYY is read too"
        );
        assert_eq!(s.flex, 7);
        assert_eq!((r.page, r.problem), (2, None));
    }

    #[test]
    fn bad_values_are_dropped_not_refused() {
        let r = parse(&[
            ("destinationId", "1; DROP TABLE sales"),
            ("departureCityCode", "<script>"),
            ("tripTypeId", "' OR 1=1 --"),
            ("checkin", "2026-02-30"),
            ("checkout", "tomorrow"),
            ("dates", "2026-13"),
            ("flex", "maybe"),
            ("page", "-1"),
        ]);
        assert_eq!(r.search, TravelSearch::default());
        assert_eq!((r.page, r.problem), (0, None));
        assert_eq!(
            parse(&[("destinationId", "sale-x")]).search.destination_id,
            None
        );
        assert_eq!(parse(&[("page", "99999999999")]).page, 0);
        let long = "é".repeat(500);
        assert_eq!(
            parse(&[("destinationText", &long)])
                .search
                .destination_text
                .chars()
                .count(),
            MAX_TEXT_CHARS
        );
        assert_eq!(
            parse(&[("destinationText", "a\u{0}b\n  c")])
                .search
                .destination_text,
            "a b c"
        );
    }

    #[test]
    fn checkout_before_checkin_is_reported_and_dropped() {
        let r = parse(&[("checkin", "2026-12-12"), ("checkout", "2026-12-05")]);
        assert_eq!(r.problem, Some(SearchProblem::CheckoutBeforeCheckin));
        assert_eq!(r.search.checkin.as_deref(), Some("2026-12-12"));
        assert_eq!(r.search.checkout, None);
        assert_eq!(r.refused_checkout.as_deref(), Some("2026-12-05"));
        let same = parse(&[("checkin", "2026-12-12"), ("checkout", "2026-12-12")]);
        assert_eq!(same.problem, Some(SearchProblem::CheckoutBeforeCheckin));
    }

    #[test]
    fn exact_dates_win_over_a_period_and_a_period_alone_stays() {
        let both = parse(&[("dates", "2026-12"), ("checkin", "2026-12-05")]);
        assert_eq!(both.search.dates, None);
        assert_eq!(both.search.checkin.as_deref(), Some("2026-12-05"));
        let period = parse(&[("dates", "2027-01"), ("flex", "on")]);
        assert_eq!(period.search.dates.as_deref(), Some("2027-01"));
        assert_eq!(period.search.flex, 3, "the former flag is 3 days");
        assert_eq!(period.search.checkin, None);
    }

    #[test]
    fn a_search_round_trips_through_its_url() {
        let s = parse(&[
            ("destinationId", "sale-1011"),
            ("destinationText", "Hôtel d'Azur & Spa"),
            ("departureCityCode", "LYS"),
            ("dates", "2027-03"),
            ("flex", "1"),
        ])
        .search;
        let url = results_url(&s, 1);
        assert_eq!(
            url,
            "/t/r?destinationId=sale-1011&destinationText=H%C3%B4tel%20d%27Azur%20%26%20Spa&departureCityCode=LYS&dates=2027-03&flex=1&page=1"
        );
        let query = url.split_once('?').unwrap().1;
        let pairs: Vec<(String, String)> = query
            .split('&')
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                (k.to_string(), percent_decode(v))
            })
            .collect();
        let back = parse_search(|k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()));
        assert_eq!(back.search, s);
        assert_eq!(back.page, 1);
        assert_eq!(results_url(&TravelSearch::default(), 0), "/t/r");
    }

    fn percent_decode(v: &str) -> String {
        let b = v.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_sale_leads_to_its_catalog_anything_else_to_the_results() {
        let mut s = TravelSearch {
            destination_id: Some("sale-1011".into()),
            destination_text: "Hôtel".into(),
            ..TravelSearch::default()
        };
        assert_eq!(sale_of(s.destination_id.as_deref()), Some(1011));
        assert_eq!(redirect_url(&s), "/t/c/1011");
        s.destination_id = Some("142".into());
        assert_eq!(
            redirect_url(&s),
            "/t/r?destinationId=142&destinationText=H%C3%B4tel"
        );
    }

    #[test]
    fn the_offer_query_takes_the_text_only_without_a_chosen_destination() {
        let s = TravelSearch {
            destination_id: Some("142".into()),
            destination_text: "Crète".into(),
            departure_city_code: "PAR".into(),
            ..TravelSearch::default()
        };
        let q = offer_query(&s, 2, 1);
        assert_eq!((q.site_id, q.campaign_id, q.page), (2, None, 1));
        assert_eq!(q.destination_id.as_deref(), Some("142"));
        assert_eq!(q.destination_text, None);
        assert_eq!(q.departure_city_code.as_deref(), Some("PAR"));
        assert_eq!(q.trip_type_id, None);
        let free = TravelSearch {
            destination_text: "Crète".into(),
            ..TravelSearch::default()
        };
        assert_eq!(
            offer_query(&free, 1, 0).destination_text.as_deref(),
            Some("Crète")
        );
    }

    #[test]
    fn months_run_over_the_new_year() {
        let m = months(Date::new(2026, 11, 23).unwrap(), 4);
        let ids: Vec<&str> = m.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["2026-11", "2026-12", "2027-01", "2027-02"]);
        assert_eq!((m[2].1, m[2].2), (2027, 1));
    }
}

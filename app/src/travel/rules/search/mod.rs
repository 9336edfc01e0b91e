//! The travel search (spec 001 §2–§4): the setters (a flexible period and exact dates
//! exclude each other), the search in the URL, the destination autocomplete and the
//! departure-city cookie.
use crate::model::travel::TravelSearch;

mod query;
mod suggest;

pub use query::*;
pub use suggest::*;

/// Sets the flexible period (`2026-12`); choosing one clears checkin and checkout.
/// Clearing it (`None`) leaves exact dates alone.
pub fn set_dates(search: &mut TravelSearch, dates: Option<String>) {
    if dates.is_some() {
        search.checkin = None;
        search.checkout = None;
    }
    search.dates = dates;
}

/// Sets exact dates; choosing either clears the flexible period. Clearing both leaves the
/// period alone.
pub fn set_checkin_checkout(
    search: &mut TravelSearch,
    checkin: Option<String>,
    checkout: Option<String>,
) {
    if checkin.is_some() || checkout.is_some() {
        search.dates = None;
    }
    search.checkin = checkin;
    search.checkout = checkout;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_clear_checkin_and_checkout() {
        let mut s = TravelSearch {
            checkin: Some("2026-12-05".into()),
            checkout: Some("2026-12-12".into()),
            flex: 3,
            ..TravelSearch::default()
        };
        set_dates(&mut s, Some("2026-12".into()));
        assert_eq!(s.dates.as_deref(), Some("2026-12"));
        assert_eq!((s.checkin, s.checkout), (None, None));
        assert_eq!(s.flex, 3);
    }

    #[test]
    fn checkin_and_checkout_clear_dates() {
        let mut s = TravelSearch {
            dates: Some("2026-12".into()),
            ..TravelSearch::default()
        };
        set_checkin_checkout(&mut s, Some("2026-12-05".into()), Some("2026-12-12".into()));
        assert_eq!(s.dates, None);
        assert_eq!(s.checkin.as_deref(), Some("2026-12-05"));
        assert_eq!(s.checkout.as_deref(), Some("2026-12-12"));
    }

    #[test]
    fn clearing_one_side_keeps_the_other() {
        let mut s = TravelSearch {
            checkin: Some("2026-12-05".into()),
            checkout: Some("2026-12-12".into()),
            ..TravelSearch::default()
        };
        set_dates(&mut s, None);
        assert_eq!(s.checkin.as_deref(), Some("2026-12-05"));
        let mut s = TravelSearch {
            dates: Some("2026-12".into()),
            ..TravelSearch::default()
        };
        set_checkin_checkout(&mut s, None, None);
        assert_eq!(s.dates.as_deref(), Some("2026-12"));
    }
}

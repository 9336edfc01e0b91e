//! The price calendar: which days can be chosen, the cheapest one, and the checkout date.
use super::date::Date;
use crate::model::travel::CalendarDays;

/// A day can be chosen when it is a strict `YYYY-MM-DD` date listed in the calendar and
/// not sold out.
pub fn is_selectable_day(days: &CalendarDays, date: &str) -> bool {
    Date::parse(date).is_some() && days.get(date).is_some_and(|d| !d.is_out_of_stock)
}

/// The cheapest selectable day, the earliest one on equal prices.
pub fn lowest_day(days: &CalendarDays) -> Option<String> {
    days.iter()
        .filter(|(date, _)| is_selectable_day(days, date))
        // `min_by_key` keeps the first of equal keys, and the map is in date order.
        .min_by_key(|(_, day)| day.price)
        .map(|(date, _)| date.clone())
}

/// Checkin plus `days` minus one (a stay of 8 days from Saturday ends the next Saturday);
/// `None` for an invalid checkin or a stay of 0 days.
pub fn checkout_date(checkin: &str, days: u32) -> Option<String> {
    let start = Date::parse(checkin)?;
    (days >= 1).then(|| start.add_days(i64::from(days) - 1).to_string())
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::day;
    use super::*;

    #[test]
    fn checkout_crosses_month_year_and_leap_boundaries() {
        let cases = [
            ("2027-03-06", 8, "2027-03-13"),
            ("2027-01-31", 2, "2027-02-01"),
            ("2027-02-27", 3, "2027-03-01"),
            ("2028-02-28", 2, "2028-02-29"),
            ("2028-02-28", 3, "2028-03-01"),
            ("2100-02-28", 2, "2100-03-01"),
            ("2000-02-28", 2, "2000-02-29"),
            ("2027-12-31", 2, "2028-01-01"),
            ("2027-12-25", 15, "2028-01-08"),
            ("2027-03-06", 1, "2027-03-06"),
            ("2027-01-01", 365, "2027-12-31"),
            ("2028-01-01", 366, "2028-12-31"),
        ];
        for (checkin, days, expected) in cases {
            assert_eq!(
                checkout_date(checkin, days).as_deref(),
                Some(expected),
                "{checkin} + {days}"
            );
        }
        assert_eq!(checkout_date("2027-03-06", 0), None);
        assert_eq!(checkout_date("2027-02-29", 3), None);
        assert_eq!(checkout_date("2027-3-6", 3), None);
    }

    #[test]
    fn lowest_day_is_the_cheapest_in_stock_and_earliest_on_ties() {
        let mut days = CalendarDays::new();
        assert_eq!(lowest_day(&days), None);
        days.insert("2027-03-20".into(), day(59_900, false));
        days.insert("2027-03-06".into(), day(49_900, true));
        days.insert("2027-03-27".into(), day(59_900, false));
        days.insert("2027-03-13".into(), day(64_900, false));
        assert_eq!(lowest_day(&days).as_deref(), Some("2027-03-20"));
        days.insert("2027-3-1".into(), day(100, false));
        assert_eq!(lowest_day(&days).as_deref(), Some("2027-03-20"));
        days.clear();
        days.insert("2027-03-06".into(), day(49_900, true));
        assert_eq!(lowest_day(&days), None);
    }

    #[test]
    fn selectable_days_are_listed_in_stock_and_well_formed() {
        let mut days = CalendarDays::new();
        days.insert("2027-03-06".into(), day(59_900, false));
        days.insert("2027-03-13".into(), day(59_900, true));
        days.insert("2027-3-20".into(), day(59_900, false));
        assert!(is_selectable_day(&days, "2027-03-06"));
        assert!(!is_selectable_day(&days, "2027-03-13"));
        assert!(!is_selectable_day(&days, "2027-03-07"));
        assert!(!is_selectable_day(&days, "2027-3-20"));
    }
}

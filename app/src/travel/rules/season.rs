//! The price calendar from seasons: tour operators price by season and weekday rather than
//! day by day, so a departure day's price, reference price and places follow from the
//! season that covers it; only departures someone reserved keep a row of their own.
use std::collections::BTreeMap;

use super::calendar::lowest_day;
use super::date::Date;
use crate::model::travel::{CalendarDay, CalendarDays};

/// Departures between two days on some weekdays, at one price.
#[derive(Clone, Debug, PartialEq)]
pub struct Season {
    pub first_day: Date,
    pub last_day: Date,
    /// Bit 0 Monday ... bit 6 Sunday.
    pub weekdays: u8,
    pub price: i64,
    pub reference_price: i64,
    pub places: i64,
}

/// Departures on Friday and Saturday cost this much more (per cent).
pub const WEEKEND_SURCHARGE_PERCENT: i64 = 6;

/// The season covering a departure on `day`, if any (the first listed wins on overlaps).
pub fn season_of(seasons: &[Season], day: Date) -> Option<&Season> {
    seasons
        .iter()
        .find(|s| s.first_day <= day && day <= s.last_day && s.weekdays & (1 << day.weekday()) != 0)
}

/// Price per person of a departure of a season, with the duration's `supplement`: the
/// weekend surcharge is rounded to whole units (100 cents) so prices stay round.
pub fn day_price(season: &Season, day: Date, supplement: i64) -> (i64, i64) {
    let base = season.price + supplement;
    let price = if day.weekday() >= 4 && day.weekday() <= 5 {
        base + (base * WEEKEND_SURCHARGE_PERCENT / 100) / 100 * 100
    } else {
        base
    };
    (price, season.reference_price + supplement)
}

/// The calendar of one duration from `from` to `to` (inclusive): every departure day of
/// its seasons, sold out when its places are taken (`taken`: held + sold by day, for the
/// departures that have a row). The cheapest bookable day is marked `isLowest`.
pub fn calendar(
    seasons: &[Season],
    duration_id: i64,
    supplement: i64,
    from: Date,
    to: Date,
    taken: &BTreeMap<String, (i64, i64)>,
) -> CalendarDays {
    let mut days = CalendarDays::new();
    let mut day = from;
    while day <= to {
        if let Some(season) = season_of(seasons, day) {
            let key = day.to_string();
            let (price, reference_price) = day_price(season, day, supplement);
            let (places, used) = taken.get(&key).copied().unwrap_or((season.places, 0));
            days.insert(
                key.clone(),
                CalendarDay {
                    price,
                    reference_price,
                    id: departure_id(duration_id, day),
                    vp_entity_id: duration_id,
                    is_out_of_stock: places - used <= 0,
                    is_lowest: false,
                },
            );
        }
        day = day.add_days(1);
    }
    if let Some(lowest) = lowest_day(&days) {
        if let Some(d) = days.get_mut(&lowest) {
            d.is_lowest = true;
        }
    }
    days
}

/// `{durationId}-{YYYYMMDD}`.
pub fn departure_id(duration_id: i64, day: Date) -> String {
    format!(
        "{duration_id}-{:04}{:02}{:02}",
        day.year, day.month, day.day
    )
}

/// The inverse of [`departure_id`].
pub fn parse_departure_id(id: &str) -> Option<(i64, Date)> {
    let (duration, day) = id.split_once('-')?;
    if day.len() != 8 || !day.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let date = Date::parse(&format!("{}-{}-{}", &day[..4], &day[4..6], &day[6..]))?;
    Some((duration.parse().ok()?, date))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn season(first: &str, last: &str, weekdays: u8, price: i64) -> Season {
        Season {
            first_day: d(first),
            last_day: d(last),
            weekdays,
            price,
            reference_price: price * 3 / 2,
            places: 4,
        }
    }

    #[test]
    fn weekdays_follow_the_civil_calendar() {
        assert_eq!(d("1970-01-01").weekday(), 3); // Thursday
        assert_eq!(d("2027-03-06").weekday(), 5); // Saturday
        assert_eq!(d("2028-02-29").weekday(), 1); // Tuesday
        assert_eq!(Date::from_unix(1_804_204_800), d("2027-03-05"));
        assert_eq!(Date::from_unix(1_804_204_799), d("2027-03-04"));
        assert_eq!(d("2027-12-30").days_until(d("2028-01-02")), 3);
    }

    #[test]
    fn departures_on_the_season_weekdays_priced_with_supplement_and_weekend() {
        // Saturdays and Wednesdays in March 2027, then Saturdays only at a higher price.
        let seasons = [
            season("2027-03-01", "2027-03-31", 0b010_0100, 50_000),
            season("2027-04-01", "2027-04-30", 0b010_0000, 60_000),
        ];
        let mut taken = BTreeMap::new();
        taken.insert("2027-03-10".to_string(), (4, 4));
        let days = calendar(
            &seasons,
            7,
            10_000,
            d("2027-03-08"),
            d("2027-04-05"),
            &taken,
        );
        let keys: Vec<&str> = days.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "2027-03-10",
                "2027-03-13",
                "2027-03-17",
                "2027-03-20",
                "2027-03-24",
                "2027-03-27",
                "2027-03-31",
                "2027-04-03"
            ]
        );
        // Wednesday: no surcharge; Saturday: 6 % of 600 € rounded to whole euros.
        assert_eq!(days["2027-03-17"].price, 60_000);
        assert_eq!(days["2027-03-13"].price, 63_600);
        assert_eq!(days["2027-03-13"].reference_price, 85_000);
        assert_eq!(days["2027-04-03"].price, 74_200);
        assert!(days["2027-03-10"].is_out_of_stock);
        // The sold-out Wednesday is cheaper but not bookable: the next Wednesday is lowest.
        assert!(days["2027-03-17"].is_lowest);
        assert_eq!(days.values().filter(|d| d.is_lowest).count(), 1);
        assert_eq!(days["2027-03-13"].id, "7-20270313");
        assert_eq!(days["2027-03-13"].vp_entity_id, 7);
    }

    #[test]
    fn departure_ids_round_trip_and_reject_garbage() {
        assert_eq!(parse_departure_id("7-20270313"), Some((7, d("2027-03-13"))));
        assert_eq!(departure_id(7, d("2027-03-13")), "7-20270313");
        for bad in [
            "7-2027031",
            "x-20270313",
            "7-20270230",
            "7",
            "-20270313",
            "7-2027-03-1",
        ] {
            assert_eq!(parse_departure_id(bad), None, "{bad}");
        }
    }
}

//! What the travel inventory forms accept, as pure functions: each refusal a key of the
//! back office's words.
use app::travel::rules::{Date, Season};

use super::super::sales::rules::cents;

/// Travellers in one booking at most, as the checkout reads them.
pub const MAX_PARTY: i64 = 20;
/// Places of one departure at most.
pub const MAX_PLACES: i64 = 10_000;

#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SeasonFields {
    pub first_day: String,
    pub last_day: String,
    pub wd0: Option<String>,
    pub wd1: Option<String>,
    pub wd2: Option<String>,
    pub wd3: Option<String>,
    pub wd4: Option<String>,
    pub wd5: Option<String>,
    pub wd6: Option<String>,
    pub price: String,
    pub reference_price: String,
    pub places: String,
}

fn whole(s: &str, range: std::ops::RangeInclusive<i64>) -> Option<i64> {
    s.trim().parse().ok().filter(|n| range.contains(n))
}

/// A season of departures (the shop's own `Season`): its days in order, at least one weekday, a price with a
/// reference price not below it, and its places.
pub fn season(f: &SeasonFields) -> Result<Season, &'static str> {
    let (Some(first_day), Some(last_day)) = (
        Date::parse(f.first_day.trim()),
        Date::parse(f.last_day.trim()),
    ) else {
        return Err("travel.error.days");
    };
    if last_day < first_day || first_day.days_until(last_day) > 731 {
        return Err("travel.error.days");
    }
    let weekdays = [&f.wd0, &f.wd1, &f.wd2, &f.wd3, &f.wd4, &f.wd5, &f.wd6]
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_some())
        .fold(0u8, |bits, (i, _)| bits | 1 << i);
    if weekdays == 0 {
        return Err("travel.error.weekdays");
    }
    let (price, reference_price, places) = season_terms(&f.price, &f.reference_price, &f.places)?;
    Ok(Season {
        first_day,
        last_day,
        weekdays,
        price,
        reference_price,
        places,
    })
}

/// A season's price, reference price (not below it) and places per departure: what can
/// change once the season is made (its days stay; remove it and add another for those).
pub fn season_terms(
    price: &str,
    reference_price: &str,
    places: &str,
) -> Result<(i64, i64, i64), &'static str> {
    let (Some(price), Some(reference_price)) = (cents(price), cents(reference_price)) else {
        return Err("sales.error.price");
    };
    if reference_price < price {
        return Err("sales.error.retail_below");
    }
    let places = whole(places, 0..=MAX_PLACES).ok_or("travel.error.places")?;
    Ok((price, reference_price, places))
}

/// A stay: 1 to 60 days, fewer nights than days, and a supplement (0 allowed).
pub fn duration(
    days: &str,
    nights: &str,
    supplement: &str,
) -> Result<(i64, i64, i64), &'static str> {
    let days = whole(days, 1..=60).ok_or("travel.error.duration")?;
    let nights = whole(nights, 0..=days - 1).ok_or("travel.error.duration")?;
    let supplement = match supplement.trim() {
        "" => 0,
        typed => cents(typed).ok_or("sales.error.price")?,
    };
    Ok((days, nights, supplement))
}

/// A departure city: an airport or station code (2 to 5 letters or digits, kept upper
/// case) and a name.
pub fn city(code: &str, name: &str) -> Result<(String, String), &'static str> {
    let code = code.trim().to_ascii_uppercase();
    let name: String = name.trim().chars().filter(|c| !c.is_control()).collect();
    if !(2..=5).contains(&code.len()) || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("travel.error.code");
    }
    if name.is_empty() || name.chars().count() > 80 {
        return Err("travel.error.name");
    }
    Ok((code, name))
}

/// A package's title: 1 to 120 characters.
pub fn title(title: &str) -> Result<String, &'static str> {
    let title: String = title.trim().chars().filter(|c| !c.is_control()).collect();
    if title.is_empty() || title.chars().count() > 120 {
        return Err("travel.error.name");
    }
    Ok(title)
}

/// Who may book together: at least one traveller, the most not below the least.
pub fn party(min: &str, max: &str) -> Result<(i64, i64), &'static str> {
    let min = whole(min, 1..=MAX_PARTY).ok_or("travel.error.party")?;
    let max = whole(max, min..=MAX_PARTY).ok_or("travel.error.party")?;
    Ok((min, max))
}

/// The places of one departure.
pub fn places(s: &str) -> Option<i64> {
    whole(s, 0..=MAX_PLACES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> SeasonFields {
        SeasonFields {
            first_day: "2027-01-04".into(),
            last_day: "2027-03-28".into(),
            wd0: Some("on".into()),
            wd5: Some("on".into()),
            price: "499".into(),
            reference_price: "699,90".into(),
            places: "40".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_season_reads_its_days_weekdays_prices_and_places() {
        let s = season(&fields()).unwrap();
        assert_eq!(s.weekdays, 0b10_0001, "Monday and Saturday");
        assert_eq!((s.price, s.reference_price, s.places), (49_900, 69_990, 40));
        for (change, key) in [
            (
                &(|f: &mut SeasonFields| f.last_day = "2027-01-01".into())
                    as &dyn Fn(&mut SeasonFields),
                "travel.error.days",
            ),
            (
                &|f: &mut SeasonFields| f.first_day = "04/01/2027".into(),
                "travel.error.days",
            ),
            (
                &|f: &mut SeasonFields| f.last_day = "2030-01-01".into(),
                "travel.error.days",
            ),
            (
                &|f: &mut SeasonFields| {
                    f.wd0 = None;
                    f.wd5 = None
                },
                "travel.error.weekdays",
            ),
            (
                &|f: &mut SeasonFields| f.reference_price = "400".into(),
                "sales.error.retail_below",
            ),
            (
                &|f: &mut SeasonFields| f.price = "cheap".into(),
                "sales.error.price",
            ),
            (
                &|f: &mut SeasonFields| f.places = "-1".into(),
                "travel.error.places",
            ),
            (
                &|f: &mut SeasonFields| f.places = "10001".into(),
                "travel.error.places",
            ),
        ] {
            let mut f = fields();
            change(&mut f);
            assert_eq!(season(&f), Err(key));
        }
    }

    #[test]
    fn durations_cities_titles_and_parties() {
        assert_eq!(duration("8", "7", ""), Ok((8, 7, 0)));
        assert_eq!(duration("8", "7", "120"), Ok((8, 7, 12_000)));
        for (d, n) in [("0", "0"), ("8", "8"), ("61", "60"), ("x", "1")] {
            assert_eq!(duration(d, n, ""), Err("travel.error.duration"), "{d} {n}");
        }
        assert_eq!(city(" cdg ", "Paris"), Ok(("CDG".into(), "Paris".into())));
        assert_eq!(city("C", "Paris"), Err("travel.error.code"));
        assert_eq!(city("C-DG", "Paris"), Err("travel.error.code"));
        assert_eq!(city("LYS", " \u{7} "), Err("travel.error.name"));
        assert_eq!(title("  Séjour Crète  "), Ok("Séjour Crète".into()));
        assert_eq!(party("1", "9"), Ok((1, 9)));
        for (min, max) in [("0", "4"), ("5", "4"), ("1", "21")] {
            assert_eq!(party(min, max), Err("travel.error.party"), "{min} {max}");
        }
        assert_eq!(places("0"), Some(0));
        assert_eq!(places("1.5"), None);
    }
}

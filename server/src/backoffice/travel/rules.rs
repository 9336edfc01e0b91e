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

/// The "make it a trip" form.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TripFields {
    pub destination: String,
    pub latitude: String,
    pub longitude: String,
    pub trip_type: String,
    pub board: String,
    pub accommodation: String,
    pub rating: String,
    pub transport: String,
    /// One highlight per line.
    pub highlights: String,
    pub party_min: String,
    pub party_max: String,
}

/// A trip's description in the travel catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct Trip {
    pub destination_id: i64,
    pub lat_e6: i64,
    pub lng_e6: i64,
    pub trip_type: &'static str,
    pub board: &'static str,
    pub accommodation: &'static str,
    pub rating: i64,
    pub transport: &'static str,
    pub highlights: Vec<String>,
    pub party: (i64, i64),
}

/// Highlights of a trip at most, and characters of one.
pub const MAX_HIGHLIGHTS: usize = 8;
const MAX_HIGHLIGHT_CHARS: usize = 200;

/// Degrees (`43.7102`, or `43,7102` as typed in French) in millionths, within `limit`.
fn degrees(s: &str, limit: f64) -> Option<i64> {
    let d: f64 = s.trim().replace(',', ".").parse().ok()?;
    (d.is_finite() && d.abs() <= limit).then(|| (d * 1e6).round() as i64)
}

fn one_of(value: &str, allowed: &[&'static str]) -> Option<&'static str> {
    allowed.iter().copied().find(|a| *a == value.trim())
}

/// A trip's description, or every field's error (field name, key).
pub fn trip(f: &TripFields) -> Result<Trip, Vec<(&'static str, &'static str)>> {
    use app::travel::rules::offer::{ACCOMMODATIONS, BOARDS, RATINGS, TRANSPORTS, TRIP_TYPES};
    let mut errors = Vec::new();
    let destination_id = f.destination.trim().parse::<i64>().ok();
    if destination_id.is_none() {
        errors.push(("destination", "trip.error.destination"));
    }
    let lat = degrees(&f.latitude, 90.0);
    let lng = degrees(&f.longitude, 180.0);
    if lat.is_none() {
        errors.push(("latitude", "trip.error.latitude"));
    }
    if lng.is_none() {
        errors.push(("longitude", "trip.error.longitude"));
    }
    let trip_type = one_of(&f.trip_type, &TRIP_TYPES);
    let board = one_of(&f.board, &BOARDS);
    let accommodation = one_of(&f.accommodation, &ACCOMMODATIONS);
    let transport = one_of(&f.transport, &TRANSPORTS);
    for (field, ok) in [
        ("trip_type", trip_type.is_some()),
        ("board", board.is_some()),
        ("accommodation", accommodation.is_some()),
        ("transport", transport.is_some()),
    ] {
        if !ok {
            errors.push((field, "trip.error.choice"));
        }
    }
    let rating = whole(&f.rating, *RATINGS.start()..=*RATINGS.end());
    if rating.is_none() {
        errors.push(("rating", "trip.error.rating"));
    }
    let highlights: Vec<String> = f
        .highlights
        .lines()
        .map(|l| {
            l.trim()
                .chars()
                .filter(|c| !c.is_control())
                .collect::<String>()
        })
        .filter(|l| !l.is_empty())
        .collect();
    if highlights.len() > MAX_HIGHLIGHTS
        || highlights
            .iter()
            .any(|h| h.chars().count() > MAX_HIGHLIGHT_CHARS)
    {
        errors.push(("highlights", "trip.error.highlights"));
    }
    let party = party(&f.party_min, &f.party_max);
    if party.is_err() {
        errors.push(("party_min", "travel.error.party"));
    }
    match (
        destination_id,
        lat,
        lng,
        trip_type,
        board,
        accommodation,
        rating,
        transport,
        party,
    ) {
        (
            Some(destination_id),
            Some(lat_e6),
            Some(lng_e6),
            Some(trip_type),
            Some(board),
            Some(accommodation),
            Some(rating),
            Some(transport),
            Ok(party),
        ) if errors.is_empty() => Ok(Trip {
            destination_id,
            lat_e6,
            lng_e6,
            trip_type,
            board,
            accommodation,
            rating,
            transport,
            highlights,
            party,
        }),
        _ => Err(errors),
    }
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

    fn trip_fields() -> TripFields {
        TripFields {
            destination: "105".into(),
            latitude: "43,7102".into(),
            longitude: "7.262".into(),
            trip_type: "stay".into(),
            board: "half_board".into(),
            accommodation: "hotel".into(),
            rating: "4".into(),
            transport: "flight".into(),
            highlights: "Vue sur la mer\n\n  Piscine chauffée \n".into(),
            party_min: "1".into(),
            party_max: "6".into(),
        }
    }

    #[test]
    fn a_trip_reads_its_place_kind_and_highlights() {
        let t = trip(&trip_fields()).unwrap();
        assert_eq!((t.lat_e6, t.lng_e6), (43_710_200, 7_262_000));
        assert_eq!((t.board, t.rating, t.party), ("half_board", 4, (1, 6)));
        assert_eq!(t.highlights, ["Vue sur la mer", "Piscine chauffée"]);
        let mut f = trip_fields();
        f.latitude = "91".into();
        f.longitude = "east".into();
        f.board = "buffet".into();
        f.rating = "6".into();
        f.highlights = "x\n".repeat(MAX_HIGHLIGHTS + 1);
        f.party_max = "0".into();
        assert_eq!(
            trip(&f).unwrap_err(),
            vec![
                ("latitude", "trip.error.latitude"),
                ("longitude", "trip.error.longitude"),
                ("board", "trip.error.choice"),
                ("rating", "trip.error.rating"),
                ("highlights", "trip.error.highlights"),
                ("party_min", "travel.error.party"),
            ]
        );
        f = trip_fields();
        f.latitude = "NaN".into();
        assert!(trip(&f).is_err(), "not a number is no place");
    }
}

/// What the catalog and the trip page show of a trip beyond the "make it a trip" form:
/// themes, instalments, a renowned brand, a perk, tabs and the lowest price of 30 days.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    pub themes: Vec<String>,
    pub payment_facilities: Vec<String>,
    pub renowned_brand: bool,
    pub perk: String,
    /// Title and text of each tab.
    pub tabs: Vec<(String, String)>,
    /// Empty: the product's price.
    pub lowest_price: String,
}

/// A checked description, as `travel_offers` stores it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Described {
    pub thematics: String,
    pub payment_facilities: String,
    pub notorious_brand: i64,
    pub benefit: Option<String>,
    pub tabs_json: String,
    pub lowest_30d_cents: i64,
}

/// Tabs of a trip page at most, and characters of a tab's text and of a perk.
pub const MAX_TABS: usize = 8;
const MAX_TAB_TEXT: usize = 4000;
const MAX_PERK: usize = 200;

fn plain(s: &str, max: usize) -> Option<String> {
    let t: String = s.trim().chars().filter(|c| !c.is_control()).collect();
    (!t.is_empty() && t.chars().count() <= max).then_some(t)
}

/// Known words, each once, as the offer stores them (`beach,spa`); none if one is unknown.
fn words_of(values: &[String], known: &[&str]) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for v in values {
        let k = known.iter().find(|k| k.eq_ignore_ascii_case(v.trim()))?;
        if !out.contains(k) {
            out.push(k);
        }
    }
    Some(out.join(","))
}

/// The description checked for a trip priced `price_cents`, or each field's error (a tab's
/// field is `tabs[i]`).
pub fn description(
    d: &Description,
    price_cents: i64,
) -> Result<Described, Vec<(String, &'static str)>> {
    use app::travel::rules::offer::{PAYMENT_FACILITIES, THEMES};
    let mut errors = Vec::new();
    let thematics = words_of(&d.themes, &THEMES);
    if thematics.is_none() {
        errors.push(("themes".to_string(), "import.choice"));
    }
    let facilities = words_of(&d.payment_facilities, &PAYMENT_FACILITIES);
    if facilities.is_none() {
        errors.push(("payment_facilities".to_string(), "import.choice"));
    }
    let perk = match d.perk.trim() {
        "" => None,
        p => {
            let checked = plain(p, MAX_PERK);
            if checked.is_none() {
                errors.push(("perk".to_string(), "import.text"));
            }
            checked
        }
    };
    if d.tabs.len() > MAX_TABS {
        errors.push(("tabs".to_string(), "import.tabs"));
    }
    let mut tabs = Vec::new();
    for (i, (title, text)) in d.tabs.iter().enumerate() {
        match (plain(title, 80), plain(text, MAX_TAB_TEXT)) {
            (Some(title), Some(content)) => {
                tabs.push(serde_json::json!({ "title": title, "content": content }))
            }
            _ => errors.push((format!("tabs[{i}]"), "import.text")),
        }
    }
    let lowest = match d.lowest_price.trim() {
        "" => Some(price_cents),
        p => cents(p),
    };
    if lowest.is_none() {
        errors.push(("lowest_price_30_days".to_string(), "import.amount"));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Described {
        thematics: thematics.unwrap_or_default(),
        payment_facilities: facilities.unwrap_or_default(),
        notorious_brand: i64::from(d.renowned_brand),
        benefit: perk,
        tabs_json: serde_json::Value::Array(tabs).to_string(),
        lowest_30d_cents: lowest.unwrap_or_default(),
    })
}

//! Money and date formatting per site locale (CLDR patterns for euro amounts).

/// Formats an amount in euro cents the way the site's locale writes it.
pub fn money(locale: &str, cents: i64) -> String {
    let negative = cents < 0;
    let cents = cents.unsigned_abs();
    let units = cents / 100;
    let frac = cents % 100;
    // Grouping separator and whether the euro sign goes first, per CLDR.
    let (group, min_grouping, prefix) = match locale {
        "fr-FR" | "fr-BE" => ('\u{202f}', 1, false),
        "fr-LU" => ('.', 1, false),
        "es-ES" => ('.', 2, false),
        "de-AT" | "nl-BE" | "nl-NL" => ('.', 1, true),
        _ => ('.', 1, false), // de-DE, it-IT
    };
    let digits = units.to_string();
    let grouped = if digits.len() >= 3 + min_grouping {
        group_digits(&digits, group)
    } else {
        digits
    };
    let number = format!("{grouped},{frac:02}");
    let sign = if negative { "-" } else { "" };
    if prefix {
        format!("€\u{a0}{sign}{number}")
    } else {
        format!("{sign}{number}\u{a0}€")
    }
}

fn group_digits(digits: &str, sep: char) -> String {
    let mut out = String::new();
    let len = digits.len();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (len - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// A civil date (proleptic Gregorian), enough for display; no time zone database needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
}

/// Converts unix seconds to a civil date-time at a fixed UTC offset (H. Hinnant's algorithm).
pub fn civil_from_unix(secs: i64, offset_secs: i64) -> Civil {
    let secs = secs + offset_secs;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Civil {
        year,
        month,
        day,
        hour: (rem / 3600) as u32,
        minute: ((rem % 3600) / 60) as u32,
    }
}

/// Central European time: the sites all live in it. Summer time is ignored on purpose
/// (a displayed end date may be one hour early in summer, never late).
pub const DISPLAY_OFFSET_SECS: i64 = 3600;

/// Formats a date with a site pattern such as `DD/MM/YYYY`, `DD.MM.YYYY` or `YYYY-MM-DD`.
pub fn date(pattern: &str, unix_secs: i64) -> String {
    let c = civil_from_unix(unix_secs, DISPLAY_OFFSET_SECS);
    pattern
        .replace("YYYY", &format!("{:04}", c.year))
        .replace("MM", &format!("{:02}", c.month))
        .replace("DD", &format!("{:02}", c.day))
}

/// A day written `YYYY-MM-DD` (as stored) in a site pattern; `None` when it is no such day.
pub fn iso_day(pattern: &str, iso: &str) -> Option<String> {
    let b = iso.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    (b.len() == 10 && b[4] == b'-' && b[7] == b'-' && digits(0..4) && digits(5..7) && digits(8..10))
        .then(|| {
            pattern
                .replace("YYYY", &iso[0..4])
                .replace("MM", &iso[5..7])
                .replace("DD", &iso[8..10])
        })
}

/// `HH:MM` in the display time zone.
pub fn time(unix_secs: i64) -> String {
    let c = civil_from_unix(unix_secs, DISPLAY_OFFSET_SECS);
    format!("{:02}:{:02}", c.hour, c.minute)
}

/// Percentage off the retail price, rounded to the nearest whole percent.
pub fn discount_percent(price_cents: i64, retail_cents: i64) -> Option<i64> {
    if retail_cents <= 0 || price_cents >= retail_cents || price_cents < 0 {
        return None;
    }
    Some(((retail_cents - price_cents) * 100 + retail_cents / 2) / retail_cents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_follows_each_locale() {
        assert_eq!(money("fr-FR", 123_456), "1\u{202f}234,56\u{a0}€");
        assert_eq!(money("fr-BE", 999), "9,99\u{a0}€");
        assert_eq!(money("fr-LU", 123_456), "1.234,56\u{a0}€");
        assert_eq!(money("de-DE", 123_456), "1.234,56\u{a0}€");
        assert_eq!(money("it-IT", 123_456_789), "1.234.567,89\u{a0}€");
        assert_eq!(money("de-AT", 123_456), "€\u{a0}1.234,56");
        assert_eq!(money("nl-NL", 4_990), "€\u{a0}49,90");
        assert_eq!(money("nl-BE", 123_456), "€\u{a0}1.234,56");
        // Spanish groups only from five digits on.
        assert_eq!(money("es-ES", 123_456), "1234,56\u{a0}€");
        assert_eq!(money("es-ES", 1_234_500), "12.345,00\u{a0}€");
        assert_eq!(money("fr-FR", -250), "-2,50\u{a0}€");
        assert_eq!(money("fr-FR", 0), "0,00\u{a0}€");
    }

    #[test]
    fn civil_dates_match_known_instants() {
        assert_eq!(
            civil_from_unix(0, 0),
            Civil {
                year: 1970,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0
            }
        );
        // 2026-11-22T04:51:00Z
        assert_eq!(
            civil_from_unix(1_795_323_060, 0),
            Civil {
                year: 2026,
                month: 11,
                day: 22,
                hour: 4,
                minute: 51
            }
        );
        // 2024-02-29T23:30:00Z is already 1 March in CET.
        let leap = 1_709_249_400;
        assert_eq!(date("DD/MM/YYYY", leap), "01/03/2024");
        assert_eq!(date("DD.MM.YYYY", leap - 3600), "29.02.2024");
        assert_eq!(date("DD-MM-YYYY", leap - 7200), "29-02-2024");
        assert_eq!(date("YYYY-MM-DD", leap - 7200), "2024-02-29");
    }

    #[test]
    fn discount_rounds_and_refuses_nonsense() {
        assert_eq!(discount_percent(3_000, 10_000), Some(70));
        assert_eq!(discount_percent(6_667, 10_000), Some(33));
        assert_eq!(discount_percent(10_000, 10_000), None);
        assert_eq!(discount_percent(100, 0), None);
    }
}

//! Civil dates (`YYYY-MM-DD`) and the filter format `DDMMYY`.
//!
//! Done by hand on purpose: the app crate has no date crate (neither chrono nor time in
//! `app/Cargo.toml`), these rules compile for the browser too, and they need only a strict
//! parse, adding days and full years between two dates. Howard Hinnant's days-from-civil
//! algorithm (days since 1970-01-01 in the proleptic Gregorian calendar, and back) covers
//! that in a few lines instead of a dependency in the WASM bundle. Nothing here reads the
//! clock: callers pass the dates.
use std::fmt;

pub use crate::model::travel::{flex_wire, FLEX_DAYS};

/// The flexibility a URL's `flex` asks for: 1, 3 or 7 days; the yes/no flag it was before
/// (`true`, `on`, `yes`) is the 3 days that flag meant; anything else, exact dates.
pub fn flex_days(v: &str) -> u8 {
    match v.trim() {
        "true" | "on" | "yes" => 3,
        v => v
            .parse::<u8>()
            .ok()
            .filter(|d| FLEX_DAYS.contains(d))
            .unwrap_or(0),
    }
}

/// A day of the proleptic Gregorian calendar. Ordering is the tuple (year, month, day).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

pub(super) fn is_leap(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub(super) fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days since 1970-01-01 (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400); // [0, 399]
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i32, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as i32, month, day)
}

fn two_digits(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    (b.len() == 2 && b.iter().all(u8::is_ascii_digit))
        .then(|| u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0'))
}

impl Date {
    /// `None` unless the day exists (no 2026-02-30).
    pub fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        (day >= 1 && day <= days_in_month(year, month)).then_some(Date { year, month, day })
    }

    /// Strictly `YYYY-MM-DD` with zero padding: rejects `2026-2-3`, `2026-02-30`, spaces.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        // ASCII dashes at 4 and 7 make every slice below fall on character boundaries.
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !b[..4].iter().all(u8::is_ascii_digit) {
            return None;
        }
        let year = s[0..4].parse::<i32>().ok()?;
        Date::new(year, two_digits(&s[5..7])?, two_digits(&s[8..10])?)
    }

    /// The day of a unix time, in UTC.
    pub fn from_unix(secs: i64) -> Date {
        let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
        Date { year, month, day }
    }

    /// 0 for Monday ... 6 for Sunday (1970-01-01 was a Thursday).
    pub fn weekday(self) -> u32 {
        (days_from_civil(self.year, self.month, self.day) + 3).rem_euclid(7) as u32
    }

    /// Days from `self` to `other` (negative when `other` is earlier).
    pub fn days_until(self, other: Date) -> i64 {
        days_from_civil(other.year, other.month, other.day)
            - days_from_civil(self.year, self.month, self.day)
    }

    pub fn add_days(self, n: i64) -> Date {
        let (year, month, day) =
            civil_from_days(days_from_civil(self.year, self.month, self.day) + n);
        Date { year, month, day }
    }

    /// The same day `n` years earlier; Feb 29 becomes Feb 28 in a common year, which keeps
    /// "born on or before this date" equal to "at least `n` full years old on `self`".
    pub fn years_before(self, n: u32) -> Date {
        let year = i32::try_from(i64::from(self.year) - i64::from(n)).unwrap_or(i32::MIN);
        Date {
            year,
            month: self.month,
            day: self.day.min(days_in_month(year, self.month)),
        }
    }

    /// Full years of someone born on `birth` on this day (the birthday is reached when the
    /// (month, day) tuple is reached, so a Feb 29 birthday counts from Mar 1 in common
    /// years); `None` if born after this day.
    pub fn age_of(self, birth: Date) -> Option<u32> {
        if birth > self {
            return None;
        }
        let before_birthday = (self.month, self.day) < (birth.month, birth.day);
        Some((self.year - birth.year - i32::from(before_birthday)) as u32)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// `2027-03-06` -> `060327`. Years outside 2000–2099 are refused, since `DDMMYY` could not
/// bring them back.
pub fn to_filter_date(iso: &str) -> Option<String> {
    let d = Date::parse(iso)?;
    (2000..=2099)
        .contains(&d.year)
        .then(|| format!("{:02}{:02}{:02}", d.day, d.month, d.year - 2000))
}

/// `060327` -> `2027-03-06` (the century is always 20); `None` unless six digits forming a
/// real day.
pub fn from_filter_date(ddmmyy: &str) -> Option<String> {
    if ddmmyy.len() != 6 || !ddmmyy.is_char_boundary(2) || !ddmmyy.is_char_boundary(4) {
        return None;
    }
    let day = two_digits(&ddmmyy[0..2])?;
    let month = two_digits(&ddmmyy[2..4])?;
    let year = 2000 + two_digits(&ddmmyy[4..6])? as i32;
    Date::new(year, month, day).map(|d| d.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_is_strict() {
        assert_eq!(
            Date::parse("2026-02-03"),
            Some(Date {
                year: 2026,
                month: 2,
                day: 3
            })
        );
        for bad in [
            "2026-02-30",
            "2026-2-3",
            "2026-02-3",
            "2026/02/03",
            " 2026-02-03",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "2027-02-29",
            "+026-02-03",
            "2026-0a-03",
            "",
            "2026-02-031",
            "2026-é-03",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        assert!(Date::parse("2028-02-29").is_some());
        assert!(Date::parse("2000-02-29").is_some());
        assert!(Date::parse("1900-02-29").is_none());
    }

    #[test]
    fn days_round_trip_through_the_epoch_count() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        let mut d = Date::new(1899, 12, 25).unwrap();
        for _ in 0..(365 * 300) {
            let next = d.add_days(1);
            assert!(next > d);
            assert_eq!(Date::new(next.year, next.month, next.day), Some(next));
            assert_eq!(next.add_days(-1), d);
            d = next;
        }
    }

    #[test]
    fn years_before_and_age() {
        let d = |s| Date::parse(s).unwrap();
        assert_eq!(d("2028-02-29").years_before(2), d("2026-02-28"));
        assert_eq!(d("2028-02-29").years_before(4), d("2024-02-29"));
        assert_eq!(d("2027-03-10").years_before(u32::MAX).year, i32::MIN);
        assert_eq!(d("2027-03-10").age_of(d("2025-03-10")), Some(2));
        assert_eq!(d("2027-03-10").age_of(d("2025-03-11")), Some(1));
        assert_eq!(d("2027-03-10").age_of(d("2027-03-11")), None);
        assert_eq!(d("2028-02-28").age_of(d("2024-02-29")), Some(3));
        assert_eq!(d("2028-02-29").age_of(d("2024-02-29")), Some(4));
    }

    #[test]
    fn filter_dates_round_trip() {
        assert_eq!(to_filter_date("2027-03-06").as_deref(), Some("060327"));
        assert_eq!(from_filter_date("060327").as_deref(), Some("2027-03-06"));
        assert_eq!(to_filter_date("2000-01-01").as_deref(), Some("010100"));
        assert_eq!(from_filter_date("311299").as_deref(), Some("2099-12-31"));
        assert_eq!(from_filter_date("290228").as_deref(), Some("2028-02-29"));
        for iso in ["2026-12-31", "2028-02-29", "2030-07-14"] {
            assert_eq!(
                from_filter_date(&to_filter_date(iso).unwrap()).as_deref(),
                Some(iso)
            );
        }
    }

    #[test]
    fn filter_dates_reject_invalid() {
        for bad in [
            "2027-3-6",
            "2027-02-30",
            "1999-12-31",
            "2100-01-01",
            "06/03/27",
            "",
        ] {
            assert_eq!(to_filter_date(bad), None, "{bad}");
        }
        for bad in [
            "290227", "320127", "001027", "011327", "0603027", "06032", "06-327", "a60327",
            "+60327", "0603é",
        ] {
            assert_eq!(from_filter_date(bad), None, "{bad}");
        }
    }
}

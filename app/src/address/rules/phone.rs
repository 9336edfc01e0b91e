//! Phone numbers: what is kept (digits, `+` for an international number) and how each site
//! writes them (spec 001 §5: ES groups digits in threes, IT splits after the first three,
//! FR groups in twos, DE splits after the first two). Sites the spec does not name follow
//! their language's model: Austria as Germany; Belgium and the Netherlands as France;
//! Luxembourg, whose mobile numbers have nine digits, as Spain.
use super::ErrorType;
use crate::address::model::PhoneFormat;

/// How a site groups the digits of a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhoneStyle {
    /// FR: `06 12 34 56 78`.
    Pairs,
    /// ES: `612 345 678`.
    Threes,
    /// IT: `312 3456789`.
    AfterThree,
    /// DE: `01 711234567`.
    AfterTwo,
}

impl PhoneStyle {
    pub fn for_site(site_id: u16) -> PhoneStyle {
        match crate::site::by_id(site_id).map(|s| s.country_code) {
            // Luxembourg's nine-digit mobiles read in threes (621 123 456).
            Some("ES" | "LU") => PhoneStyle::Threes,
            Some("IT") => PhoneStyle::AfterThree,
            Some("DE" | "AT") => PhoneStyle::AfterTwo,
            _ => PhoneStyle::Pairs,
        }
    }

    /// The first group's size, then the size of every later group (none: one group).
    pub fn groups(self) -> (usize, Option<usize>) {
        match self {
            PhoneStyle::Pairs => (2, Some(2)),
            PhoneStyle::Threes => (3, Some(3)),
            PhoneStyle::AfterThree => (3, None),
            PhoneStyle::AfterTwo => (2, None),
        }
    }

    pub fn wire(self, example: &str) -> PhoneFormat {
        let (first, rest) = self.groups();
        PhoneFormat {
            first,
            rest,
            example: example.into(),
        }
    }
}

/// Calling codes of the delivery countries, and whether their national numbers start with
/// a trunk `0` (dropped after the calling code).
const CALLING_CODES: [(&str, &str, bool); 8] = [
    ("FR", "33", true),
    ("DE", "49", true),
    ("ES", "34", false),
    ("IT", "39", false),
    ("AT", "43", true),
    ("BE", "32", true),
    ("LU", "352", false),
    ("NL", "31", true),
];

pub const MIN_DIGITS: usize = 6;
/// E.164's longest number.
pub const MAX_DIGITS: usize = 15;

/// The number as kept: digits, after a `+` when international (`00` becomes `+`). Spaces,
/// dots, dashes, slashes and brackets are what people type between groups; anything else
/// is refused ([`ErrorType::Characters`]), as is a count of digits no number has
/// ([`ErrorType::Wrong`]).
pub fn normalize_phone(input: &str) -> Result<String, ErrorType> {
    let trimmed = input.trim();
    let (plus, rest) = match trimmed.strip_prefix('+') {
        Some(r) => (true, r),
        None => (false, trimmed),
    };
    let mut digits = String::new();
    for c in rest.chars() {
        match c {
            '0'..='9' => digits.push(c),
            ' ' | '.' | '-' | '/' | '(' | ')' => {}
            _ => return Err(ErrorType::Characters),
        }
    }
    let (plus, digits) = match digits.strip_prefix("00") {
        Some(d) if !plus => (true, d.to_string()),
        _ => (plus, digits),
    };
    if !(MIN_DIGITS..=MAX_DIGITS).contains(&digits.len()) {
        return Err(ErrorType::Wrong);
    }
    Ok(if plus { format!("+{digits}") } else { digits })
}

fn group(digits: &str, style: PhoneStyle) -> String {
    let (first, rest) = style.groups();
    group_by(digits, first, rest)
}

/// Digits in a first group of `first`, then groups of `rest` (none: the rest as one). The
/// address form groups a number this way as the member types it (its TypeScript twin,
/// `frontend-react/src/pages/key-filters.ts`, reads `app/tests/vectors/phone_groups.json`
/// in its tests, as this does).
pub fn group_by(digits: &str, first: usize, rest: Option<usize>) -> String {
    let chars: Vec<char> = digits.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    let mut size = first;
    while at < chars.len() {
        if !out.is_empty() {
            out.push(' ');
        }
        let end = at.saturating_add(size).min(chars.len());
        out.extend(&chars[at..end]);
        at = end;
        size = rest.unwrap_or(usize::MAX);
    }
    out
}

/// A kept number as the site writes it. An international number of a delivery country
/// is grouped as its national form (trunk `0` put back, then dropped): `+33 6 12 34 56 78`.
/// Anything else (another country, a stray value) is shown as it is.
pub fn format_phone(stored: &str, style: PhoneStyle) -> String {
    let Some(international) = stored.strip_prefix('+') else {
        return if stored.bytes().all(|b| b.is_ascii_digit()) {
            group(stored, style)
        } else {
            stored.to_string()
        };
    };
    if !international.bytes().all(|b| b.is_ascii_digit()) {
        return stored.to_string();
    }
    let Some((code, national, trunk)) = CALLING_CODES
        .iter()
        .find_map(|(_, code, trunk)| Some((*code, international.strip_prefix(code)?, *trunk)))
    else {
        return stored.to_string();
    };
    let grouped = if trunk {
        let with_trunk = group(&format!("0{national}"), style);
        with_trunk[1..].trim_start().to_string()
    } else {
        group(national, style)
    };
    format!("+{code} {grouped}")
}

#[cfg(test)]
mod vector_tests {
    use super::group_by;

    #[test]
    fn groups_as_the_shared_vectors_say() {
        let v: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/vectors/phone_groups.json")).unwrap();
        let cases = v["cases"].as_array().unwrap();
        assert!(cases.len() >= 6);
        for c in cases {
            let rest = c["rest"].as_u64().map(|r| r as usize);
            let first = c["first"].as_u64().unwrap() as usize;
            let digits = c["digits"].as_str().unwrap();
            assert_eq!(
                group_by(digits, first, rest),
                c["grouped"].as_str().unwrap(),
                "{digits}"
            );
        }
    }
}

//! The country list of registration (spec 000 §5 "Country list entries: countryCode,
//! flagText, flagUrl"): the countries the shop delivers to, which are its sites' countries.
//! Pure: the page, the REST call and the flag pictures share it.
use serde::{Deserialize, Serialize};

/// A country: ISO 3166-1 alpha-2 code, its name in its own language, and its flag's three
/// bands (`vertical` bands left to right, else top to bottom) with their heights in parts.
pub struct Country {
    pub code: &'static str,
    pub name: &'static str,
    pub vertical: bool,
    pub bands: [(&'static str, u8); 3],
}

/// The shop's countries, by code. Every one of them has a three-band flag, drawn as such
/// (Spain's without its coat of arms, Austria's and Luxembourg's as they are).
pub const COUNTRIES: [Country; 8] = [
    Country {
        code: "AT",
        name: "Österreich",
        vertical: false,
        bands: [("#c8102e", 1), ("#ffffff", 1), ("#c8102e", 1)],
    },
    Country {
        code: "BE",
        name: "Belgique / België",
        vertical: true,
        bands: [("#000000", 1), ("#fdda24", 1), ("#ef3340", 1)],
    },
    Country {
        code: "DE",
        name: "Deutschland",
        vertical: false,
        bands: [("#000000", 1), ("#dd0000", 1), ("#ffce00", 1)],
    },
    Country {
        code: "ES",
        name: "España",
        vertical: false,
        bands: [("#aa151b", 1), ("#f1bf00", 2), ("#aa151b", 1)],
    },
    Country {
        code: "FR",
        name: "France",
        vertical: true,
        bands: [("#002654", 1), ("#ffffff", 1), ("#ce1126", 1)],
    },
    Country {
        code: "IT",
        name: "Italia",
        vertical: true,
        bands: [("#009246", 1), ("#ffffff", 1), ("#ce2b37", 1)],
    },
    Country {
        code: "LU",
        name: "Lëtzebuerg",
        vertical: false,
        bands: [("#ef3340", 1), ("#ffffff", 1), ("#00a3e0", 1)],
    },
    Country {
        code: "NL",
        name: "Nederland",
        vertical: false,
        bands: [("#ae1c28", 1), ("#ffffff", 1), ("#21468b", 1)],
    },
];

/// One entry of the list as the REST call and the registration form give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CountryEntry {
    pub country_code: String,
    /// The flag as text: the code's two regional-indicator letters (an emoji flag).
    pub flag_text: String,
    pub flag_url: String,
    /// The country's name in its own language.
    pub label: String,
}

pub fn by_code(code: &str) -> Option<&'static Country> {
    COUNTRIES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(code.trim()))
}

/// `FR` → 🇫🇷: each letter as its regional indicator symbol.
pub fn flag_text(code: &str) -> String {
    code.chars()
        .filter(char::is_ascii_alphabetic)
        .filter_map(|c| char::from_u32(0x1F1E6 + (c.to_ascii_uppercase() as u32 - 'A' as u32)))
        .collect()
}

pub fn flag_url(code: &str) -> String {
    format!("/img/flag/{code}.svg")
}

/// The list, the site's own country first, then by code.
pub fn country_list(site_country: &str) -> Vec<CountryEntry> {
    let mut list: Vec<&Country> = COUNTRIES.iter().collect();
    list.sort_by_key(|c| (c.code != site_country, c.code));
    list.into_iter()
        .map(|c| CountryEntry {
            country_code: c.code.to_string(),
            flag_text: flag_text(c.code),
            flag_url: flag_url(c.code),
            label: c.name.to_string(),
        })
        .collect()
}

/// The flag of `code` as an SVG picture (3:2), or `None` for a country not in the list.
pub fn flag_svg(code: &str) -> Option<String> {
    let c = by_code(code)?;
    let parts: u32 = c.bands.iter().map(|(_, n)| u32::from(*n)).sum();
    let (w, h) = (30u32, 20u32);
    let mut at = 0u32;
    let mut rects = String::new();
    for (colour, n) in c.bands {
        let n = u32::from(n);
        let rect = if c.vertical {
            let (x, width) = (w * at / parts, w * n / parts);
            format!(r#"<rect x="{x}" y="0" width="{width}" height="{h}" fill="{colour}"/>"#)
        } else {
            let (y, height) = (h * at / parts, h * n / parts);
            format!(r#"<rect x="0" y="{y}" width="{w}" height="{height}" fill="{colour}"/>"#)
        };
        rects.push_str(&rect);
        at += n;
    }
    Some(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">{rects}</svg>"#
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_country_comes_first_and_every_entry_has_its_flag() {
        let list = country_list("BE");
        assert_eq!(list[0].country_code, "BE");
        assert_eq!(list.len(), COUNTRIES.len());
        let fr = list.iter().find(|c| c.country_code == "FR").unwrap();
        assert_eq!(fr.flag_text, "🇫🇷");
        assert_eq!(fr.flag_url, "/img/flag/FR.svg");
        assert_eq!(fr.label, "France");
        let codes: Vec<&str> = list[1..].iter().map(|c| c.country_code.as_str()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(codes, sorted);
    }

    #[test]
    fn flags_are_three_bands_filling_the_picture() {
        let fr = flag_svg("fr").unwrap();
        assert!(fr.contains(r##"<rect x="20" y="0" width="10" height="20" fill="#ce1126"/>"##));
        // Spain's middle band is twice the others.
        let es = flag_svg("ES").unwrap();
        assert!(es.contains(r##"<rect x="0" y="5" width="30" height="10" fill="#f1bf00"/>"##));
        assert_eq!(flag_svg("US"), None);
        assert_eq!(flag_svg("../x"), None);
        assert!(by_code(" nl ").is_some());
    }
}

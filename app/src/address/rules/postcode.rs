//! Zip codes of the countries the 11 sites deliver to: the format of each country, and the
//! zip codes not delivered to. Those are the places outside the EU customs and VAT
//! territory (Directive 2006/112/EC art. 6: the Canary Islands, Ceuta, Melilla, Livigno,
//! Campione d'Italia, Heligoland, Büsingen, the French overseas departments), San Marino
//! and the Vatican (other states with Italian codes), and the letter pairs Dutch codes never
//! use. Shipping there needs customs papers a flash sale does not make.
use super::ErrorType;

/// One country's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZipRule {
    pub country: &'static str,
    /// Digits of the code (NL: then two letters).
    pub digits: usize,
    /// A code the page shows as an example.
    pub example: &'static str,
    /// For clients (HTML `pattern`, other apps); [`normalize_zip`] is what the server runs.
    pub pattern: &'static str,
    /// Codes, or the first digits of codes, not delivered to.
    pub forbidden: &'static [&'static str],
    pub max_length: usize,
}

pub const ZIP_RULES: [ZipRule; 8] = [
    ZipRule {
        country: "FR",
        digits: 5,
        example: "75011",
        pattern: "^[0-9]{5}$",
        // Overseas departments and collectivities, Monaco.
        forbidden: &["97", "98"],
        max_length: 5,
    },
    ZipRule {
        country: "DE",
        digits: 5,
        example: "10115",
        pattern: "^[0-9]{5}$",
        // Heligoland, Büsingen am Hochrhein.
        forbidden: &["27498", "78266"],
        max_length: 5,
    },
    ZipRule {
        country: "ES",
        digits: 5,
        example: "28013",
        pattern: "^(0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}$",
        // Las Palmas, Santa Cruz de Tenerife (Canary Islands), Ceuta, Melilla.
        forbidden: &["35", "38", "51", "52"],
        max_length: 5,
    },
    ZipRule {
        country: "IT",
        digits: 5,
        example: "20121",
        pattern: "^[0-9]{5}$",
        // Livigno, Campione d'Italia, San Marino, Vatican City.
        forbidden: &["23041", "22061", "4789", "00120"],
        max_length: 5,
    },
    ZipRule {
        country: "AT",
        digits: 4,
        example: "1010",
        pattern: "^[1-9][0-9]{3}$",
        forbidden: &[],
        max_length: 4,
    },
    ZipRule {
        country: "BE",
        digits: 4,
        example: "1000",
        pattern: "^[1-9][0-9]{3}$",
        forbidden: &[],
        max_length: 4,
    },
    ZipRule {
        country: "LU",
        digits: 4,
        example: "1009",
        pattern: "^(L-?)?[0-9]{4}$",
        forbidden: &[],
        max_length: 6,
    },
    ZipRule {
        country: "NL",
        digits: 4,
        example: "1011 AB",
        pattern: "^[1-9][0-9]{3} ?[A-Za-z]{2}$",
        // Letter pairs never given out (SA, SD, SS).
        forbidden: &["SA", "SD", "SS"],
        max_length: 7,
    },
];

pub fn zip_rule(country: &str) -> Option<&'static ZipRule> {
    ZIP_RULES.iter().find(|r| r.country == country)
}

/// The zip code as stored (`1011 AB`, `1009` for `L-1009`), or why it is refused:
/// [`ErrorType::Wrong`] (5) for a code of the wrong shape, [`ErrorType::Forbidden`] (4)
/// for one not delivered to.
pub fn normalize_zip(country: &str, input: &str) -> Result<String, ErrorType> {
    let Some(rule) = zip_rule(country) else {
        return Err(ErrorType::Wrong);
    };
    let compact: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let compact = match rule.country {
        "LU" => compact
            .strip_prefix("L-")
            .or_else(|| compact.strip_prefix('L'))
            .unwrap_or(&compact)
            .to_string(),
        _ => compact,
    };
    // Byte offsets below: anything but ASCII is a wrong code before it can split a character.
    if !compact.is_ascii() || compact.len() > rule.max_length {
        return Err(ErrorType::Wrong);
    }
    let (digits, letters) = compact.split_at(compact.len().min(rule.digits));
    let digits_ok = digits.len() == rule.digits && digits.bytes().all(|b| b.is_ascii_digit());
    let normalized = match rule.country {
        "NL" => {
            let letters_ok = letters.len() == 2 && letters.bytes().all(|b| b.is_ascii_uppercase());
            if !digits_ok || !letters_ok || digits.starts_with('0') {
                return Err(ErrorType::Wrong);
            }
            if rule.forbidden.contains(&letters) {
                return Err(ErrorType::Forbidden);
            }
            return Ok(format!("{digits} {letters}"));
        }
        "ES" => {
            let province: u8 = digits.get(..2).and_then(|p| p.parse().ok()).unwrap_or(0);
            if !digits_ok || !letters.is_empty() || !(1..=52).contains(&province) {
                return Err(ErrorType::Wrong);
            }
            digits.to_string()
        }
        "AT" | "BE" | "LU" => {
            if !digits_ok || !letters.is_empty() || digits.starts_with('0') {
                return Err(ErrorType::Wrong);
            }
            digits.to_string()
        }
        _ => {
            if !digits_ok || !letters.is_empty() {
                return Err(ErrorType::Wrong);
            }
            digits.to_string()
        }
    };
    if rule.forbidden.iter().any(|f| normalized.starts_with(f)) {
        return Err(ErrorType::Forbidden);
    }
    Ok(normalized)
}

//! IBAN (ISO 13616): normalising what the member typed, the country's length and BBAN
//! format from the SWIFT IBAN registry, and the ISO 7064 mod-97-10 check digits.
//!
//! Only SEPA countries are accepted: refunds and payouts go out as SEPA credit transfers,
//! so an IBAN of any other country could never be paid.

/// Why an IBAN is refused; each has its own message (`wallet.errors.iban_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbanError {
    Empty,
    /// Characters other than letters, digits, spaces and hyphens (or far too long).
    Characters,
    /// A country outside SEPA (or not a country at all).
    Country,
    Length,
    /// The bank and account part does not match the country's registry format.
    Format,
    CheckDigits,
}

impl IbanError {
    pub fn message_key(self) -> &'static str {
        match self {
            IbanError::Empty => "wallet.errors.iban_empty",
            IbanError::Characters => "wallet.errors.iban_characters",
            IbanError::Country => "wallet.errors.iban_country",
            IbanError::Length => "wallet.errors.iban_length",
            IbanError::Format => "wallet.errors.iban_format",
            IbanError::CheckDigits => "wallet.errors.iban_check_digits",
        }
    }
}

/// A valid IBAN in electronic form (upper case, no spaces).
#[derive(Clone, PartialEq, Eq)]
pub struct Iban(String);

// The full number never goes to a log by accident.
impl std::fmt::Debug for Iban {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Iban({})",
            mask(self.country(), self.0.len(), self.last4())
        )
    }
}

impl Iban {
    pub fn as_str(&self) -> &str {
        &self.0
    }
    pub fn country(&self) -> &str {
        &self.0[..2]
    }
    pub fn last4(&self) -> &str {
        &self.0[self.0.len() - 4..]
    }
    pub fn masked(&self) -> String {
        mask(self.country(), self.0.len(), self.last4())
    }
}

/// BBAN formats of the SWIFT IBAN registry (`n` digits, `a` upper-case letters, `c`
/// letters or digits), with the IBAN length, for the SEPA countries.
const REGISTRY: &[(&str, usize, &str)] = &[
    ("AD", 24, "4n4n12c"),
    ("AL", 28, "8n16c"),
    ("AT", 20, "5n11n"),
    ("BE", 16, "3n7n2n"),
    ("BG", 22, "4a4n2n8c"),
    ("CH", 21, "5n12c"),
    ("CY", 28, "3n5n16c"),
    ("CZ", 24, "4n6n10n"),
    ("DE", 22, "8n10n"),
    ("DK", 18, "4n9n1n"),
    ("EE", 20, "2n2n11n1n"),
    ("ES", 24, "4n4n1n1n10n"),
    ("FI", 18, "3n11n"),
    ("FR", 27, "5n5n11c2n"),
    ("GB", 22, "4a6n8n"),
    ("GI", 23, "4a15c"),
    ("GR", 27, "3n4n16c"),
    ("HR", 21, "7n10n"),
    ("HU", 28, "3n4n1n15n1n"),
    ("IE", 22, "4a6n8n"),
    ("IS", 26, "4n2n6n10n"),
    ("IT", 27, "1a5n5n12c"),
    ("LI", 21, "5n12c"),
    ("LT", 20, "5n11n"),
    ("LU", 20, "3n13c"),
    ("LV", 21, "4a13c"),
    ("MC", 27, "5n5n11c2n"),
    ("MD", 24, "2c18c"),
    ("ME", 22, "3n13n2n"),
    ("MK", 19, "3n10c2n"),
    ("MT", 31, "4a5n18c"),
    ("NL", 18, "4a10n"),
    ("NO", 15, "4n6n1n"),
    ("PL", 28, "8n16n"),
    ("PT", 25, "4n4n11n2n"),
    ("RO", 24, "4a16c"),
    ("SE", 24, "3n16n1n"),
    ("SI", 19, "5n8n2n"),
    ("SK", 24, "4n6n10n"),
    ("SM", 27, "1a5n5n12c"),
    ("VA", 22, "3n15n"),
];

/// Longest input looked at: the longest IBAN (31) in groups of four with spaces, and some.
const MAX_INPUT: usize = 64;

/// The registry length of a country's IBANs (SEPA countries only).
pub fn iban_length(country: &str) -> Option<usize> {
    REGISTRY
        .iter()
        .find(|(c, _, _)| *c == country)
        .map(|(_, len, _)| *len)
}

/// Parses what a member typed: spaces and hyphens are dropped, letters upper-cased
/// (`fr76 3000 6000 ...` is accepted), then country, length, format and check digits.
pub fn parse_iban(input: &str) -> Result<Iban, IbanError> {
    if input.len() > MAX_INPUT * 4 {
        return Err(IbanError::Characters);
    }
    let mut s = String::with_capacity(34);
    for ch in input.chars() {
        match ch {
            ' ' | '\u{a0}' | '\t' | '-' => {}
            c if c.is_ascii_alphanumeric() => s.push(c.to_ascii_uppercase()),
            _ => return Err(IbanError::Characters),
        }
    }
    if s.is_empty() {
        return Err(IbanError::Empty);
    }
    if s.len() > MAX_INPUT {
        return Err(IbanError::Characters);
    }
    if s.len() < 4 || !s[..2].bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(IbanError::Country);
    }
    let Some(&(_, len, format)) = REGISTRY.iter().find(|(c, _, _)| *c == &s[..2]) else {
        return Err(IbanError::Country);
    };
    if s.len() != len {
        return Err(IbanError::Length);
    }
    if !s[2..4].bytes().all(|b| b.is_ascii_digit()) || !bban_matches(&s[4..], format) {
        return Err(IbanError::Format);
    }
    if mod97(&s) != 1 {
        return Err(IbanError::CheckDigits);
    }
    Ok(Iban(s))
}

/// Whether `bban` follows a registry format such as `5n5n11c2n`.
fn bban_matches(bban: &str, format: &str) -> bool {
    let bytes = bban.as_bytes();
    let mut at = 0;
    let mut count = 0usize;
    for f in format.bytes() {
        if f.is_ascii_digit() {
            count = count * 10 + usize::from(f - b'0');
            continue;
        }
        let Some(part) = bytes.get(at..at + count) else {
            return false;
        };
        let ok = match f {
            b'n' => part.iter().all(u8::is_ascii_digit),
            b'a' => part.iter().all(u8::is_ascii_uppercase),
            _ => part
                .iter()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()),
        };
        if !ok {
            return false;
        }
        at += count;
        count = 0;
    }
    at == bytes.len()
}

/// ISO 7064 MOD 97-10 of an IBAN: the first four characters move to the end, letters
/// become 10..35, and the remainder is taken digit by digit (no big integers).
fn mod97(iban: &str) -> u32 {
    let rotated = iban[4..].bytes().chain(iban[..4].bytes());
    let mut rem: u32 = 0;
    for b in rotated {
        let value = if b.is_ascii_digit() {
            u32::from(b - b'0')
        } else {
            u32::from(b - b'A') + 10
        };
        rem = if value >= 10 {
            (rem * 100 + value) % 97
        } else {
            (rem * 10 + value) % 97
        };
    }
    rem
}

/// How a stored IBAN is shown: its country, then bullets, then its last four characters,
/// in the usual groups of four (`FR•• •••• •••• •••• •••• •••6 068`).
pub fn mask(country: &str, len: usize, last4: &str) -> String {
    let hidden = len.saturating_sub(2 + last4.chars().count());
    let plain: String = country
        .chars()
        .chain(std::iter::repeat_n('•', hidden))
        .chain(last4.chars())
        .collect();
    let chars: Vec<char> = plain.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

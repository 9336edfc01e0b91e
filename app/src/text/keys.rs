//! The key filters of form fields (spec 000 §5, 001 §5): the characters a field takes. The
//! server's checks use these predicates; a browser keeps the member from typing anything
//! else with their twin, `frontend-react/src/pages/key-filters.ts`, and both are checked
//! against `app/tests/vectors/key_filters.json`. A field names its filter in the page with
//! `data-key-filter` (`KeyFilter::attr`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFilter {
    /// The member's names: letters of any script, the space, and the hyphens and
    /// apostrophes real names carry (Jean-Pierre, N'Diaye, O’Brien). Spec 000 §5's filter
    /// is letters and spaces only; it is widened because it refused those names.
    Name,
    /// Names on a delivery address: letters of the Latin script (carriers print labels in
    /// it), the space, and the apostrophes, hyphens and dots names carry.
    LatinName,
    /// Digits only (a phone on the profile).
    Digits,
    /// A date as the site writes it: digits and the separators `/` and `.`.
    Date,
    /// A phone on an address: digits, `+`, and what people type between groups.
    Phone,
}

impl KeyFilter {
    pub const ALL: [KeyFilter; 5] = [
        KeyFilter::Name,
        KeyFilter::LatinName,
        KeyFilter::Digits,
        KeyFilter::Date,
        KeyFilter::Phone,
    ];

    /// The value of a field's `data-key-filter`.
    pub fn attr(self) -> &'static str {
        match self {
            KeyFilter::Name => "name",
            KeyFilter::LatinName => "latin-name",
            KeyFilter::Digits => "digits",
            KeyFilter::Date => "date",
            KeyFilter::Phone => "phone",
        }
    }

    pub fn allows(self, c: char) -> bool {
        match self {
            KeyFilter::Name => c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’'),
            KeyFilter::LatinName => latin_letter(c) || matches!(c, ' ' | '\'' | '’' | '-' | '.'),
            KeyFilter::Digits => c.is_ascii_digit(),
            KeyFilter::Date => c.is_ascii_digit() || matches!(c, '/' | '.'),
            KeyFilter::Phone => {
                c.is_ascii_digit() || matches!(c, '+' | ' ' | '.' | '-' | '/' | '(' | ')')
            }
        }
    }
}

/// Letters of the Latin script (accents, ß, æ, ø, ł included). Not the three signs Unicode
/// files as letters among them: the micro sign and the ordinal indicators ª and º, which
/// are no one's name.
pub fn latin_letter(c: char) -> bool {
    c.is_alphabetic()
        && ((c as u32) < 0x250 || (0x1E00..=0x1EFF).contains(&(c as u32)))
        && !matches!(c, 'µ' | 'ª' | 'º')
}

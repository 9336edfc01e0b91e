//! The address book's rules (spec 001 §3 "Address", §5): which fields an address needs and
//! what they may hold, the zip codes and phone numbers of each site's country, the message
//! a refused address shows, and which address checkout takes. Pure: compiled for the server
//! and the browser, unit-tested in `tests.rs`.
mod phone;
mod postcode;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

pub use phone::{format_phone, normalize_phone, PhoneStyle};
pub use postcode::{normalize_zip, zip_rule, ZipRule, ZIP_RULES};

use crate::address::model::{
    Address, AddressFieldError, AddressFieldSpecificities, AddressRequest, CountrySpecificities,
};
use crate::model::error::FieldError;
use crate::text::keys::KeyFilter;

/// Most addresses one member keeps: enough for home, work, family and a holiday house.
pub const MAX_ADDRESSES: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddressField {
    FirstName,
    LastName,
    Details,
    Extras,
    ZipCode,
    City,
    Country,
    Phone,
}

pub const FIELDS: [AddressField; 8] = [
    AddressField::FirstName,
    AddressField::LastName,
    AddressField::Details,
    AddressField::Extras,
    AddressField::ZipCode,
    AddressField::City,
    AddressField::Country,
    AddressField::Phone,
];

impl AddressField {
    pub fn wire(self) -> &'static str {
        match self {
            AddressField::FirstName => "firstName",
            AddressField::LastName => "lastName",
            AddressField::Details => "details",
            AddressField::Extras => "extras",
            AddressField::ZipCode => "zipCode",
            AddressField::City => "city",
            AddressField::Country => "country",
            AddressField::Phone => "phone",
        }
    }

    pub fn from_wire(s: &str) -> Option<AddressField> {
        FIELDS.iter().copied().find(|f| f.wire() == s)
    }

    /// Translation key of the field's label.
    pub fn label_key(self) -> &'static str {
        match self {
            AddressField::FirstName => "address.field.firstName",
            AddressField::LastName => "address.field.lastName",
            AddressField::Details => "address.field.details",
            AddressField::Extras => "address.field.extras",
            AddressField::ZipCode => "address.field.zipCode",
            AddressField::City => "address.field.city",
            AddressField::Country => "address.field.country",
            AddressField::Phone => "address.field.phone",
        }
    }

    /// Longest value, in characters: what carriers print on a label.
    pub fn max_length(self) -> usize {
        match self {
            AddressField::FirstName | AddressField::LastName | AddressField::City => 40,
            AddressField::Details | AddressField::Extras => 60,
            AddressField::ZipCode => 10,
            AddressField::Country => 2,
            AddressField::Phone => 25,
        }
    }

    /// Every field but the extras is needed to deliver (and the phone, for the carrier to
    /// reach the member), on every site.
    pub fn required(self) -> bool {
        self != AddressField::Extras
    }
}

/// The `error_type` of a faulty field (spec 001 §5 names 4 and 5 for the zip code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorType {
    Missing = 1,
    TooLong = 2,
    Characters = 3,
    /// A zip code or country not delivered to.
    Forbidden = 4,
    Wrong = 5,
}

impl ErrorType {
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<ErrorType> {
        [
            ErrorType::Missing,
            ErrorType::TooLong,
            ErrorType::Characters,
            ErrorType::Forbidden,
            ErrorType::Wrong,
        ]
        .into_iter()
        .find(|e| e.code() == code)
    }
}

/// The message key shown beside one faulty field.
pub fn field_message_key(field: AddressField, error: ErrorType) -> &'static str {
    match (field, error) {
        (_, ErrorType::Missing) => "address.errors.missing",
        (_, ErrorType::TooLong) => "address.errors.too_long",
        (_, ErrorType::Characters) => "address.errors.characters",
        (AddressField::ZipCode, ErrorType::Forbidden) => "address.errors.zip_forbidden",
        (AddressField::ZipCode, ErrorType::Wrong) => "address.errors.zip_wrong",
        (AddressField::Country, _) => "address.errors.country",
        (AddressField::Phone, _) => "address.errors.phone",
        _ => "address.errors.wrong",
    }
}

/// The message a refused address shows (spec 001 §5 "Address error message choice").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorMessage {
    /// No field named: the save failed for another reason.
    NotSaved,
    ForbiddenZip,
    WrongZip,
    /// One faulty field, named in the message.
    WrongField(AddressField),
    WrongFields,
}

impl ErrorMessage {
    pub fn key(self) -> &'static str {
        match self {
            ErrorMessage::NotSaved => "errors.address.not_saved.notification",
            ErrorMessage::ForbiddenZip => "errors.address.forbidden_zipcode.notification",
            ErrorMessage::WrongZip => "errors.address.wrong_zipcode.notification",
            ErrorMessage::WrongField(_) => "errors.address.wrong_field.notification",
            ErrorMessage::WrongFields => "errors.address.wrong_fields.notification",
        }
    }

    /// The message in a language (the single field named in it).
    pub fn text(self, lang: &str) -> String {
        use crate::site::i18n::{t, t_with};
        match self {
            ErrorMessage::WrongField(f) => {
                t_with(lang, self.key(), &[("field", &t(lang, f.label_key()))])
            }
            _ => t(lang, self.key()),
        }
    }
}

/// None given → not saved; a single zip code error 4 → forbidden zip code, 5 → wrong zip
/// code; any other single field → that field named; several fields → several wrong fields.
/// Entries with a field or type this shop does not know count as no entry.
pub fn error_message(errors: &[AddressFieldError]) -> ErrorMessage {
    let mut known: Vec<(AddressField, Option<ErrorType>)> = errors
        .iter()
        .filter_map(|e| {
            Some((
                AddressField::from_wire(&e.field_type)?,
                ErrorType::from_code(e.error_type),
            ))
        })
        .collect();
    known.sort_by_key(|(f, _)| *f);
    known.dedup_by_key(|(f, _)| *f);
    match known.as_slice() {
        [] => ErrorMessage::NotSaved,
        [(AddressField::ZipCode, Some(ErrorType::Forbidden))] => ErrorMessage::ForbiddenZip,
        [(AddressField::ZipCode, Some(ErrorType::Wrong))] => ErrorMessage::WrongZip,
        [(field, _)] => ErrorMessage::WrongField(*field),
        _ => ErrorMessage::WrongFields,
    }
}

/// The countries a site delivers to: its own.
pub fn site_countries(site_id: u16) -> Vec<&'static str> {
    crate::site::by_id(site_id)
        .map(|s| vec![s.country_code])
        .unwrap_or_default()
}

/// Names: Latin letters, spaces, and the apostrophes, hyphens and dots names carry
/// (O'Neil, Jean-Luc, St. John): the key filter of the form's name fields.
fn name_char(c: char) -> bool {
    KeyFilter::LatinName.allows(c)
}

/// Street, extras, city: also digits and the signs of house numbers and floors.
fn place_char(c: char) -> bool {
    name_char(c)
        || c.is_ascii_digit()
        || matches!(c, ',' | '/' | '#' | '°' | 'º' | 'ª' | '&' | '(' | ')')
}

/// Trimmed, inner runs of white space as one space.
fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An address that passed the rules, normalized as it is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidAddress {
    pub first_name: String,
    pub last_name: String,
    pub details: String,
    pub extras: String,
    pub zip_code: String,
    pub city: String,
    pub country: String,
    pub phone: String,
}

fn entry(field: AddressField, e: ErrorType) -> AddressFieldError {
    AddressFieldError {
        field_type: field.wire().into(),
        error_type: e.code(),
    }
}

/// Checks an address for a site: one entry per faulty field (the first problem found in
/// it), in form order.
pub fn check_address(
    site_id: u16,
    req: &AddressRequest,
) -> Result<ValidAddress, Vec<AddressFieldError>> {
    let countries = site_countries(site_id);
    let raw_country = tidy(&req.country).to_ascii_uppercase();
    let country = if raw_country.is_empty() {
        countries.first().copied().unwrap_or("").to_string()
    } else {
        raw_country
    };
    let mut errors = Vec::new();
    let mut text = |field: AddressField, raw: &str, allowed: fn(char) -> bool| -> String {
        let value = tidy(raw);
        let problem = if value.is_empty() {
            field.required().then_some(ErrorType::Missing)
        } else if value.chars().count() > field.max_length() {
            Some(ErrorType::TooLong)
        } else if !value.chars().all(allowed) {
            Some(ErrorType::Characters)
        } else {
            None
        };
        if let Some(e) = problem {
            errors.push(entry(field, e));
        }
        value
    };
    let first_name = text(AddressField::FirstName, &req.first_name, name_char);
    let last_name = text(AddressField::LastName, &req.last_name, name_char);
    let details = text(AddressField::Details, &req.details, place_char);
    let extras = text(AddressField::Extras, &req.extras, place_char);
    let city = text(AddressField::City, &req.city, place_char);
    let mut fail = |field: AddressField, e: ErrorType| errors.push(entry(field, e));
    let zip_raw = tidy(&req.zip_code);
    let country_known = countries.contains(&country.as_str());
    let zip_code = if zip_raw.is_empty() {
        fail(AddressField::ZipCode, ErrorType::Missing);
        String::new()
    } else if zip_raw.chars().count() > AddressField::ZipCode.max_length() {
        fail(AddressField::ZipCode, ErrorType::TooLong);
        String::new()
    } else if !country_known {
        // Without a country it delivers to, no zip code rule applies: the country says it.
        zip_raw
    } else {
        match normalize_zip(&country, &zip_raw) {
            Ok(z) => z,
            Err(e) => {
                fail(AddressField::ZipCode, e);
                String::new()
            }
        }
    };
    if !country_known {
        let shape_ok = country.len() == 2 && country.bytes().all(|b| b.is_ascii_uppercase());
        fail(
            AddressField::Country,
            if shape_ok {
                ErrorType::Forbidden
            } else {
                ErrorType::Wrong
            },
        );
    }
    let phone_raw = tidy(&req.phone);
    let phone = if phone_raw.is_empty() {
        fail(AddressField::Phone, ErrorType::Missing);
        String::new()
    } else if phone_raw.chars().count() > AddressField::Phone.max_length() {
        fail(AddressField::Phone, ErrorType::TooLong);
        String::new()
    } else {
        normalize_phone(&phone_raw).unwrap_or_else(|e| {
            fail(AddressField::Phone, e);
            String::new()
        })
    };
    if !errors.is_empty() {
        // Form order, whatever order the checks ran in.
        errors.sort_by_key(|e| AddressField::from_wire(&e.field_type));
        return Err(errors);
    }
    Ok(ValidAddress {
        first_name,
        last_name,
        details,
        extras,
        zip_code,
        city,
        country,
        phone,
    })
}

/// The per-field messages of the faulty fields (`fieldErrors`).
pub fn field_errors(errors: &[AddressFieldError]) -> Vec<FieldError> {
    errors
        .iter()
        .filter_map(|e| {
            let field = AddressField::from_wire(&e.field_type)?;
            let kind = ErrorType::from_code(e.error_type)?;
            Some(FieldError {
                field: field.wire().into(),
                message_key: field_message_key(field, kind).into(),
            })
        })
        .collect()
}

/// The address checkout takes by default: the favourite, else the first (spec 001 §3).
pub fn default_address(addresses: &[Address]) -> Option<&Address> {
    addresses
        .iter()
        .find(|a| a.is_favorite)
        .or_else(|| addresses.first())
}

/// Longest page path (with its query) the address page comes back to.
pub const MAX_RETURN_PATH: usize = 600;

/// Where the address page goes back to once an address is saved (`returnTo`, e.g. the
/// travel checkout with its configuration in the query): only a same-site relative path,
/// as after sign-in (`auth::rules::safe_return_url`: one leading `/`, no scheme, no
/// backslash), made of visible ASCII (so it fits a `Location` header as it is), without a
/// fragment, at most [`MAX_RETURN_PATH`] long and not the address page itself.
pub fn return_path(candidate: Option<&str>) -> Option<String> {
    let path = candidate?.trim();
    let ok = path.len() > 1
        && path.len() <= MAX_RETURN_PATH
        && crate::auth::rules::safe_return_url(Some(path)) == path
        && path.chars().all(|c| c.is_ascii_graphic() && c != '#')
        && !path.starts_with("/postsales/myaccount/addresses");
    ok.then(|| path.to_string())
}

/// A site's `addressFieldSpecificities`.
pub fn specificities(site_id: u16) -> AddressFieldSpecificities {
    let style = PhoneStyle::for_site(site_id);
    let example = match crate::site::by_id(site_id).map(|s| s.country_code) {
        Some("ES") => "612345678",
        Some("IT") => "3123456789",
        Some("DE") => "01711234567",
        Some("AT") => "06641234567",
        Some("NL") => "0612345678",
        Some("BE") => "0470123456",
        Some("LU") => "621123456",
        _ => "0612345678",
    };
    AddressFieldSpecificities {
        countries: site_countries(site_id)
            .into_iter()
            .filter_map(zip_rule)
            .map(|r| CountrySpecificities {
                code: r.country.into(),
                zip_code_pattern: r.pattern.into(),
                zip_code_example: r.example.into(),
                zip_code_max_length: r.max_length,
                forbidden_zip_codes: r.forbidden.iter().map(|f| f.to_string()).collect(),
            })
            .collect(),
        phone_format: style.wire(&format_phone(example, style)),
        required_fields: FIELDS
            .iter()
            .filter(|f| f.required())
            .map(|f| f.wire().to_string())
            .collect(),
        max_lengths: FIELDS
            .iter()
            .map(|f| (f.wire().to_string(), f.max_length()))
            .collect::<BTreeMap<_, _>>(),
        max_addresses: MAX_ADDRESSES,
    }
}

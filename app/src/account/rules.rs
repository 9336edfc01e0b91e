//! My account's rules (spec 001 §3 member, §5; spec 000 §5): personal data, email change,
//! password change. Pure: the server checks with them; the key filters the browser applies
//! while typing are `text::keys::KeyFilter`'s, which these rules use too.
use serde::{Deserialize, Serialize};

use crate::auth::rules::{is_numeric, is_valid_name, parse_birth_date, password_problem};

/// The member's gender as the wire spells it; stored as the registration's civility
/// (0 other, 1 male, 2 female) so both forms speak of one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub enum Gender {
    Other,
    Male,
    Female,
}

impl Gender {
    pub const ALL: [Gender; 3] = [Gender::Other, Gender::Male, Gender::Female];

    pub fn civility(self) -> i64 {
        match self {
            Gender::Other => 0,
            Gender::Male => 1,
            Gender::Female => 2,
        }
    }

    pub fn from_civility(v: i64) -> Gender {
        match v {
            1 => Gender::Male,
            2 => Gender::Female,
            _ => Gender::Other,
        }
    }

    pub fn wire(self) -> &'static str {
        match self {
            Gender::Other => "Other",
            Gender::Male => "Male",
            Gender::Female => "Female",
        }
    }

    pub fn from_wire(s: &str) -> Option<Gender> {
        Gender::ALL.into_iter().find(|g| g.wire() == s.trim())
    }

    /// The same words the registration form uses.
    pub fn label_key(self) -> &'static str {
        match self {
            Gender::Other => "auth.civility.0",
            Gender::Male => "auth.civility.1",
            Gender::Female => "auth.civility.2",
        }
    }
}

/// The profile fields of spec 001 §3, as `fieldErrors` names them.
pub const F_GENDER: &str = "GENDER";
pub const F_NAME: &str = "NAME";
pub const F_LAST_NAME: &str = "LAST_NAME";
pub const F_BIRTH_DATE: &str = "DATE_OF_BIRTH";
pub const F_PHONE: &str = "PHONE";
pub const F_JOB: &str = "JOB";
/// The email fields.
pub const F_NEW_MAIL: &str = "NEW_MAIL";
pub const F_CONFIRM_EMAIL: &str = "CONFIRM_EMAIL";
/// The password fields.
pub use crate::auth::rules::F_CURRENT_PASSWORD;
pub const F_PASSWORD: &str = "password";
pub const F_CONFIRM_PASSWORD: &str = "confirmPassword";

/// A phone number is kept as its digits: 6 (short national numbers) to 15 (E.164's
/// maximum). Empty means no phone.
pub const PHONE_MIN: usize = 6;
pub const PHONE_MAX: usize = 15;

pub fn phone_problem(phone: &str) -> Option<&'static str> {
    let p = phone.trim();
    if p.is_empty() {
        return None;
    }
    if !is_numeric(p) {
        return Some("myprofile.errors.phone_digits");
    }
    if !(PHONE_MIN..=PHONE_MAX).contains(&p.len()) {
        return Some("myprofile.errors.phone_length");
    }
    None
}

/// Members must be old enough to consent on their own (GDPR art. 8 allows states up to 16).
pub const MIN_AGE: u16 = 16;

/// A birth date `DD/MM/YYYY` that exists, is not in the future and makes the member at
/// least [`MIN_AGE`] on `today` (y, m, d). Gives `YYYY-MM-DD` as stored, or the problem.
pub fn check_birth_date(s: &str, today: (u16, u8, u8)) -> Result<String, &'static str> {
    let (y, m, d) = parse_birth_date(s).ok_or("myprofile.errors.birthdate_invalid")?;
    if (y, m, d) > today {
        return Err("myprofile.errors.birthdate_future");
    }
    let (ty, tm, td) = today;
    let age = ty - y - u16::from((tm, td) < (m, d));
    if age < MIN_AGE {
        return Err("myprofile.errors.birthdate_too_young");
    }
    Ok(format!("{y:04}-{m:02}-{d:02}"))
}

/// `YYYY-MM-DD` as stored, back to the form's `DD/MM/YYYY` (or `DD.MM.YYYY`, with the
/// separator the site's forms ask for: [`crate::auth::rules::birth_date_separator`]).
pub fn display_birth_date(stored: &str, separator: char) -> String {
    let mut parts = stored.split('-');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(y), Some(m), Some(d)) => format!("{d}{separator}{m}{separator}{y}"),
        _ => String::new(),
    }
}

/// The personal-data form as received.
#[derive(Clone, Debug, Default)]
pub struct ProfileInput<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub gender: &'a str,
    pub birth_date: &'a str,
    pub phone: &'a str,
    pub birth_date_required: bool,
}

/// The personal data once checked, ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidProfile {
    pub first_name: String,
    pub last_name: String,
    pub gender: Gender,
    pub birth_date: Option<String>,
    pub phone: String,
}

/// Collapses runs of spaces, so "Anne   Marie " is stored as "Anne Marie".
fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks every field; on failure one (field, message key) pair per faulty field.
pub fn check_profile(
    p: &ProfileInput<'_>,
    today: (u16, u8, u8),
) -> Result<ValidProfile, Vec<(&'static str, &'static str)>> {
    let mut errors = Vec::new();
    let gender = Gender::from_wire(p.gender);
    if gender.is_none() {
        errors.push((F_GENDER, "myprofile.errors.gender"));
    }
    for (field, value) in [(F_NAME, p.first_name), (F_LAST_NAME, p.last_name)] {
        if value.trim().is_empty() {
            errors.push((field, "myprofile.errors.required"));
        } else if !is_valid_name(value) {
            errors.push((field, "myprofile.errors.name"));
        }
    }
    let birth_date = if p.birth_date.trim().is_empty() {
        if p.birth_date_required {
            errors.push((F_BIRTH_DATE, "myprofile.errors.required"));
        }
        None
    } else {
        match check_birth_date(p.birth_date, today) {
            Ok(d) => Some(d),
            Err(key) => {
                errors.push((F_BIRTH_DATE, key));
                None
            }
        }
    };
    if let Some(key) = phone_problem(p.phone) {
        errors.push((F_PHONE, key));
    }
    match gender {
        Some(gender) if errors.is_empty() => Ok(ValidProfile {
            first_name: tidy(p.first_name),
            last_name: tidy(p.last_name),
            gender,
            birth_date,
            phone: p.phone.trim().to_string(),
        }),
        _ => Err(errors),
    }
}

/// The password-change error codes of spec 000 §5 / 001 §5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[allow(clippy::enum_variant_names)]
pub enum PasswordChangeError {
    #[serde(rename = "MISSING_FIELD")]
    MissingField,
    #[serde(rename = "NOT_VALID")]
    NotValid,
    #[serde(rename = "NOT_IDENTICAL")]
    NotIdentical,
}

impl PasswordChangeError {
    pub fn code(self) -> &'static str {
        match self {
            PasswordChangeError::MissingField => "MISSING_FIELD",
            PasswordChangeError::NotValid => "NOT_VALID",
            PasswordChangeError::NotIdentical => "NOT_IDENTICAL",
        }
    }

    pub fn message_key(self) -> &'static str {
        match self {
            PasswordChangeError::MissingField => "myprofile.password.error.missing_field",
            PasswordChangeError::NotValid => "myprofile.password.error.not_valid",
            PasswordChangeError::NotIdentical => "myprofile.password.error.not_identical",
        }
    }
}

/// A refused password change: the code and the faulty fields with their messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasswordRefusal {
    pub code: PasswordChangeError,
    pub fields: Vec<(&'static str, &'static str)>,
}

/// The checks that need no stored hash, in the order a member fixes them: every field
/// filled, then the confirmation equal, then the new password acceptable and different
/// from the current one. (Whether `current` is right is the service's check: NOT_VALID.)
pub fn check_password_change(
    current: &str,
    new: &str,
    confirm: &str,
) -> Result<(), PasswordRefusal> {
    let missing: Vec<_> = [
        (F_CURRENT_PASSWORD, current),
        (F_PASSWORD, new),
        (F_CONFIRM_PASSWORD, confirm),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_empty())
    .map(|(f, _)| (f, "myprofile.password.error.missing_field"))
    .collect();
    if !missing.is_empty() {
        return Err(PasswordRefusal {
            code: PasswordChangeError::MissingField,
            fields: missing,
        });
    }
    if new != confirm {
        return Err(PasswordRefusal {
            code: PasswordChangeError::NotIdentical,
            fields: vec![(F_CONFIRM_PASSWORD, "myprofile.password.error.not_identical")],
        });
    }
    if let Some(key) = password_problem(new) {
        return Err(PasswordRefusal {
            code: PasswordChangeError::NotValid,
            fields: vec![(F_PASSWORD, key)],
        });
    }
    if new == current {
        return Err(PasswordRefusal {
            code: PasswordChangeError::NotValid,
            fields: vec![(F_PASSWORD, "myprofile.password.error.same")],
        });
    }
    Ok(())
}

/// Longest address RFC 5321 lets through.
pub const EMAIL_MAX: usize = 254;

/// Checks a new email and its confirmation; gives it lower-cased and trimmed, as stored.
pub fn check_new_email(
    new: &str,
    confirm: &str,
    current: &str,
) -> Result<String, Vec<(&'static str, &'static str)>> {
    let email = new.trim().to_ascii_lowercase();
    if email.is_empty() {
        return Err(vec![(F_NEW_MAIL, "myprofile.errors.required")]);
    }
    if email.len() > EMAIL_MAX || !crate::text::email::is_valid_email(&email) {
        return Err(vec![(F_NEW_MAIL, "auth.email.invalid")]);
    }
    if email == current.trim().to_ascii_lowercase() {
        return Err(vec![(F_NEW_MAIL, "myprofile.email.error.same")]);
    }
    if confirm.trim().to_ascii_lowercase() != email {
        return Err(vec![(
            F_CONFIRM_EMAIL,
            "myprofile.email.error.not_identical",
        )]);
    }
    Ok(email)
}

/// The reasons a member may give for deactivating (spec 001 §3 "Deactivation reason:
/// label and value"); the value is what the POST carries.
pub const DEACTIVATION_REASONS: [&str; 6] = [
    "TOO_MANY_EMAILS",
    "NOT_INTERESTED",
    "PRICES",
    "DELIVERY",
    "PRIVACY",
    "OTHER",
];

pub fn deactivation_reason_key(value: &str) -> Option<String> {
    DEACTIVATION_REASONS
        .contains(&value)
        .then(|| format!("account.deactivate.reason.{}", value.to_ascii_lowercase()))
}

/// A member's segment (spec 000 §2 `segmentId`; the A/B call takes it for members), by
/// purchase history, the one history every member has. The spec does not say what makes a
/// segment; these four are the ones a flash-sale shop's marketing acts on: win a first
/// order, a second one, keep regulars, win back the lapsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// No completed purchase yet.
    Prospect,
    /// One completed purchase, within [`LAPSED_AFTER_SECS`].
    FirstOrder,
    /// Two or more, the last within [`LAPSED_AFTER_SECS`].
    Regular,
    /// Bought before, nothing for [`LAPSED_AFTER_SECS`].
    Lapsed,
}

/// A year without a purchase makes a buyer lapsed.
pub const LAPSED_AFTER_SECS: i64 = 365 * 86_400;

impl Segment {
    /// `completed`: the member's completed purchases (`orderNumber`); `last_order_at`: when
    /// the latest of them was placed.
    pub fn of(completed: i64, last_order_at: Option<i64>, now: i64) -> Segment {
        match (completed, last_order_at) {
            (n, _) if n <= 0 => Segment::Prospect,
            (_, Some(at)) if now - at > LAPSED_AFTER_SECS => Segment::Lapsed,
            (1, _) => Segment::FirstOrder,
            _ => Segment::Regular,
        }
    }

    /// Its `segmentId`.
    pub fn id(self) -> &'static str {
        match self {
            Segment::Prospect => "prospect",
            Segment::FirstOrder => "first_order",
            Segment::Regular => "regular",
            Segment::Lapsed => "lapsed",
        }
    }
}

#[cfg(test)]
mod tests;

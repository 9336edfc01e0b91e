//! Sign-in and registration rules (spec 000 §3, §4, §5). Pure: shared by server and browser.
use crate::site::SiteGroup;
use crate::text::keys::KeyFilter;
use serde::{Deserialize, Serialize};

/// The login result codes are a wire type (model); kept reachable here.
pub use crate::model::auth::LoginResult;

/// Member account states as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberStatus {
    Active = 1,
    NotActivated = 0,
    Deactivated = 2,
    Blacklisted = 3,
    /// Erased at the member's request (GDPR art. 17): an empty row kept for the orders.
    Erased = 4,
}

impl MemberStatus {
    pub fn from_db(v: i64) -> MemberStatus {
        match v {
            1 => MemberStatus::Active,
            2 => MemberStatus::Deactivated,
            3 => MemberStatus::Blacklisted,
            4 => MemberStatus::Erased,
            _ => MemberStatus::NotActivated,
        }
    }
}

/// What the server knows when a login attempt arrives; the outcome follows from it.
#[derive(Clone, Copy, Debug)]
pub struct LoginFacts {
    pub member_found: bool,
    pub status: MemberStatus,
    pub locked: bool,
    pub password_ok: bool,
}

/// Maps the facts of an attempt to the spec's result code. A locked account answers 4 even
/// with the right password; the status is only revealed after the right password.
pub fn login_outcome(f: LoginFacts) -> LoginResult {
    if !f.member_found {
        return LoginResult::InvalidIdentifier;
    }
    if f.locked {
        return LoginResult::Locked;
    }
    if !f.password_ok {
        return LoginResult::InvalidPassword;
    }
    match f.status {
        MemberStatus::Active => LoginResult::Success,
        MemberStatus::NotActivated => LoginResult::NotActivated,
        MemberStatus::Deactivated => LoginResult::Deactivated,
        MemberStatus::Blacklisted => LoginResult::Blacklisted,
        // Its email is gone, so this is not reached by an email; never a way in.
        MemberStatus::Erased => LoginResult::InvalidIdentifier,
    }
}

/// Web validate (spec 000 §5): success only with a success result and a member id.
pub fn web_validate_outcome(result: Option<LoginResult>, member_id: Option<i64>) -> LoginResult {
    match (result, member_id) {
        (Some(LoginResult::Success), Some(_)) => LoginResult::Success,
        _ => LoginResult::InvalidIdentifier,
    }
}

/// The one name rule of the registration, profile and travel forms: what
/// [`KeyFilter::Name`] takes, 60 characters at most, with at least one letter.
pub fn is_valid_name(s: &str) -> bool {
    let t = s.trim();
    t.chars().count() <= 60
        && t.chars().any(char::is_alphabetic)
        && t.chars().all(|c| KeyFilter::Name.allows(c))
}

/// Numeric fields accept digits only.
pub fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| KeyFilter::Digits.allows(c))
}

/// Postal codes: digits only, except the Dutch form `1234 AB` on the Netherlands site.
/// The key filter of the registration's zip code (spec 000 §5: numeric fields take digits
/// only): digits, except the Netherlands' "1234 AB", which only the server checks.
pub fn zip_code_key_filter(site_id: u16) -> Option<crate::text::keys::KeyFilter> {
    (site_id != 76).then_some(crate::text::keys::KeyFilter::Digits)
}

/// What a refused zip code is told: the Dutch form on the Netherlands site, digits elsewhere.
pub fn zip_code_error_key(site_id: u16) -> &'static str {
    if site_id == 76 {
        "auth.zipcode.invalid_nl"
    } else {
        "auth.zipcode.invalid"
    }
}

pub fn is_valid_zip_code(site_id: u16, zip: &str) -> bool {
    let z = zip.trim();
    if site_id == 76 {
        let compact: String = z.chars().filter(|c| *c != ' ').collect();
        compact.len() == 6
            && compact[..4].bytes().all(|b| b.is_ascii_digit())
            && compact[4..].bytes().all(|b| b.is_ascii_alphabetic())
    } else {
        z.len() <= 10 && is_numeric(z)
    }
}

/// A birth date typed by the member, as `YYYY-MM-DD`, when it is a real date.
pub fn birth_date_iso(input: &str) -> Option<String> {
    parse_birth_date(input).map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
}

/// How the registration and the profile write a birth date on a site: `DD.MM.YYYY` where
/// the site writes its dates with dots (Germany, Austria), else `DD/MM/YYYY`. Both forms
/// take either.
pub fn birth_date_separator(site_id: u16) -> char {
    let format = crate::site::by_id_or_default(site_id).date_format;
    if format.contains('.') {
        '.'
    } else {
        '/'
    }
}

/// Parses `DD/MM/YYYY`; an invalid date gives `None` (spec 000 §5). `DD.MM.YYYY` is
/// accepted too, as German and Austrian members write it.
pub fn parse_birth_date(s: &str) -> Option<(u16, u8, u8)> {
    let s = s.trim();
    let sep = if s.contains('.') { '.' } else { '/' };
    let mut parts = s.split(sep);
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || d.len() != 2 || m.len() != 2 || y.len() != 4 {
        return None;
    }
    if !(is_numeric(d) && is_numeric(m) && is_numeric(y)) {
        return None;
    }
    let (d, m, y): (u8, u8, u16) = (d.parse().ok()?, m.parse().ok()?, y.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (y >= 1900 && (1..=days).contains(&d)).then_some((y, m, d))
}

/// The member's current password, in every form and REST body that asks for it (the
/// password change, and the re-authentication of review N1).
pub const F_CURRENT_PASSWORD: &str = "currentPassword";

pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// Login passwords longer than this (in bytes) are refused before hashing. Registration
/// allows `PASSWORD_MAX` characters (at most 4 bytes each); 256 bytes is room for any
/// password of 64 characters or more, and for older accounts (review M3).
pub const LOGIN_PASSWORD_MAX_BYTES: usize = 256;

const COMMON_PASSWORDS: &str = include_str!("common_passwords.txt");

/// Password policy (OWASP ASVS 5.0 6.2): 8 to 128 characters, any characters, refused when
/// among common passwords. Returns the translation key of the problem.
pub fn password_problem(password: &str) -> Option<&'static str> {
    let n = password.chars().count();
    if n < PASSWORD_MIN {
        return Some("auth.password.too_short");
    }
    if n > PASSWORD_MAX {
        return Some("auth.password.too_long");
    }
    let lower = password.to_lowercase();
    if COMMON_PASSWORDS.lines().any(|l| l.trim() == lower) {
        return Some("auth.password.common");
    }
    None
}

/// Only a same-site relative path is ever followed after sign-in (no open redirect):
/// it must start with one `/`, not `//` or `/\`, and carry no scheme or control characters.
pub fn safe_return_url(candidate: Option<&str>) -> String {
    let fallback = "/".to_string();
    let Some(url) = candidate.map(str::trim).filter(|u| !u.is_empty()) else {
        return fallback;
    };
    let ok = url.starts_with('/')
        && !url.starts_with("//")
        && !url.starts_with("/\\")
        && !url.chars().any(|c| c.is_control() || c == '\\')
        && !url.contains("://");
    if ok {
        url.to_string()
    } else {
        fallback
    }
}

/// Registration field visibility per site (spec 000 §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Hidden,
    Optional,
    Mandatory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistrationFields {
    pub civility: Visibility,
    pub first_name: Visibility,
    pub last_name: Visibility,
    pub birth_date: Visibility,
    pub zip_code_and_city: Visibility,
    pub optin_partner: Visibility,
    pub sponsorship_code: Visibility,
    /// The country of residence (`countryCode`, from `auth::countries`); hidden, it is
    /// the site's country.
    pub country: Visibility,
    /// The occupation: one of the account's jobs (`GET .../account/jobs`).
    pub occupation: Visibility,
}

/// Which registration fields a site shows. Germany and Austria ask fewer questions at
/// sign-up; the Benelux sites ask no birth date; every site requires the names. The
/// Benelux and Austrian sites, whose members often live across a border, ask the country;
/// the French and Italian sites ask the occupation (optional).
pub fn registration_fields(site_id: u16) -> RegistrationFields {
    let in_benelux =
        |id| crate::site::by_id(id).and_then(|s| s.group()) == Some(SiteGroup::Benelux);
    use Visibility::*;
    let base = RegistrationFields {
        civility: Mandatory,
        first_name: Mandatory,
        last_name: Mandatory,
        birth_date: Optional,
        zip_code_and_city: Optional,
        optin_partner: Optional,
        sponsorship_code: Optional,
        country: Hidden,
        occupation: Hidden,
    };
    match site_id {
        2 => RegistrationFields {
            civility: Optional,
            zip_code_and_city: Hidden,
            ..base
        },
        7 => RegistrationFields {
            civility: Optional,
            zip_code_and_city: Hidden,
            country: Optional,
            ..base
        },
        id if in_benelux(id) => RegistrationFields {
            birth_date: Hidden,
            country: Optional,
            ..base
        },
        4 | 69 => RegistrationFields {
            birth_date: Mandatory,
            occupation: Optional,
            ..base
        },
        3 | 66 => RegistrationFields {
            birth_date: Mandatory,
            ..base
        },
        _ => RegistrationFields {
            occupation: Optional,
            ..base
        },
    }
}

/// The message a sign-in page link may name in `error` or `info`: only a known translation
/// key of the sign-in or error messages. Anything else (a sentence an attacker wrote into
/// a phishing link, an unknown key) shows nothing (review L5).
/// (Besides, the two messages of the account's closing, which ends on this page.)
pub fn page_message_key(key: &str) -> Option<&str> {
    let key = key.trim();
    ((key.starts_with("auth.") || key.starts_with("errors.") || SIGNED_OUT_NOTICES.contains(&key))
        && crate::site::i18n::lookup(crate::site::i18n::FALLBACK_LANG, key).is_some())
    .then_some(key)
}

/// The shop's own logout link: with the page's CSRF token, so a browser that sends no
/// Fetch Metadata can still sign out while other sites' links cannot (review L1). The
/// token names nothing once the session it is bound to has ended.
pub fn logout_href(xsrf: &str) -> String {
    format!(
        "/authentication/logout/?_xsrf={}",
        crate::routes::encode_query_value(xsrf)
    )
}

/// Messages of the account's closing, shown on the sign-in page it ends on.
const SIGNED_OUT_NOTICES: [&str; 4] = [
    "account.deactivate.done",
    "account.delete.done",
    "account.secure.done",
    "account.secure.invalid",
];

/// The entry page's return address, where the member lands once signed in or registered
/// (spec 000 §2's entry vocabulary): `returnurl` (or `ReturnUrl`); else the product a
/// `productid` link names (the most precise target); else the operation of an
/// `operationcode`; else none (the home). A product id or code that cannot be one is
/// ignored.
pub fn entry_return_url(returnurl: &str, operation_code: &str, product_id: &str) -> String {
    if !returnurl.is_empty() {
        return returnurl.to_string();
    }
    let product = product_id.trim();
    if !product.is_empty()
        && product.len() <= 18
        && product.bytes().all(|b| b.is_ascii_digit())
        && product.bytes().any(|b| b != b'0')
    {
        return format!("/gr/product/{product}");
    }
    crate::operations::rules::normalize_code(operation_code)
        .map(|code| format!("/operation/{code}"))
        .unwrap_or_default()
}

/// Whether the entry page shows its "about us" section (spec 000 §2: the entry page's
/// sections and its `hideaboutus` parameter): on the first step and the registration form,
/// unless a link (a partner's page that already pitched the shop) says `hideaboutus`.
pub fn shows_about_us(step: &str, hideaboutus: &str) -> bool {
    let hidden = matches!(
        hideaboutus.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes"
    );
    !hidden && matches!(step, "email" | "register")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_us_on_the_entry_steps_unless_a_link_hides_it() {
        assert!(shows_about_us("email", ""));
        assert!(shows_about_us("register", "0"));
        assert!(!shows_about_us("email", "1"));
        assert!(!shows_about_us("register", " TRUE "));
        assert!(!shows_about_us("password", ""));
        assert!(!shows_about_us("recover", ""));
    }

    #[test]
    fn sign_in_page_messages_are_known_keys_only() {
        assert_eq!(
            page_message_key("auth.recover.sent"),
            Some("auth.recover.sent")
        );
        assert_eq!(
            page_message_key("errors.general_retry.notification"),
            Some("errors.general_retry.notification")
        );
        assert_eq!(
            page_message_key("account.delete.done"),
            Some("account.delete.done")
        );
        for refused in [
            "Your account is suspended, call +33 1 23 45 67 89",
            "auth.no.such.key",
            "header.search.placeholder",
            "account.tabs.manage",
            "",
        ] {
            assert_eq!(page_message_key(refused), None, "{refused}");
        }
    }

    fn facts(found: bool, status: MemberStatus, locked: bool, ok: bool) -> LoginFacts {
        LoginFacts {
            member_found: found,
            status,
            locked,
            password_ok: ok,
        }
    }

    #[test]
    fn login_outcomes_follow_the_codes() {
        use MemberStatus::*;
        assert_eq!(
            login_outcome(facts(false, Active, false, false)),
            LoginResult::InvalidIdentifier
        );
        assert_eq!(
            login_outcome(facts(true, Active, false, false)),
            LoginResult::InvalidPassword
        );
        assert_eq!(
            login_outcome(facts(true, Active, true, true)),
            LoginResult::Locked
        );
        assert_eq!(
            login_outcome(facts(true, Active, false, true)),
            LoginResult::Success
        );
        assert_eq!(
            login_outcome(facts(true, NotActivated, false, true)),
            LoginResult::NotActivated
        );
        assert_eq!(
            login_outcome(facts(true, Deactivated, false, true)),
            LoginResult::Deactivated
        );
        assert_eq!(
            login_outcome(facts(true, Blacklisted, false, true)),
            LoginResult::Blacklisted
        );
        assert_eq!(
            login_outcome(facts(true, Erased, false, true)),
            LoginResult::InvalidIdentifier
        );
        assert_eq!(MemberStatus::from_db(4), Erased);
        // The account state is never revealed to someone without the password.
        assert_eq!(
            login_outcome(facts(true, Blacklisted, false, false)),
            LoginResult::InvalidPassword
        );
        assert_eq!(serde_json::to_string(&LoginResult::Locked).unwrap(), "4");
        assert_eq!(
            serde_json::from_str::<LoginResult>("5").unwrap(),
            LoginResult::NotActivated
        );
        assert!(serde_json::from_str::<LoginResult>("9").is_err());
    }

    #[test]
    fn web_validate_needs_success_and_a_member() {
        assert_eq!(
            web_validate_outcome(Some(LoginResult::Success), Some(3)),
            LoginResult::Success
        );
        assert_eq!(
            web_validate_outcome(Some(LoginResult::Success), None),
            LoginResult::InvalidIdentifier
        );
        assert_eq!(
            web_validate_outcome(Some(LoginResult::Locked), Some(3)),
            LoginResult::InvalidIdentifier
        );
        assert_eq!(
            web_validate_outcome(None, None),
            LoginResult::InvalidIdentifier
        );
    }

    #[test]
    fn name_and_numeric_filters() {
        assert!(is_valid_name("Anne Marie"));
        assert!(is_valid_name("Zoë Müller"));
        assert!(is_valid_name("Jean-Luc"));
        assert!(is_valid_name("N'Diaye"));
        assert!(is_valid_name("O’Brien"));
        assert!(is_valid_name("Łukasz Đukić"));
        assert!(!is_valid_name("-'"));
        assert!(!is_valid_name("Anne.Marie"));
        assert!(!is_valid_name("R2D2"));
        assert!(!is_valid_name("   "));
        assert!(is_numeric("75011"));
        assert!(!is_numeric("75 011"));
        assert!(!is_numeric(""));
        assert!(is_valid_zip_code(1, "75011"));
        assert!(!is_valid_zip_code(1, "75O11"));
        assert!(is_valid_zip_code(76, "1234 AB"));
        assert!(is_valid_zip_code(76, "1234ab"));
        assert!(!is_valid_zip_code(76, "12345"));
        assert_eq!(zip_code_error_key(76), "auth.zipcode.invalid_nl");
        assert_eq!(zip_code_error_key(71), "auth.zipcode.invalid");
    }

    #[test]
    fn birth_dates_parse_or_give_none() {
        assert_eq!(parse_birth_date("29/02/2000"), Some((2000, 2, 29)));
        assert_eq!(parse_birth_date("29/02/1900"), None);
        assert_eq!(parse_birth_date("31/04/1990"), None);
        assert_eq!(parse_birth_date("1/04/1990"), None);
        assert_eq!(parse_birth_date("01-04-1990"), None);
        assert_eq!(parse_birth_date("01/13/1990"), None);
        assert_eq!(parse_birth_date("aa/bb/cccc"), None);
        assert_eq!(parse_birth_date("15/08/1985"), Some((1985, 8, 15)));
        assert_eq!(parse_birth_date("15.08.1985"), Some((1985, 8, 15)));
        assert_eq!(parse_birth_date("15.08/1985"), None);
    }

    #[test]
    fn passwords_follow_asvs() {
        assert_eq!(password_problem("short"), Some("auth.password.too_short"));
        assert_eq!(password_problem("Password1"), Some("auth.password.common"));
        assert_eq!(password_problem("azertyuiop"), Some("auth.password.common"));
        assert_eq!(
            password_problem(&"x".repeat(129)),
            Some("auth.password.too_long")
        );
        assert_eq!(password_problem(&"correct horse ".repeat(4)), None);
        assert_eq!(password_problem("Rosace-demo-2026"), None);
    }

    #[test]
    fn return_urls_are_same_site_relative_only() {
        assert_eq!(safe_return_url(Some("/gr/cart")), "/gr/cart");
        assert_eq!(
            safe_return_url(Some("/gr/catalog/1/2?page=2")),
            "/gr/catalog/1/2?page=2"
        );
        for bad in [
            "https://evil.example/",
            "//evil.example",
            "/\\evil.example",
            "javascript:alert(1)",
            "gr/cart",
            "/x\ty",
            "/a?u=http://x",
        ] {
            assert_eq!(safe_return_url(Some(bad)), "/", "{bad:?}");
        }
        assert_eq!(safe_return_url(None), "/");
    }

    #[test]
    fn registration_fields_differ_by_site() {
        assert_eq!(registration_fields(1).birth_date, Visibility::Optional);
        assert_eq!(registration_fields(2).zip_code_and_city, Visibility::Hidden);
        assert_eq!(registration_fields(76).birth_date, Visibility::Hidden);
        assert_eq!(registration_fields(66).birth_date, Visibility::Mandatory);
        assert_eq!(registration_fields(71).country, Visibility::Optional);
        assert_eq!(registration_fields(1).country, Visibility::Hidden);
        assert_eq!(registration_fields(1).occupation, Visibility::Optional);
        assert_eq!(registration_fields(2).occupation, Visibility::Hidden);
        assert!(crate::site::SITES
            .iter()
            .all(|s| registration_fields(s.site_id).last_name == Visibility::Mandatory));
    }

    #[test]
    fn an_operation_link_is_where_the_entry_page_returns() {
        assert_eq!(entry_return_url("", "noel-24", ""), "/operation/NOEL-24");
        assert_eq!(entry_return_url("/gr/cart", "NOEL", ""), "/gr/cart");
        assert_eq!(entry_return_url("", "../x", ""), "");
        assert_eq!(entry_return_url("", "a b", ""), "");
        assert_eq!(entry_return_url("", "", ""), "");
        // A product link: the product, before an operation; a return address before both.
        assert_eq!(entry_return_url("", "", "100101"), "/gr/product/100101");
        assert_eq!(entry_return_url("", "NOEL", " 42 "), "/gr/product/42");
        assert_eq!(entry_return_url("/gr/cart", "", "42"), "/gr/cart");
        for refused in [
            "-1",
            "0",
            "000",
            "1e3",
            "4x",
            "../1",
            "١٢",
            "1234567890123456789",
        ] {
            assert_eq!(
                entry_return_url("", "NOEL", refused),
                "/operation/NOEL",
                "{refused}"
            );
        }
    }
}

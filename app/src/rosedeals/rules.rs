//! The rose deals' pure rules (spec 001 §4 "Refund post", "Retry post", "Rose-deals contact
//! send"; §5 "Missing values"; §7 paging). No I/O; compiled for the server and the browser.
use crate::model::error::ErrorBody;
use crate::rosedeals::model::{ContactMessage, DealAddress, DealErrorBody};

/// The refund form's state (spec 001 §3 "Refund state").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefundState {
    pub amount: Option<i64>,
    pub error_code: Option<String>,
    pub iban: String,
    pub loading: bool,
    pub success: bool,
    pub error: bool,
    pub iban_stored: bool,
}

/// The generic failure of a post that came back without a code.
pub const POST_ERROR: &str = "post_error";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefundAction {
    RefundPending,
    RefundSuccess {
        amount: i64,
    },
    /// `code`: the server's `error_code`, if it sent one.
    RefundRejected {
        code: Option<String>,
    },
    RetryPending,
    RetrySuccess,
    RetryRejected {
        code: Option<String>,
    },
}

/// Refund post: pending sets loading and clears errors; success stores the amount and
/// clears the IBAN and the stored flag; a rejection with a code stores it, without one a
/// generic post error and the IBAN is cleared. Retry is the same but keeps the IBAN.
pub fn reduce_refund(s: &RefundState, a: &RefundAction) -> RefundState {
    let mut n = s.clone();
    match a {
        RefundAction::RefundPending | RefundAction::RetryPending => {
            n.loading = true;
            n.error = false;
            n.error_code = None;
            n.success = false;
        }
        RefundAction::RefundSuccess { amount } => {
            n.loading = false;
            n.success = true;
            n.amount = Some(*amount);
            n.iban.clear();
            n.iban_stored = false;
        }
        RefundAction::RetrySuccess => {
            n.loading = false;
            n.success = true;
        }
        RefundAction::RefundRejected { code } | RefundAction::RetryRejected { code } => {
            n.loading = false;
            n.error = true;
            match code {
                Some(c) if !c.is_empty() => n.error_code = Some(c.clone()),
                _ => {
                    n.error_code = Some(POST_ERROR.into());
                    if matches!(a, RefundAction::RefundRejected { .. }) {
                        n.iban.clear();
                    }
                }
            }
        }
    }
    n
}

/// After a successful refund or retry, page 1 of both lists is fetched again.
pub fn refresh_after(a: &RefundAction) -> Option<[(&'static str, i64); 2]> {
    matches!(
        a,
        RefundAction::RefundSuccess { .. } | RefundAction::RetrySuccess
    )
    .then_some([("current", 1), ("archived", 1)])
}

/// The contact form's sending state (spec 001 §4 "Rose-deals contact send").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContactState {
    pub loading: bool,
    /// The message went through.
    pub sent: bool,
    /// The refusal's message key, while one is shown.
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContactAction {
    Pending,
    Fulfilled,
    /// `error`: the message key of the refusal (`rules::error_key`, or "Missing values"'s).
    Rejected {
        error: String,
    },
}

/// Contact send: pending sets loading (a new attempt hides the last refusal); fulfilled
/// sets the message sent; rejected stores the error. Loading ends with either.
pub fn reduce_contact(s: &ContactState, a: &ContactAction) -> ContactState {
    let mut n = s.clone();
    match a {
        ContactAction::Pending => {
            n.loading = true;
            n.error = None;
        }
        ContactAction::Fulfilled => {
            n.loading = false;
            n.sent = true;
            n.error = None;
        }
        ContactAction::Rejected { error } => {
            n.loading = false;
            n.error = Some(error.clone());
        }
    }
    n
}

/// The contact message's refusal (spec 001 §5): no profile (address) or no vouchers.
pub const MISSING_VALUES: &str = "Missing values";

pub fn check_contact(m: &ContactMessage) -> Result<(), &'static str> {
    let profile_ok = m.address.as_ref().is_some_and(address_present);
    let vouchers_ok = m.vouchers.iter().any(|v| !v.trim().is_empty());
    if profile_ok && vouchers_ok {
        Ok(())
    } else {
        Err(MISSING_VALUES)
    }
}

/// An address names someone and somewhere.
pub fn address_present(a: &DealAddress) -> bool {
    [&a.first_name, &a.last_name, &a.city, &a.country]
        .iter()
        .all(|f| !f.trim().is_empty())
}

/// Bounds of the free texts (characters).
pub const TEXT_MAX: usize = 2000;
pub const FIELD_MAX: usize = 200;

/// Every field within its bound.
pub fn address_within_bounds(a: &DealAddress) -> bool {
    [
        &a.city,
        &a.country,
        &a.details,
        &a.first_name,
        &a.last_name,
        &a.zip_code,
        &a.extras,
    ]
    .iter()
    .all(|f| f.chars().count() <= FIELD_MAX)
}

/// `?page=`: absent means 1; below 1 or absurd is refused.
pub fn page_of(page: Option<i64>) -> Option<i64> {
    match page {
        None => Some(1),
        Some(p) if (1..=10_000).contains(&p) => Some(p),
        _ => None,
    }
}

/// Where a voucher stands at `now`: a void or used one stays so; an active one past its
/// expiry is expired.
pub fn voucher_status(stored: &str, expires_at: i64, now: i64) -> &'static str {
    match stored {
        "void" => "void",
        "used" => "used",
        _ if expires_at <= now => "expired",
        _ => "active",
    }
}

/// An order is current while it is not refunded (or being refunded) and one of its
/// vouchers can still be used; otherwise it is archived (expired, used, refunded).
pub fn is_current(order_status: &str, voucher_statuses: &[&str]) -> bool {
    !matches!(order_status, "refund_in_progress" | "refunded")
        && voucher_statuses.contains(&"active")
}

/// The refund of an order: what its usable vouchers cost.
pub fn refund_amount(vouchers: &[(&str, i64)]) -> i64 {
    vouchers
        .iter()
        .filter(|(s, _)| *s == "active")
        .map(|(_, p)| p)
        .sum()
}

/// The alphabet of voucher codes: no 0/O, 1/I/L, so a code read aloud is typed right.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A voucher code from 12 random bytes: `RD-XXXX-XXXX-XXXX`.
pub fn voucher_code(random: &[u8; 12]) -> String {
    let chars: Vec<char> = random
        .iter()
        .map(|b| CODE_ALPHABET[*b as usize % CODE_ALPHABET.len()] as char)
        .collect();
    format!(
        "RD-{}-{}-{}",
        chars[0..4].iter().collect::<String>(),
        chars[4..8].iter().collect::<String>(),
        chars[8..12].iter().collect::<String>()
    )
}

/// Why an attachment is refused, with the DSA report's messages (the same limits): past
/// `max` bytes, or not of an allowed type by its magic bytes (`is_allowed`, the shared
/// upload check). `None`: accepted.
pub fn attachment_error(
    len: usize,
    content_type: &str,
    is_allowed: impl Fn(&str) -> bool,
    max: usize,
) -> Option<&'static str> {
    if len > max {
        Some("dsaform.error.file_size")
    } else if !is_allowed(content_type) {
        Some("dsaform.error.file_type")
    } else {
        None
    }
}

/// The message a form shows for an error body: its known code's key, else the generic one.
pub fn error_key(body: Option<&ErrorBody>) -> &'static str {
    code_key(body.map(|b| b.error_code.as_str()))
}

/// The code of a refund or retry refusal: `errorCode` (spec 001 §7), else `error_code`.
pub fn refusal_code(body: &DealErrorBody) -> Option<&str> {
    [&body.error_code_camel, &body.error_code]
        .into_iter()
        .map(|c| c.as_str())
        .find(|c| !c.is_empty())
}

/// The message key of an error code: a known one's, else the generic one.
pub fn code_key(code: Option<&str>) -> &'static str {
    match code {
        Some("invalid_iban") => "rosedeals.errors.invalid_iban",
        Some("already_refunded") => "rosedeals.errors.already_refunded",
        Some("nothing_to_refund") => "rosedeals.errors.nothing_to_refund",
        Some("missing_values") => "rosedeals.errors.missing_values",
        Some("no_iban") => "rosedeals.errors.no_iban",
        _ => "errors.general_retry.notification",
    }
}

#[cfg(test)]
mod tests;

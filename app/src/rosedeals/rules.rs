//! The rose deals' pure rules (spec 001 §4 "Refund post", "Retry post", "Rose-deals contact
//! send"; §5 "Missing values"; §7 paging). No I/O; compiled for the server and the browser.
use crate::rosedeals::model::{ContactMessage, DealAddress};

/// The `cart_type` of an order of rose deals only: vouchers, delivered in the shop, never
/// shipped nor returned (refunded through the rose deals' own form instead).
pub const CART_TYPE: &str = "rosedeal";

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

#[cfg(test)]
mod tests;

//! Response codes of spec §8, the cart errors and their message keys.
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Default cart type (spec §9).
pub const DEFAULT_CART_TYPE: &str = "fs";
/// Cart types (spec §3).
pub const CART_TYPES: [&str; 4] = ["fs", "marketplace", "leg", "new"];
/// Loyalty programme types (spec §3): premium 1, pass 2. Quantity always 1 (§9).
pub const LOYALTY_PREMIUM: i64 = 1;
pub const LOYALTY_PASS: i64 = 2;
pub const LOYALTY_QUANTITY: i64 = 1;
/// Basket expiry notice: "expires soon" at 2 minutes or less.
pub const EXPIRE_SOON_SECS: i64 = 120;
/// Largest quantity accepted in one add.
pub const MAX_QUANTITY_PER_ADD: i64 = 99;
/// Flat shipping fee (cents) of a cart with items.
pub const SHIPPING_CENTS: i64 = 690;

/// Price (cents) and label key of a loyalty programme.
pub fn loyalty_product(id: i64) -> Option<(i64, &'static str)> {
    match id {
        LOYALTY_PREMIUM => Some((2990, "cart.loyalty.premium")),
        LOYALTY_PASS => Some((990, "cart.loyalty.pass")),
        _ => None,
    }
}

pub fn is_cart_type(t: &str) -> bool {
    CART_TYPES.contains(&t)
}

/// How an order was paid, as its detail shows it: a card typed at checkout (its last four
/// digits kept), or vouchers covering the whole amount (nothing charged, no card needed).
/// (`wallet`, a card saved in the member's wallet, is a method the order detail knows
/// too, for a provider that charges saved cards.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaymentMethod {
    Card { last4: Option<String> },
    Voucher,
}

impl PaymentMethod {
    /// The name stored on the order and shown through `orders.payment.<name>`.
    pub fn wire(&self) -> &'static str {
        match self {
            PaymentMethod::Card { .. } => "card",
            PaymentMethod::Voucher => "voucher",
        }
    }

    pub fn last4(&self) -> Option<&str> {
        match self {
            PaymentMethod::Card { last4 } => last4.as_deref(),
            PaymentMethod::Voucher => None,
        }
    }
}

/// What pays an order of `total` cents with the card the member typed: nothing to charge
/// is a voucher-covered order; anything else is the card (its last four digits when the
/// number has at least 12 digits).
pub fn checkout_method(total: i64, card: Option<&str>) -> PaymentMethod {
    if total <= 0 {
        return PaymentMethod::Voucher;
    }
    let digits: String = card
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    PaymentMethod::Card {
        last4: (digits.len() >= 12).then(|| digits[digits.len() - 4..].to_string()),
    }
}

/// The cart type a product goes to (spec 000 cart types), from its seller kind: products
/// of marketplace sales go to the marketplace cart (its checkout makes marketplace orders,
/// which reach the marketplace help); everything else to the flash-sale cart.
pub fn cart_type_for_seller(seller_kind: &str) -> &'static str {
    match seller_kind {
        "marketplace" => "marketplace",
        _ => DEFAULT_CART_TYPE,
    }
}

/// A cart holding live lines of `current` type takes no item of `wanted` type: one cart,
/// one checkout (a cart with no type yet takes anything).
pub fn cart_types_conflict(current: Option<&str>, wanted: &str) -> bool {
    current.is_some_and(|t| t != wanted)
}

// ------------------------------------------------------------------ response codes (§8)

/// Cart response codes (spec §8) with the error code and message key of each failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CartCode {
    Success,
    Created,
    Empty,
    Expired,
    Frozen,
    Reopen,
    OnboardingRedirect,
    ClientError,
    AccessDenied,
    Incompatible,
    InvalidCart,
    MoreThanOne,
    Unexpected,
}

impl CartCode {
    pub fn status(self) -> u16 {
        match self {
            CartCode::Success => 200,
            CartCode::Created => 201,
            CartCode::Empty => 204,
            CartCode::Expired => 260,
            CartCode::Frozen => 261,
            CartCode::Reopen => 262,
            CartCode::OnboardingRedirect => 263,
            CartCode::ClientError => 400,
            CartCode::AccessDenied => 401,
            CartCode::Incompatible => 409,
            CartCode::InvalidCart => 412,
            CartCode::MoreThanOne => 429,
            CartCode::Unexpected => 500,
        }
    }

    pub fn from_status(status: u16) -> Option<CartCode> {
        use CartCode::*;
        [
            Success,
            Created,
            Empty,
            Expired,
            Frozen,
            Reopen,
            OnboardingRedirect,
            ClientError,
            AccessDenied,
            Incompatible,
            InvalidCart,
            MoreThanOne,
            Unexpected,
        ]
        .into_iter()
        .find(|c| c.status() == status)
    }

    pub fn is_success(self) -> bool {
        matches!(
            self,
            CartCode::Success | CartCode::Created | CartCode::Empty
        )
    }
}

/// A cart failure: its code, `error_code` and the translation key of `error_description`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CartError {
    Expired,
    Frozen,
    Reopen,
    OnboardingRedirect,
    BadRequest,
    UnknownProduct,
    OutOfStock,
    InvalidCard,
    PaymentDeclined,
    VoucherUnknown,
    VoucherExhausted,
    VoucherMemberLimit,
    Unauthorized,
    IncompatibleCartTypes,
    InvalidCart,
    MaxReached,
    /// Paying needs a delivery address of the member's.
    AddressRequired,
    Unexpected,
}

impl CartError {
    pub fn code(self) -> CartCode {
        use CartError::*;
        match self {
            Expired => CartCode::Expired,
            Frozen => CartCode::Frozen,
            Reopen => CartCode::Reopen,
            OnboardingRedirect => CartCode::OnboardingRedirect,
            BadRequest | UnknownProduct | OutOfStock | InvalidCard | PaymentDeclined
            | VoucherUnknown | VoucherExhausted | VoucherMemberLimit | AddressRequired => {
                CartCode::ClientError
            }
            Unauthorized => CartCode::AccessDenied,
            IncompatibleCartTypes => CartCode::Incompatible,
            InvalidCart => CartCode::InvalidCart,
            MaxReached => CartCode::MoreThanOne,
            Unexpected => CartCode::Unexpected,
        }
    }

    pub fn error_code(self) -> &'static str {
        use CartError::*;
        match self {
            Expired => "expired",
            Frozen => "frozen",
            Reopen => "reopen",
            OnboardingRedirect => "onboarding_redirect",
            BadRequest => "bad_request",
            UnknownProduct => "unknown_product",
            OutOfStock => "out_of_stock",
            InvalidCard => "invalid_card",
            PaymentDeclined => "payment_declined",
            VoucherUnknown => "voucher_unknown",
            VoucherExhausted => "voucher_exhausted",
            VoucherMemberLimit => "voucher_member_limit",
            Unauthorized => "unauthorized",
            IncompatibleCartTypes => "incompatible_cart_types",
            InvalidCart => "invalid_cart",
            MaxReached => "max_reached",
            AddressRequired => "address_required",
            Unexpected => "unexpected",
        }
    }

    /// Translation key shown to the member (all five locales carry it).
    pub fn message_key(self) -> &'static str {
        use CartError::*;
        match self {
            Expired => "cart.errors.expired",
            Frozen => "cart.errors.frozen",
            Reopen => "cart.errors.reopen",
            OnboardingRedirect => "cart.errors.onboarding",
            BadRequest => "cart.errors.bad_request",
            UnknownProduct => "cart.errors.unknown_product",
            OutOfStock => "cart.errors.out_of_stock",
            InvalidCard => "cart.errors.invalid_card",
            PaymentDeclined => "cart.errors.payment_declined",
            VoucherUnknown => "cart.errors.voucher_unknown",
            VoucherExhausted => "cart.errors.voucher_exhausted",
            VoucherMemberLimit => "cart.errors.voucher_member_limit",
            Unauthorized => "cart.errors.unauthorized",
            IncompatibleCartTypes => "cart.errors.incompatible",
            InvalidCart => "cart.errors.invalid_cart",
            MaxReached => "cart.errors.max_reached",
            AddressRequired => "address.checkout.required",
            Unexpected => "cart.errors.unexpected",
        }
    }

    pub const ALL: [CartError; 18] = [
        CartError::Expired,
        CartError::Frozen,
        CartError::Reopen,
        CartError::OnboardingRedirect,
        CartError::BadRequest,
        CartError::UnknownProduct,
        CartError::OutOfStock,
        CartError::InvalidCard,
        CartError::PaymentDeclined,
        CartError::VoucherUnknown,
        CartError::VoucherExhausted,
        CartError::VoucherMemberLimit,
        CartError::Unauthorized,
        CartError::IncompatibleCartTypes,
        CartError::InvalidCart,
        CartError::MaxReached,
        CartError::AddressRequired,
        CartError::Unexpected,
    ];
}

/// The error name the cart helper builds (spec §8): status, status text and error_code.
pub fn error_name(status: u16, status_text: &str, error_code: &str) -> String {
    format!("{status} {status_text} {error_code}")
        .trim()
        .to_string()
}

/// The message of an error body: `error_description`, else `errorDescription`.
pub fn error_message(body: &Value) -> Option<String> {
    body.get("error_description")
        .or_else(|| body.get("errorDescription"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

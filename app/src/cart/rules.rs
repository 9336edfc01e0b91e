//! Cart rules of spec 000 §3-§5, §8, §9: response codes and their message keys, the
//! add-to-cart payload shapes, the cart and basket state transitions, totals with
//! vouchers, availability, basket expiry notices, the sandbox card numbers.
//! Pure: shared by the server and the browser, unit-tested.
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::model::cart::{CartContext, Totals};
use crate::model::catalog_api::Availability;

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
            | VoucherUnknown | VoucherExhausted | VoucherMemberLimit => CartCode::ClientError,
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
            Unexpected => "cart.errors.unexpected",
        }
    }

    pub const ALL: [CartError; 17] = [
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

// ------------------------------------------------------------------ payload (§5)

/// A product id on the wire: a positive integer, as a number or a string of digits.
pub fn parse_id(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s)
            if !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit()) =>
        {
            s.parse().ok()
        }
        _ => None,
    }
    .filter(|id| *id > 0)
}

/// A quantity on the wire: an integer from 1 to [`MAX_QUANTITY_PER_ADD`].
pub fn parse_quantity(v: Option<&Value>) -> Option<i64> {
    match v {
        None => Some(1),
        Some(Value::Number(n)) => n.as_i64(),
        _ => None,
    }
    .filter(|q| (1..=MAX_QUANTITY_PER_ADD).contains(q))
}

/// What the member asks to add.
#[derive(Clone, Debug, PartialEq)]
pub enum CartInput {
    /// One product (the single-item form).
    Single { product_id: i64, quantity: i64 },
    /// A list of products (the multi-item form), even of one element.
    List(Vec<(i64, i64)>),
}

/// Context of an add as the page knows it; `bundle_id` is sent only when present.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AddContext {
    pub sale_id: Option<i64>,
    pub origin: Option<String>,
    pub bundle_id: Option<String>,
}

/// The call to make for an add: path under `/api/cartproxy/v1` and JSON body (spec §5):
/// a list uses the multi-item form (`/items`, `products_quantity`), a single input the
/// single-item form (`/item`); `bundle_id` only when present; the product id becomes a
/// string when reopening an order.
pub fn cart_payload(
    input: &CartInput,
    cart_type: Option<&str>,
    context: Option<&AddContext>,
    order_to_reopen: Option<i64>,
) -> (&'static str, Value) {
    let cart_type = cart_type.unwrap_or(DEFAULT_CART_TYPE);
    let ctx = context.map(|c| CartContext {
        sale_id: c.sale_id.map(Value::from),
        origin: c.origin.clone(),
        bundle_id: c.bundle_id.clone().map(Value::from),
    });
    match input {
        CartInput::List(list) => {
            let products: Vec<Value> = list
                .iter()
                .map(|(id, q)| json!({ "product_id": id, "quantity": q }))
                .collect();
            let mut body = json!({ "products_quantity": products, "cart_type": cart_type });
            if let Some(c) = ctx {
                body["context"] = serde_json::to_value(c).unwrap_or(Value::Null);
            }
            ("/items", body)
        }
        CartInput::Single {
            product_id,
            quantity,
        } => {
            let id = match order_to_reopen {
                Some(_) => Value::from(product_id.to_string()),
                None => Value::from(*product_id),
            };
            let mut body =
                json!({ "product_id": id, "quantity": quantity, "cart_type": cart_type });
            if let Some(c) = ctx {
                body["context"] = serde_json::to_value(c).unwrap_or(Value::Null);
            }
            if let Some(order) = order_to_reopen {
                body["order_to_reopen"] = Value::from(order.to_string());
            }
            ("/item", body)
        }
    }
}

// ------------------------------------------------------------------ state (§4)

/// Cart state (spec §3): newItem, newLoyalty, newError, loading, error, params.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartState {
    pub new_item: bool,
    pub new_loyalty: bool,
    pub new_error: bool,
    pub loading: bool,
    pub error: Option<String>,
    pub params: Option<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CartAction {
    /// Any cart request starts.
    Request {
        params: Option<Value>,
    },
    /// Add item or reopen cart answered with this status.
    AddItemSuccess {
        status: u16,
    },
    AddLoyaltySuccess,
    /// Freeze, defrost, recover, cancel recovery, remove: success without a flag.
    Success,
    /// Every `..._FAILED` action.
    Failure {
        error: String,
    },
}

/// Spec §4 "Cart": a request marks loading and resets the three flags; add item or
/// reopen marks newItem, except with the onboarding-redirect status (then only the error
/// is cleared); add loyalty marks newLoyalty; every failure marks newError.
pub fn reduce_cart(state: &CartState, action: &CartAction) -> CartState {
    let mut s = state.clone();
    match action {
        CartAction::Request { params } => {
            s.loading = true;
            s.new_item = false;
            s.new_loyalty = false;
            s.new_error = false;
            s.params = params.clone();
        }
        CartAction::AddItemSuccess { status } => {
            s.loading = false;
            s.error = None;
            if *status != CartCode::OnboardingRedirect.status() {
                s.new_item = true;
            }
        }
        CartAction::AddLoyaltySuccess => {
            s.loading = false;
            s.error = None;
            s.new_loyalty = true;
        }
        CartAction::Success => {
            s.loading = false;
            s.error = None;
        }
        CartAction::Failure { error } => {
            s.loading = false;
            s.error = Some(error.clone());
            s.new_error = true;
        }
    }
    s
}

/// Basket state (spec §3): expiry notices and the voucher-removal and print flags.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BasketState {
    pub has_notify_basket_expired: bool,
    pub has_notify_basket_expire_soon: bool,
    pub remaining_time: i64,
    pub is_remove_success: bool,
    pub is_remove_error: bool,
    pub print_loading: bool,
    pub print_error: bool,
    pub print_url: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BasketAction {
    /// The basket was refreshed: the expiry notices are reset, then set from the answer.
    Refresh {
        remaining_time: i64,
        expired: bool,
    },
    RemoveVoucherPending,
    RemoveVoucherSuccess,
    RemoveVoucherFailure,
    PrintPending,
    PrintSuccess {
        print_url: String,
    },
    PrintFailure,
}

pub fn reduce_basket(state: &BasketState, action: &BasketAction) -> BasketState {
    let mut s = state.clone();
    match action {
        BasketAction::Refresh {
            remaining_time,
            expired,
        } => {
            let (soon, exp) = expiry_notices(*remaining_time, *expired);
            s.remaining_time = *remaining_time;
            s.has_notify_basket_expire_soon = soon;
            s.has_notify_basket_expired = exp;
        }
        BasketAction::RemoveVoucherPending => {
            s.is_remove_success = false;
            s.is_remove_error = false;
        }
        BasketAction::RemoveVoucherSuccess => s.is_remove_success = true,
        BasketAction::RemoveVoucherFailure => s.is_remove_error = true,
        BasketAction::PrintPending => {
            s.print_loading = true;
            s.print_error = false;
        }
        BasketAction::PrintSuccess { print_url } => {
            s.print_loading = false;
            s.print_url = Some(print_url.clone());
        }
        BasketAction::PrintFailure => {
            s.print_loading = false;
            s.print_error = true;
        }
    }
    s
}

/// Suspend state (spec §3): isSuspendedBasket, loading, error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuspendState {
    pub is_suspended_basket: bool,
    pub loading: bool,
    pub error: bool,
}

/// Spec §4 "Suspend basket": request sets loading and clears the error; success records
/// the suspended-order check; failure sets the error flag.
pub fn reduce_suspend(state: &SuspendState, outcome: Option<Result<bool, ()>>) -> SuspendState {
    match outcome {
        None => SuspendState {
            loading: true,
            error: false,
            ..state.clone()
        },
        Some(Ok(suspended)) => SuspendState {
            is_suspended_basket: suspended,
            loading: false,
            error: false,
        },
        Some(Err(())) => SuspendState {
            loading: false,
            error: true,
            ..state.clone()
        },
    }
}

/// (expire soon, expired) notices for a basket with `remaining` seconds of hold.
pub fn expiry_notices(remaining: i64, expired: bool) -> (bool, bool) {
    (
        !expired && remaining > 0 && remaining <= EXPIRE_SOON_SECS,
        expired,
    )
}

// ------------------------------------------------------------------ stock

/// Availability of a product for a member: InBasket when the member holds some,
/// MaxReached at the per-member limit, OutOfStock when nothing is left for others.
pub fn availability(left: i64, in_basket: i64, per_member_limit: i64) -> Availability {
    if in_basket >= per_member_limit && per_member_limit > 0 {
        Availability::MaxReached
    } else if in_basket > 0 {
        Availability::InBasket
    } else if left <= 0 {
        Availability::OutOfStock
    } else {
        Availability::Available
    }
}

// ------------------------------------------------------------------ totals

/// A voucher as the totals need it.
#[derive(Clone, Debug, PartialEq)]
pub struct VoucherRule {
    pub percent: bool,
    pub shipping: bool,
    pub value: i64,
}

/// Totals of a cart (cents) and what each voucher takes off, in order. Product vouchers
/// never take off more than the remaining subtotal, shipping vouchers more than shipping.
pub fn totals(lines: &[(i64, i64)], vouchers: &[VoucherRule], loyalty: i64) -> (Totals, Vec<i64>) {
    let subtotal: i64 = lines.iter().map(|(price, q)| price * q).sum();
    let shipping = if lines.is_empty() { 0 } else { SHIPPING_CENTS };
    let (mut discount, mut shipping_discount) = (0i64, 0i64);
    let mut amounts = Vec::with_capacity(vouchers.len());
    for v in vouchers {
        let (base, used) = if v.shipping {
            (shipping, &mut shipping_discount)
        } else {
            (subtotal, &mut discount)
        };
        let room = base - *used;
        let want = if v.percent {
            base * v.value.clamp(0, 100) / 100
        } else {
            v.value.max(0)
        };
        let amount = want.min(room).max(0);
        *used += amount;
        amounts.push(amount);
    }
    let total = subtotal - discount + shipping - shipping_discount + loyalty;
    (
        Totals {
            subtotal,
            discount,
            shipping,
            shipping_discount,
            loyalty,
            total,
        },
        amounts,
    )
}

// ------------------------------------------------------------------ sandbox payment

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxCard {
    Accepted,
    /// Accepted after the bank takes its time (as a 3-D Secure check would): shows what
    /// members see while checkouts are at capacity.
    SlowAccepted,
    Declined,
    Invalid,
}

/// Sandbox test cards: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 declined,
/// anything else is not a valid card. Spaces and dashes are ignored.
pub fn sandbox_card(card: &str) -> SandboxCard {
    let digits: String = card.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    match digits.as_str() {
        "4242424242424242" => SandboxCard::Accepted,
        "4000000000003220" => SandboxCard::SlowAccepted,
        "4000000000000002" => SandboxCard::Declined,
        _ => SandboxCard::Invalid,
    }
}

impl crate::model::error::WireError for CartError {
    fn status(&self) -> u16 {
        CartError::code(*self).status()
    }
    fn code(&self) -> &'static str {
        self.error_code()
    }
    fn message_key(&self) -> &'static str {
        CartError::message_key(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_input_uses_the_multi_item_form() {
        let (path, body) = cart_payload(&CartInput::List(vec![(1001010, 2)]), None, None, None);
        assert_eq!(path, "/items");
        assert_eq!(
            body,
            json!({ "products_quantity": [{ "product_id": 1001010, "quantity": 2 }], "cart_type": "fs" })
        );
    }

    #[test]
    fn single_input_uses_the_single_item_form_with_default_type() {
        let (path, body) = cart_payload(
            &CartInput::Single {
                product_id: 7,
                quantity: 1,
            },
            None,
            None,
            None,
        );
        assert_eq!(path, "/item");
        assert_eq!(
            body,
            json!({ "product_id": 7, "quantity": 1, "cart_type": "fs" })
        );
        assert!(body.get("products_quantity").is_none());
    }

    #[test]
    fn bundle_id_only_when_present() {
        let single = CartInput::Single {
            product_id: 7,
            quantity: 1,
        };
        let without = AddContext {
            sale_id: Some(1001),
            origin: Some("catalog".into()),
            bundle_id: None,
        };
        let (_, body) = cart_payload(&single, Some("marketplace"), Some(&without), None);
        assert_eq!(
            body["context"],
            json!({ "sale_id": 1001, "origin": "catalog" })
        );
        assert_eq!(body["cart_type"], "marketplace");
        let with = AddContext {
            bundle_id: Some("b-3".into()),
            ..without
        };
        let (_, body) = cart_payload(&single, None, Some(&with), None);
        assert_eq!(body["context"]["bundle_id"], "b-3");
    }

    #[test]
    fn product_id_becomes_a_string_when_reopening() {
        let single = CartInput::Single {
            product_id: 1001010,
            quantity: 1,
        };
        let (_, body) = cart_payload(&single, None, None, Some(42));
        assert_eq!(body["product_id"], json!("1001010"));
        assert_eq!(body["order_to_reopen"], json!("42"));
        let (_, body) = cart_payload(&single, None, None, None);
        assert_eq!(body["product_id"], json!(1001010));
        assert!(body.get("order_to_reopen").is_none());
    }

    #[test]
    fn ids_and_quantities_parse_strictly() {
        assert_eq!(parse_id(&json!("1001010")), Some(1001010));
        assert_eq!(parse_id(&json!(12)), Some(12));
        for bad in [
            json!("12a"),
            json!(""),
            json!(-3),
            json!(0),
            json!(1.5),
            json!(null),
            json!("-1"),
        ] {
            assert_eq!(parse_id(&bad), None, "{bad}");
        }
        assert_eq!(parse_quantity(None), Some(1));
        assert_eq!(parse_quantity(Some(&json!(3))), Some(3));
        for bad in [json!(0), json!(-1), json!(100), json!("2"), json!(1.5)] {
            assert_eq!(parse_quantity(Some(&bad)), None, "{bad}");
        }
    }

    #[test]
    fn request_resets_flags_and_sets_loading() {
        let s = CartState {
            new_item: true,
            new_loyalty: true,
            new_error: true,
            ..Default::default()
        };
        let s = reduce_cart(&s, &CartAction::Request { params: None });
        assert!(s.loading && !s.new_item && !s.new_loyalty && !s.new_error);
    }

    #[test]
    fn add_item_marks_new_item_except_onboarding_redirect() {
        let start = reduce_cart(
            &CartState {
                error: Some("old".into()),
                ..Default::default()
            },
            &CartAction::Request { params: None },
        );
        let s = reduce_cart(&start, &CartAction::AddItemSuccess { status: 201 });
        assert!(s.new_item && !s.loading && s.error.is_none());
        let s = reduce_cart(&start, &CartAction::AddItemSuccess { status: 263 });
        assert!(!s.new_item, "onboarding redirect does not mark newItem");
        assert!(s.error.is_none(), "but the error is cleared");
    }

    #[test]
    fn loyalty_marks_new_loyalty_and_failures_new_error() {
        let s = reduce_cart(&CartState::default(), &CartAction::AddLoyaltySuccess);
        assert!(s.new_loyalty && !s.new_item);
        let s = reduce_cart(
            &s,
            &CartAction::Failure {
                error: "409".into(),
            },
        );
        assert!(s.new_error && s.error.as_deref() == Some("409") && !s.loading);
    }

    #[test]
    fn basket_refresh_resets_notices_and_voucher_flags() {
        let s = reduce_basket(
            &BasketState::default(),
            &BasketAction::Refresh {
                remaining_time: 90,
                expired: false,
            },
        );
        assert!(s.has_notify_basket_expire_soon && !s.has_notify_basket_expired);
        let s = reduce_basket(
            &s,
            &BasketAction::Refresh {
                remaining_time: 600,
                expired: false,
            },
        );
        assert!(!s.has_notify_basket_expire_soon);
        let s = reduce_basket(
            &s,
            &BasketAction::Refresh {
                remaining_time: 0,
                expired: true,
            },
        );
        assert!(s.has_notify_basket_expired && !s.has_notify_basket_expire_soon);
        let s = reduce_basket(&s, &BasketAction::RemoveVoucherFailure);
        assert!(s.is_remove_error);
        let s = reduce_basket(&s, &BasketAction::RemoveVoucherPending);
        assert!(!s.is_remove_error && !s.is_remove_success);
        let s = reduce_basket(&s, &BasketAction::RemoveVoucherSuccess);
        assert!(s.is_remove_success);
        let s = reduce_basket(&s, &BasketAction::PrintPending);
        assert!(s.print_loading);
        let s = reduce_basket(
            &s,
            &BasketAction::PrintSuccess {
                print_url: "/vouchers/print/x".into(),
            },
        );
        assert_eq!(s.print_url.as_deref(), Some("/vouchers/print/x"));
        assert!(reduce_basket(&s, &BasketAction::PrintFailure).print_error);
    }

    #[test]
    fn suspend_transitions() {
        let s = reduce_suspend(
            &SuspendState {
                error: true,
                ..Default::default()
            },
            None,
        );
        assert!(s.loading && !s.error);
        let ok = reduce_suspend(&s, Some(Ok(true)));
        assert!(ok.is_suspended_basket && !ok.loading);
        let failed = reduce_suspend(&s, Some(Err(())));
        assert!(failed.error && !failed.loading);
    }

    #[test]
    fn codes_match_the_spec() {
        let codes: Vec<u16> = [
            CartCode::Success,
            CartCode::Created,
            CartCode::Empty,
            CartCode::Expired,
            CartCode::Frozen,
            CartCode::Reopen,
            CartCode::OnboardingRedirect,
            CartCode::ClientError,
            CartCode::AccessDenied,
            CartCode::Incompatible,
            CartCode::InvalidCart,
            CartCode::MoreThanOne,
            CartCode::Unexpected,
        ]
        .iter()
        .map(|c| c.status())
        .collect();
        assert_eq!(
            codes,
            [200, 201, 204, 260, 261, 262, 263, 400, 401, 409, 412, 429, 500]
        );
        assert_eq!(CartCode::from_status(261), Some(CartCode::Frozen));
        assert_eq!(CartError::IncompatibleCartTypes.code().status(), 409);
        assert_eq!(
            CartError::IncompatibleCartTypes.error_code(),
            "incompatible_cart_types"
        );
        assert_eq!(
            error_name(409, "Conflict", "incompatible_cart_types"),
            "409 Conflict incompatible_cart_types"
        );
        assert_eq!(
            error_message(&json!({ "errorDescription": "cart.errors.frozen" })).as_deref(),
            Some("cart.errors.frozen")
        );
    }

    #[test]
    fn totals_with_vouchers() {
        let lines = [(2000, 2), (1000, 1)];
        let ten = VoucherRule {
            percent: true,
            shipping: false,
            value: 10,
        };
        let free_shipping = VoucherRule {
            percent: true,
            shipping: true,
            value: 100,
        };
        let (t, amounts) = totals(&lines, &[ten.clone(), free_shipping], 990);
        assert_eq!(t.subtotal, 5000);
        assert_eq!(amounts, vec![500, SHIPPING_CENTS]);
        assert_eq!(t.total, 5000 - 500 + 990);
        let huge = VoucherRule {
            percent: false,
            shipping: false,
            value: 99_999,
        };
        let (t, amounts) = totals(&lines, &[ten, huge], 0);
        assert_eq!(amounts, vec![500, 4500], "never below zero");
        assert_eq!(t.total, SHIPPING_CENTS);
        assert_eq!(totals(&[], &[], 0).0.total, 0);
    }

    #[test]
    fn availability_and_notices() {
        assert_eq!(availability(3, 0, 5), Availability::Available);
        assert_eq!(availability(0, 0, 5), Availability::OutOfStock);
        assert_eq!(availability(0, 2, 5), Availability::InBasket);
        assert_eq!(availability(9, 5, 5), Availability::MaxReached);
        assert_eq!(expiry_notices(120, false), (true, false));
        assert_eq!(expiry_notices(121, false), (false, false));
        assert_eq!(expiry_notices(0, true), (false, true));
    }

    #[test]
    fn every_message_key_is_translated() {
        for (lang, text) in [
            ("fr", include_str!("../../locales/fr.json")),
            ("de", include_str!("../../locales/de.json")),
            ("es", include_str!("../../locales/es.json")),
            ("it", include_str!("../../locales/it.json")),
            ("nl", include_str!("../../locales/nl.json")),
        ] {
            let texts: Value = serde_json::from_str(text).unwrap();
            let keys = CartError::ALL
                .iter()
                .map(|e| e.message_key())
                .chain([1, 2].map(|id| loyalty_product(id).unwrap().1));
            for key in keys {
                assert!(
                    texts[key].as_str().is_some_and(|t| !t.is_empty()),
                    "{lang}: {key}"
                );
            }
        }
    }

    #[test]
    fn sandbox_cards() {
        assert_eq!(sandbox_card("4242 4242 4242 4242"), SandboxCard::Accepted);
        assert_eq!(sandbox_card("4000-0000-0000-0002"), SandboxCard::Declined);
        assert_eq!(sandbox_card("1234"), SandboxCard::Invalid);
        assert_eq!(
            sandbox_card("4000 0000 0000 3220"),
            SandboxCard::SlowAccepted
        );
        assert_eq!(loyalty_product(1).unwrap().0, 2990);
        assert!(loyalty_product(3).is_none());
    }
}

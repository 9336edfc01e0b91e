//! The rose deals' wire shapes (spec 001 §3 "Rose-deals contact message", "Refund form",
//! "Retry form", "Refund state"; §7 "Rose deals"). Field names are the spec's.
use serde::{Deserialize, Serialize};

/// Base path of the rose-deals calls.
pub const ROSEDEALS_API: &str = "/api/rosedeals/v1";
/// Orders per page of the current and archived lists.
pub const PAGE_SIZE: i64 = 10;

/// A deal on the rose-deals home: a partner brand's voucher sold below its face value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Deal {
    pub sale_id: i64,
    /// The product (item) id, for the favourite call.
    pub item_id: i64,
    /// The option (SKU) the cart takes, as `product_id`.
    pub option_id: i64,
    pub partner: String,
    pub name: String,
    /// Cents.
    pub face_value: i64,
    pub price: i64,
    pub validity_days: i64,
    /// Units left.
    pub stock: i64,
    pub is_favorite: bool,
}

/// A rose-deals sale with its deals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DealSale {
    pub sale_id: i64,
    pub name: String,
    pub ends_at: i64,
    pub deals: Vec<Deal>,
}

/// One voucher of an order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DealVoucher {
    pub code: String,
    pub partner: String,
    /// Face value, cents.
    pub value: i64,
    /// What the member paid for it, cents.
    pub price: i64,
    pub expires_at: i64,
    /// `active`, `used`, `expired` or `void`.
    pub status: String,
    /// The printable page of the order's vouchers.
    pub print: String,
}

/// An order with rose-deal vouchers (its id is the spec's `basketId`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DealOrder {
    pub basket_id: i64,
    pub status: String,
    pub created_at: i64,
    pub total: i64,
    pub currency: String,
    /// What was refunded (or is being), cents.
    pub refund_amount: Option<i64>,
    pub vouchers: Vec<DealVoucher>,
}

/// A page of orders (`page` starts at 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DealOrderPage {
    pub page: i64,
    pub page_size: i64,
    pub total: i64,
    pub orders: Vec<DealOrder>,
}

/// `?page=` of the lists; default 1.
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::IntoParams))]
pub struct PageQuery {
    pub page: Option<i64>,
}

/// The address of the refund, retry and contact forms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct DealAddress {
    pub city: String,
    pub country: String,
    pub details: String,
    pub first_name: String,
    pub last_name: String,
    pub zip_code: String,
    pub extras: String,
}

/// POST `/orders/{basketId}/refund` (multipart): `address` is JSON, the flags `true`/`false`.
/// An empty `iban` uses the one stored in the wallet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct RefundForm {
    pub address: DealAddress,
    pub content: String,
    pub iban: String,
    pub is_suspended: bool,
    pub store_iban: bool,
    /// Needed when `iban` is not the wallet's (review N1); a member without a password
    /// leaves it empty after signing in again with the provider within 5 minutes.
    pub current_password: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RefundResult {
    /// Cents.
    pub amount: i64,
}

/// POST `/orders/{basketId}/retry` (multipart): `vouchers` is a JSON list of codes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct RetryForm {
    pub address: DealAddress,
    pub content: String,
    pub vouchers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RetryResult {
    /// The new vouchers, in place of the named ones.
    pub vouchers: Vec<DealVoucher>,
}

/// POST `/messages`: the contact message; `address` is the member's profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct ContactMessage {
    pub message: String,
    pub subject: String,
    /// Voucher codes the message is about.
    pub vouchers: Vec<String>,
    pub address: Option<DealAddress>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MessageSent {
    /// Where attachments go: POST `/rmi/{requestId}`.
    pub request_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AttachmentsStored {
    pub request_id: String,
    pub count: i64,
}

/// A rose-deal line of the member's cart (the media basket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BasketLine {
    pub product_id: String,
    pub name: String,
    pub partner: String,
    pub face_value: i64,
    pub price: i64,
    pub quantity: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DealBasket {
    pub items: Vec<BasketLine>,
    pub total: i64,
    pub has_suspended_order: bool,
}

/// Both order lists of a page, fetched together (spec 001 §4, §7: current and archived,
/// each with its page, in parallel): the page shows one and counts the other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DealLists {
    pub current: DealOrderPage,
    pub archived: DealOrderPage,
}

/// At most this many vouchers are offered by the contact form (newest orders first).
pub const CONTACT_VOUCHERS_MAX: i64 = 200;

/// A voucher of any of the member's rose-deal orders, current or archived, as the contact
/// form offers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberVoucher {
    pub basket_id: i64,
    pub code: String,
    pub partner: String,
    /// `active`, `used`, `expired` or `void` (see `rules::voucher_status`).
    pub status: String,
}

/// The refund and retry calls' error body: the common one (`error_code`,
/// `error_description`, `fieldErrors`, `message`) and the same code as `errorCode`, which
/// spec 001 §7 names for these calls ("failure may return data.errorCode"). Every other
/// call keeps the common body alone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DealErrorBody {
    #[serde(default)]
    pub error_code: String,
    /// The same code as `error_code`.
    #[serde(default, rename = "errorCode")]
    pub error_code_camel: String,
    #[serde(default)]
    pub error_description: String,
    #[serde(
        default,
        rename = "fieldErrors",
        skip_serializing_if = "Option::is_none"
    )]
    pub field_errors: Option<Vec<crate::model::error::FieldError>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl From<crate::model::error::ErrorBody> for DealErrorBody {
    fn from(b: crate::model::error::ErrorBody) -> Self {
        DealErrorBody {
            error_code_camel: b.error_code.clone(),
            error_code: b.error_code,
            error_description: b.error_description,
            field_errors: b.field_errors,
            message: b.message,
        }
    }
}

//! Wire shapes of the vouchers-and-promotions calls (spec 000 §3 "Voucher", 001 §3, §7
//! "Vouchers": print answers `printUrl`).
use serde::{Deserialize, Serialize};

use crate::promotions::rules::Selection;

pub const VOUCHERS_API: &str = "/api/postsales/v1/vouchers";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VoucherEntry {
    pub voucher_id: i64,
    /// The member's participation (their copy of a voucher); none for a site promotion.
    pub participation_id: Option<i64>,
    pub code: String,
    /// voucher or promotion.
    pub kind: String,
    /// FIXED (cents) or PERCENT.
    pub discount_type: String,
    pub value: i64,
    /// PRODUCT or SHIPPING.
    pub scope: String,
    pub valid_from: Option<i64>,
    pub valid_until: Option<i64>,
    pub uses_left: i64,
    /// In the basket: the cart takes it off at checkout.
    pub selected: bool,
}

/// GET `/api/postsales/v1/vouchers` (and the answer of a selection change).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct VouchersAndPromotions {
    /// The member's own vouchers.
    pub vouchers: Vec<VoucherEntry>,
    /// The site's promotions.
    pub promotions: Vec<VoucherEntry>,
    pub selection: Vec<Selection>,
}

/// POST `/api/postsales/v1/vouchers/print`. One print link shape for the whole API: the cart's print call answers the same.
pub use crate::model::cart::PrintUrl;

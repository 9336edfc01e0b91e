//! The orders' wire shapes (camelCase like spec 001 §7), shared by the REST calls, the
//! pages' server functions and the browser.
use serde::{Deserialize, Serialize};

use crate::model::cart::Order;

/// One step of an order's timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderEvent {
    pub status: String,
    /// Unix seconds.
    pub at: i64,
    /// Why, when customer care said so to the member (a return's denial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// How an order was paid: the method and the provider's reference, masked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderPayment {
    /// What paid at checkout: `card` (typed), `wallet` (a saved card) or `voucher`
    /// (vouchers covered the whole amount; nothing charged).
    pub method: String,
    /// The card, masked to its last four digits (`•••• 4242`), when a card paid.
    #[serde(default)]
    pub card: Option<String>,
    pub reference: String,
    /// Unix seconds.
    pub paid_at: i64,
}

/// An order in the member's list: the order and where its detail is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderSummary {
    #[serde(flatten)]
    pub order: Order,
    pub detail_url: String,
}

/// One of the member's orders with its life: lines and delivery address (in `Order`),
/// the payment, the tracking number once shipped, the timeline (oldest first), the links.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderDetail {
    #[serde(flatten)]
    pub order: Order,
    pub events: Vec<OrderEvent>,
    pub tracking_number: Option<String>,
    pub payment: Option<OrderPayment>,
    pub detail_url: String,
    pub help_url: String,
    /// What refunds gave back so far, in cents.
    #[serde(default)]
    pub refunded_amount: i64,
    /// The order's returns, oldest first, with their lines and refund.
    #[serde(default)]
    pub returns: Vec<OrderReturn>,
    /// A trip's travellers as named at checkout, in the configurator's order (empty for
    /// every other kind of order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub travellers: Vec<OrderTraveller>,
}

/// A traveller of a trip: profile, name and, for children and babies, birthday.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderTraveller {
    #[serde(rename = "type")]
    pub kind: crate::model::travel::ParticipantType,
    pub first_name: String,
    pub last_name: String,
    /// `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birthday: Option<String>,
}

/// A return of the order as the member sees it: its state (`requested`, `accepted`,
/// `denied`, `received`, `refund_in_progress`, `refunded`), the lines sent back and, once
/// the refund started, its amount.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderReturn {
    pub id: i64,
    pub status: String,
    pub created_at: i64,
    pub refund_amount: Option<i64>,
    pub lines: Vec<OrderReturnLine>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderReturnLine {
    pub product_id: i64,
    pub name: String,
    pub quantity: i64,
}

/// A page of the member's orders, newest first (all kinds, travel included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrdersPage {
    pub orders: Vec<OrderSummary>,
    pub page: u32,
    pub size: u32,
    pub total: i64,
}

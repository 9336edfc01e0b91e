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
}

/// How an order was paid: the method and the provider's reference, masked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderPayment {
    /// `card` (the only method of this shop's provider).
    pub method: String,
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

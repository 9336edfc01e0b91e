//! The delivery address an order keeps: a wire type the cart, the orders and the address
//! book share (its conversion from an address-book entry is in `address::model`).
use serde::{Deserialize, Serialize};

/// The delivery address an order keeps: a copy, so later edits or deletions of the address
/// book never change a past order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAddress {
    pub first_name: String,
    pub last_name: String,
    pub details: String,
    pub extras: String,
    pub zip_code: String,
    pub city: String,
    pub country: String,
    pub phone: String,
}

//! The form's select options (spec 001 §3 "Order option", §9 "Order-number select options
//! start at 1"): the member's orders, with whether each is a past order for the chat link,
//! and the sales of those orders (`operationCode`).
use serde::{Deserialize, Serialize};

/// One line of the order select (spec: operationName, date, orderId, price, label).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderOption {
    pub operation_name: String,
    /// The order's date, formatted for the site.
    pub date: String,
    pub order_id: i64,
    /// The order's total, formatted for the site.
    pub price: String,
    /// `1. operationName – date – price`: options are numbered from 1.
    pub label: String,
    /// The chat link's `isPastOrder` for this order ([`is_past_order`]).
    pub is_past_order: bool,
}

/// The raw facts of one of the member's orders, before they become an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderFacts {
    pub order_id: i64,
    pub operation_name: String,
    pub date: String,
    pub price: String,
    /// The order's status as stored (`validated`, `received`, ...).
    pub status: String,
}

/// Options numbered from 1 in the order given (newest first).
pub fn order_options(orders: &[OrderFacts]) -> Vec<OrderOption> {
    orders
        .iter()
        .enumerate()
        .map(|(i, o)| OrderOption {
            operation_name: o.operation_name.clone(),
            date: o.date.clone(),
            order_id: o.order_id,
            price: o.price.clone(),
            label: format!("{}. {} – {} – {}", i + 1, o.operation_name, o.date, o.price),
            is_past_order: is_past_order(&o.status),
        })
        .collect()
}

/// Whether an order is a past one for the chat (`isPastOrder`, spec 001 §2): it has come
/// to its end, delivered (wholly or partly), cancelled, expired, or in or after a return
/// or refund. An order still on its way (active, validated, in preparation, shipped) is
/// current; so is a status this shop does not know.
pub fn is_past_order(status: &str) -> bool {
    use crate::orders::rules::OrderStatus::*;
    match crate::orders::rules::OrderStatus::parse(status) {
        Some(
            Received
            | ReceivedPartially
            | Refunded
            | RefundInProgress
            | Cancelled
            | Expired
            | ReturnRequested
            | ReturnRequestedDenied
            | ReturnRequestedAccepted
            | ReturnReceived,
        ) => true,
        Some(
            Active | Validated | ValidatedAvailable | InPreparation | Shipped | ShippedPartially,
        )
        | None => false,
    }
}

/// One line of the sale select: a sale the member bought from. `operationCode` is the
/// sale's id, as the sale's own address says it (`/operation/{operationCode}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HelpSaleOption {
    pub operation_code: String,
    pub label: String,
}

/// The sale select's options from the sales of the member's orders (newest order first),
/// each sale once, in the order first met.
pub fn sale_options(sales: &[(i64, String)]) -> Vec<HelpSaleOption> {
    let mut seen = Vec::new();
    sales
        .iter()
        .filter(|(id, _)| {
            let new = !seen.contains(id);
            seen.push(*id);
            new
        })
        .map(|(id, name)| HelpSaleOption {
            operation_code: id.to_string(),
            label: if name.trim().is_empty() {
                format!("#{id}")
            } else {
                name.clone()
            },
        })
        .collect()
}

/// The sale id an `operationCode` names, when it is one (a positive number).
pub fn sale_id_of(operation_code: &str) -> Option<i64> {
    operation_code
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
}

/// The `contactFrom` values a message may carry (spec 001 §3: "contactFrom (always
/// Front)"). Anything else is refused (400, `help.errors.contact_from`).
pub const CONTACT_FROM: &[&str] = &["Front"];

pub fn contact_from_allowed(value: &str) -> bool {
    CONTACT_FROM.contains(&value)
}

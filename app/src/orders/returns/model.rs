//! The wire shapes of the after-sale calls (spec 001 §3 "Return reasons", "Marketplace help
//! form", §7 "Marketplace order contact / invoice request / order return").
use serde::{Deserialize, Serialize};

/// A return reason in the member's language: `labelKey` translated into `label`, `value`
/// is the id to send back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReturnReasonView {
    pub label_key: String,
    pub label: String,
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_reasons: Option<Vec<ReturnSubReasonView>>,
}

/// A sub-reason of a return reason, translated like it (a type of its own: a recursive
/// schema would make the OpenAPI document endless).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReturnSubReasonView {
    pub label_key: String,
    pub label: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ReturnReasons {
    pub reasons: Vec<ReturnReasonView>,
}

/// One order line to return: `productId` as the order detail gives it (a string; a number
/// is accepted too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReturnProduct {
    #[cfg_attr(feature = "ssr", schema(value_type = String))]
    pub product_id: serde_json::Value,
    pub quantity: i64,
}

impl ReturnProduct {
    pub fn id_text(&self) -> String {
        match &self.product_id {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => String::new(),
        }
    }
}

/// POST /api/postsale/v1/orders/{orderId}/returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReturnRequest {
    #[serde(default)]
    pub products: Vec<ReturnProduct>,
    #[serde(default)]
    pub reason_id: String,
    #[serde(default)]
    pub sub_reason_id: Option<String>,
    #[serde(default)]
    pub comment: Option<String>,
}

/// POST /api/postsale/v1/marketplace/orders/{orderId}/return: the lines; a reason is
/// optional there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceReturnRequest {
    #[serde(default)]
    pub products: Vec<ReturnProduct>,
    #[serde(default)]
    pub reason_id: Option<String>,
}

/// A return request taken: its id and the order's status now (`return_requested`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReturnCreated {
    pub return_id: i64,
    pub order_id: i64,
    pub status: String,
}

/// POST /api/postsale/v1/marketplace/orders/{orderId}/contact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceContactRequest {
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub reason_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MarketplaceContactSent {
    pub message_id: i64,
    pub message_has_been_sent: bool,
}

/// The marketplace contact reasons, translated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ContactReasons {
    pub reasons: Vec<ReturnReasonView>,
}

/// POST /api/postsale/v1/orders/{orderId}/invoice: the order's invoice number (given once)
/// and where to download it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InvoiceRef {
    pub invoice_number: String,
    pub url: String,
}

/// Where an order's invoice PDF is served.
pub fn invoice_url(order_id: i64) -> String {
    format!("/api/postsale/v1/orders/{order_id}/invoice")
}

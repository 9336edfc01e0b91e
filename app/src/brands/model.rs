//! The brands place's wire shape.
use serde::{Deserialize, Serialize};

/// A brand with live sales on the site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PlaceBrand {
    pub id: i64,
    pub name: String,
    /// Products of the brand in live sales.
    pub items: i64,
    /// The signed-in member follows it (brand alert); always false for a visitor.
    pub followed: bool,
}

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
    /// The live sales it is in, soonest ending first: the brands place's details
    /// (`member_brands_place_details`); empty when they were not asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sales: Vec<BrandSale>,
}

/// A live sale a brand is in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandSale {
    pub id: i64,
    pub name: String,
    /// When it ends (Unix seconds).
    pub ends_at: i64,
}

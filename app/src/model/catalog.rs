//! Catalog wire types used by pages and the REST API.
use serde::{Deserialize, Serialize};

/// A live sale as a home tile shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleCard {
    pub id: i64,
    pub name: String,
    pub offer_type: String,
    pub seo_slug: String,
    pub first_universe_id: i64,
    pub end_date: i64,
    pub banner_url: String,
    pub logo_url: String,
    pub min_price_cents: Option<i64>,
    pub max_discount_percent: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProductDetail {
    pub id: i64,
    pub sale_id: i64,
    pub sale_name: String,
    pub name: String,
    pub brand: String,
    /// The brand's page `/b/{brand_id}`; `None` for an unbranded product.
    pub brand_id: Option<i64>,
    pub image_url: String,
    pub price_cents: i64,
    pub retail_price_cents: i64,
    pub options: Vec<crate::model::catalog_api::ItemOption>,
    pub favorite: bool,
    pub color: String,
    pub tier: String,
    /// Delivery modes: classic 0, pre-reception 1, direct 2, dropshipment 3.
    pub delivery_mode: i64,
    /// Seller kinds: fs, marketplace, return, recycle, m2m.
    pub seller_kind: String,
    /// The data sheet, already sanitised on the server.
    pub html_datasheet: String,
    /// The theme its sale asks for (spec 000 §9): `recycle`, `bw`, or empty for its site's.
    #[serde(default)]
    pub theme: String,
    /// The bundle the product is sold in, if any (`app::product::bundle`).
    #[serde(default)]
    pub bundle: Option<crate::model::catalog_api::Bundle>,
}

//! Catalog wire types used by pages and the REST API.
use serde::{Deserialize, Serialize};

/// A live sale as a home tile shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[serde(rename_all = "camelCase")]
pub struct ProductOption {
    pub id: i64,
    pub label: String,
    pub stock: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductDetail {
    pub id: i64,
    pub sale_id: i64,
    pub sale_name: String,
    pub name: String,
    pub brand: String,
    pub image_url: String,
    pub price_cents: i64,
    pub retail_price_cents: i64,
    pub options: Vec<ProductOption>,
}

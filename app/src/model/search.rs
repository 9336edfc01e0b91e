//! Search wire shapes (spec 000 §3 "Search suggestions state", "Catalog items state",
//! §7 Search).
use serde::{Deserialize, Serialize};

use crate::model::catalog_api::{CatalogItem, Filter};

/// Suggestion kinds (spec 000 §2): regular, autocompletion, history, generic, salesbanner;
/// popular is the shop's, for the lists offered before typing (`defaultLists`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SuggestionKind {
    /// A matching product.
    Regular,
    /// The query with its last word completed.
    Autocompletion,
    /// One of the member's recent queries.
    History,
    /// "Search for «q»".
    Generic,
    /// A matching live sale; before typing, a sale on now.
    Salesbanner,
    /// Before typing: a search many members made, or a brand with many products on sale.
    Popular,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub kind: SuggestionKind,
    pub label: String,
    pub url: String,
    /// Product id, sale id or recent-query id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suggestions {
    pub query: String,
    pub suggestions: Vec<Suggestion>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecentQuery {
    pub id: i64,
    pub query: String,
    pub created_at: i64,
}

/// A matching live sale on the results page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SaleHit {
    pub id: i64,
    pub name: String,
    pub url: String,
}

/// Catalog search (spec 000 §3): products, totalProductsCount, currentPage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SearchItems {
    pub search_term: String,
    pub products: Vec<CatalogItem>,
    pub total_products_count: i64,
    /// 1-based.
    pub current_page: i64,
    pub offset: i64,
    pub limit: i64,
    pub sales: Vec<SaleHit>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SearchFilters {
    pub search_term: String,
    pub filters: Vec<Filter>,
}

/// `GET /api/catalog/v1/search/recent`: the member's recent queries, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecentQueries {
    pub recent_queries: Vec<RecentQuery>,
}

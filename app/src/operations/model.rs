//! An operation's wire shape (spec 000 §3 "Operation: code, products, universes with
//! subUniverses").
use serde::{Deserialize, Serialize};

use crate::model::catalog_api::CatalogItem;

/// An operation's selection: its products on sale now, and the universes they fall in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    /// The code as stored (upper case).
    pub code: String,
    /// The selection's title (the code when the operation has none).
    pub title: String,
    /// The products of its selection on sale now (of the asked universe only, when one is).
    pub products: Vec<CatalogItem>,
    /// Every universe of the selection's products on sale now, whichever is asked.
    pub universes: Vec<OperationUniverse>,
}

/// A universe of an operation's selection: products of several sales gathered by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OperationUniverse {
    /// The name's slug: what `?universe=` asks for.
    pub id: String,
    pub name: String,
    pub sub_universes: Vec<OperationSubUniverse>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OperationSubUniverse {
    pub id: String,
    pub name: String,
}

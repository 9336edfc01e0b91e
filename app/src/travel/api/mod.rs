//! The travel pages' server functions, one file per part: the product and its booking,
//! the catalogs and offers, the search.
pub mod catalog;
pub mod product;
pub mod search;

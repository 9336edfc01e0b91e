//! Search (spec 000 §2 "Search"): `/find` with suggestions while typing, the
//! member's recent queries (each can be deleted), and a results page with the catalog's
//! filters, sort and paging. Complete in the server HTML (form, results, filter links,
//! page links, delete forms); once hydrated the box suggests as the member types and
//! deletes recent queries without a page load.
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod index;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

pub use rules::{product_url, sale_url, search_url};

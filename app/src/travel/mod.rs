//! Travel (spec 001 §2–§9): search, travel homes and catalogs with a map, the product
//! configurator with its price calendar, and booking without overbooking.
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

//! The product page: server function, page, and (server) its SQL.
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
pub mod size_chart;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

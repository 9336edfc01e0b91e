//! The product page: server function, page, and (server) its SQL.
pub mod api;
pub mod bundle;
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
pub mod size_chart;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

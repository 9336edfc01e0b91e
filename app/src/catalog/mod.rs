//! Sale catalogs, brand pages and favourites (shopping core).
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod gate;
pub mod offer;
pub mod rules;
pub mod sections;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

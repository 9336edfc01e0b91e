//! Sale catalogs, brand pages and favourites (shopping core).
pub mod favourites;
pub mod lists;
pub mod page;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;

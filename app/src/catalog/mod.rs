//! Sale catalogs, brand pages and favourites (shopping core).
pub mod favourites;
pub mod lists;
pub mod page;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod store;

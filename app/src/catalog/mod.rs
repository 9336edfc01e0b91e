//! Sale catalogs, homes and favourites (shopping core). So far: the spec's pure rules.
pub mod page;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod store;

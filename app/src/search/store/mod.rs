//! Search reads and recent queries. The index of a site is built from its live
//! sales and kept in memory (a cache: truth stays in the database, so every hit is checked
//! against the live sales again before it is shown).
//! By concern: the per-site index cache, item and filter reads, suggestions (with what they
//! offer before typing), recent queries.
mod defaults;
mod filters;
mod index_cache;
mod items;
mod recent;

pub use defaults::POPULAR_MIN_MEMBERS;
pub use filters::*;
pub use index_cache::*;
pub use items::*;
pub use recent::*;

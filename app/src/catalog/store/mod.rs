//! Catalog reads (spec 000 §7 Catalog). Only live sales of the request's site are visible.
//! The catalog's SQL, by family.
mod filters;
mod gate;
mod items;
mod lists;
mod query;
mod sale;

pub use filters::*;
pub use gate::*;
pub use items::*;
pub use lists::*;
pub use query::*;
pub use sale::*;

//! The travel area's SQL.
pub mod booking;
pub mod product;

pub use product::{duration_calendar, product, window};

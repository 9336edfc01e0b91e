//! The travel area's SQL.
pub mod booking;
pub mod destinations;
pub mod from_price;
pub mod last_viewed;
pub mod offers;
pub mod product;

pub use product::{duration_calendar, product, window};

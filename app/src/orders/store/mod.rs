//! The orders' SQL.
pub mod status;

//! The orders' SQL.
pub mod fulfilment;
pub mod read;
pub mod status;

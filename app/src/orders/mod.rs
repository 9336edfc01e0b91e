//! After the sale: the member's orders with their life cycle, invoices and returns
//! (spec 001 §2–§9 "Post-sales").
#[cfg(feature = "ssr")]
pub mod store;

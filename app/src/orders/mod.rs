//! After the sale: the member's orders with their life cycle, invoices and returns
//! (spec 001 §2–§9 "Post-sales").
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod invoice;
pub mod marketplace;
pub mod model;
pub mod returns;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
pub mod settings;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

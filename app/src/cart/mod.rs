//! Cart, held stock, checkout, orders, vouchers and the checkout waiting line (issue #5).
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod payment;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;
#[cfg(feature = "ssr")]
pub mod vouchers;
#[cfg(feature = "ssr")]
pub mod waiting;
#[cfg(feature = "ssr")]
pub mod writer;

//! Rose deals, the media offer: deals bought through the cart, their vouchers, refunds,
//! retries and contact (spec 001 §2–§8 "Rose deals").
pub mod api;
#[cfg(feature = "ssr")]
pub mod error;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

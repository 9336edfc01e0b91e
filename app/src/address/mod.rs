//! The address book `/postsales/myaccount/addresses/` (spec 001 §2–§8) and the delivery
//! address checkout asks for: per-site zip code and phone rules, the favourite address,
//! addresses kept per member and copied into the orders they deliver.
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

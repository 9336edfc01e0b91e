//! Communication preferences `/communications` (and `/memberaccount/communications`):
//! channel and frequency by site, the opt-ins (withdrawable at any time), commercial
//! partners, brand alerts and the cancel survey (spec 001 §2–§9).
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

//! Sponsorship `/gr/sponsorship` (spec 000 §2 and the registration query
//! vocabulary `godfatherid` / `mgmcode`): a member's personal code and share link, the
//! members they brought, and one reward voucher per sponsored member after that member's
//! first paid order (issued in the order's transaction).
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

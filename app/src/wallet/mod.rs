//! The wallet `/postsales/myaccount/wallet/` (spec 001 §2–§8): bank details for refunds,
//! validated for real (IBAN check digits, BIC) and kept encrypted, and the cards the
//! payment provider saved at checkout.
pub mod api;
#[cfg(feature = "ssr")]
pub mod crypto;
#[cfg(feature = "ssr")]
pub mod error;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

//! Report-illegal-content (DSA) reports: rules, storage and the submit operation.
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod mail;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod settings;
#[cfg(feature = "ssr")]
pub mod store;

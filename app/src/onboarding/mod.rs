//! The onboarding layer: cookie consent for everyone; for signed-in members the popins,
//! the data-partner banner and (home page, phones) the app-download banner. Every control
//! is a plain form posting to `/onboarding/form/<kind>`, so it works before the WASM app
//! loads.
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

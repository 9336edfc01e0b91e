//! Experiments (A/B, spec 000 §6-§7): anonymous id, deterministic bucketing
//! with configured weights, the features the variations switch (decided by the server
//! before rendering, carried in the request context), the recorded assignments and
//! exposures, the report (`server experiments report`) and the operators' controls
//! (start, stop, reweigh: the back office's experiments page).
pub mod controls;
#[cfg(feature = "ssr")]
pub mod error;
pub mod report;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod writer;

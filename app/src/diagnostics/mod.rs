//! Browser diagnostics (spec 000 §7 "Diagnostics", §9): the frontend log and the
//! metrics batch the browser posts (only with the performance consent, C0002, and never in
//! development), the Core Web Vitals rating, and the checks the server applies before the
//! entries reach the structured logs and the Prometheus scrape (`/metrics`).
//!
//! - `rules.rs`: levels, metric kinds, vital thresholds and rating, the body limits (both
//!   targets; the browser's twin is `frontend-react/src/diagnostics/rules.ts`, checked
//!   against the same vectors, `tests/vectors/diagnostics.json`);
//! - `model.rs`: the two wire bodies;
//! - `tracking.rs`: the analytics events' batch (`POST /api/tracking/v1/events`), its
//!   limits and log lines (the browser's library: `frontend-react/src/diagnostics/tracking.ts`);
//! - `error.rs`, `service.rs`, `settings.rs`: server only (refusals with their keys, the
//!   flood limit, the structured log lines).
pub mod model;
pub mod rules;

#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod service;
pub mod settings;
pub mod tracking;
pub mod ui;

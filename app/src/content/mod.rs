//! Content pages (spec 000 §2 and §7 "Navigation and content"): about us, the
//! privacy policy and the general conditions (crawlable documents written per language in
//! `docs/<lang>.json`), the footer from its call, the SEO landing pages `/l/{slug}` with
//! their seoConfig and selection, and the small after-sale hub and premium pages.
pub mod api;
pub mod docs;
#[cfg(feature = "ssr")]
pub mod error;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

//! The help centre (contact reasons, automatic answers, tickets) and the message centre
//! (spec 001 §2–§9 "Post-sales"): `/helpform`, `/my-notifications`, `/chat`,
//! `/postsales/contactselector`, `/ps/errors`.
pub mod answer;
pub mod api;
pub mod config;
#[cfg(feature = "ssr")]
pub mod error;
pub mod kb;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

//! My account (spec 001 §2 "Post-sales and account"): the account page with its
//! tabs and menu, personal data, email and password change, deactivate, delete forever.
//! Server-rendered pages with forms that post without scripts; `public/js/account.js`
//! sends them to the REST calls when scripts run.
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

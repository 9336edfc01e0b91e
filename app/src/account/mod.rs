//! My account (spec 001 §2 "Post-sales and account"): the account page with its
//! tabs and menu, personal data, email and password change, deactivate, delete forever.
//! Server-rendered pages whose forms post without scripts (`server/src/forms/account.rs`);
//! the enhancement script sends them in place, and the same answers drive the REST calls.
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

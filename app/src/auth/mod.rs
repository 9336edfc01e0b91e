//! Members: sign-in, registration, password recovery, autologin, logout.
pub mod api;
pub mod attribution;
pub mod countries;
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod reauth;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod settings;
pub mod social;
#[cfg(feature = "ssr")]
pub(crate) mod store;
pub mod ui;

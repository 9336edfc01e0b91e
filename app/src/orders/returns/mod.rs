//! Returns (spec 001 §3, §4, §7): the reasons, the request of a delivered order's lines and
//! the form state. Also the after-sale error and wire types the invoice and marketplace
//! calls share.
#[cfg(feature = "ssr")]
pub mod error;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
pub mod settlement;
#[cfg(feature = "ssr")]
pub mod store;

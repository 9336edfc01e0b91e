//! Vouchers and promotions `/vouchers-promotions` (spec 000 §3, 001 §2–§7): the member's
//! vouchers and the site's promotions, printing, and the selection the cart applies.
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

//! Invoices: one number per paid order, given once and never again, and the
//! PDF of the order with the seller of its site and the VAT of every line.
#[cfg(feature = "ssr")]
pub mod pdf;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
pub mod vat;

/// Statuses of orders that are no longer paid: no invoice. (An `active` or `expired`
/// order is a paid travel booking, during and after its stay: it has one.)
pub const NOT_INVOICEABLE: [&str; 2] = ["cancelled", "reopened"];

pub fn invoiceable(status: &str) -> bool {
    !NOT_INVOICEABLE.contains(&status)
}

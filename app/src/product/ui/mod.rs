//! The product page.
pub mod bundle;
pub mod page;

pub use page::ProductPage;

//! The product page.
pub mod page;

pub use page::ProductPage;

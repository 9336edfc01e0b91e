//! The search page and its box.
pub mod page;
pub mod search_box;

pub use page::SearchPage;

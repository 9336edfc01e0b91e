//! The travel pages: the travel home, the search and its results, the catalogs with their
//! filters and map, the product with its configurator and price calendar, the checkout.
pub mod catalog;
pub mod checkout;
pub mod error_page;
pub mod home;
pub mod offers;
pub mod product;
pub mod search;

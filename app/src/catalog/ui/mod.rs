//! The catalog's pages: a sale's catalog, a brand's items, the member's favourites.
pub mod gate;
pub mod lists;
pub(crate) mod more;
pub mod page;

pub use lists::{BrandPage, FavouritesPage};
pub use page::CatalogPage;

//! The home page and its modules, tiles and banners.
pub mod modules;
pub mod open_door;
pub mod page;
pub mod pedagogical;
pub mod scroll;
pub mod tiles;
pub mod toast;

pub use page::HomePage;

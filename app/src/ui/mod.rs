//! Leaf view pieces every area may use: not-found page, SEO meta, item tile,
//! the error notice and the header's cart count. Depends on `context`, `model`, `routes`,
//! `site` and `client` only, never on an area.
pub mod assets;
pub mod cart_count;
pub mod draft;
pub mod error_template;
pub mod favourite;
pub mod hydrated;
pub mod item_tile;
pub mod not_found;
pub mod personal;
pub mod seo_meta;

pub use seo_meta::SeoMeta;

//! Wire types shared by the server, the browser and (through ts-rs) the React widgets.
pub mod auth;
pub mod catalog;
pub mod catalog_api;
pub mod dsa;

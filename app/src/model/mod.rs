//! Wire types shared by the server, the browser and (through ts-rs) the React widgets.
pub mod address;
pub mod auth;
pub mod backoffice;
pub mod cart;
pub mod catalog;
pub mod catalog_api;
pub mod dsa;
pub mod error;
pub mod experiments;
pub mod home;
pub mod onboarding;
pub mod reauth;
pub mod search;
pub mod travel;
pub mod travel_catalog;
pub mod upload;

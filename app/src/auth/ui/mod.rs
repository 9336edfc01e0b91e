//! The sign-in, registration and portal pages.
pub mod consent;
pub mod draft;
pub mod page;

pub use page::AuthPage;

//! The sign-in, registration and portal pages.
pub mod page;

pub use page::AuthPage;

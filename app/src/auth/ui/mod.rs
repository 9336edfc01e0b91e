//! The sign-in, registration and portal pages, and the proof a sensitive form of another
//! area asks for (`reauth`).
pub mod consent;
pub mod draft;
pub mod page;
pub mod reauth;

pub use page::AuthPage;

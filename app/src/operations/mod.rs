//! Marketing entry links: operations `/operation/{code}` (the enter-operation
//! call: a code that lands on a sale or a home and records the operation-code cookie)
//! and the catalog by id `/gr/catalog/{id}` (to the sale's canonical catalog address).
//! The redirects are served by `server/src/forms/operations.rs`; the page `/operation`
//! says why a code did not land and takes another one.
#[cfg(feature = "ssr")]
pub mod error;
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;

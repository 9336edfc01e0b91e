//! The address page, the address form and the cart's delivery address choice: server
//! components (no island), posting without scripts.
pub mod checkout;
pub mod draft;
pub mod form;
pub mod page;

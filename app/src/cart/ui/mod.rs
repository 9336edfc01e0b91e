//! Cart, checkout and orders screens (spec 000 §2 "Cart and suspended basket screens").
//! They talk to the cart REST API of spec §7 from the browser (members only, not crawled),
//! so the server renders their frame and a loading state, and the hydrated app fills them.
pub mod add;
pub mod call;
pub mod cart_page;

pub use call::{cart_call, clock, state_notice, CART, PIPE};

//! Cart rules of spec 000 §3-§5, §8, §9: response codes and their message keys, the
//! add-to-cart payload shapes, the cart and basket state transitions, totals with
//! vouchers, availability, basket expiry notices, the sandbox card numbers.
//! Pure: shared by the server and the browser, unit-tested.
mod codes;
mod payload;
mod sandbox;
mod state;
mod totals;

#[cfg(test)]
mod tests;

pub use codes::*;
pub use payload::*;
pub use sandbox::*;
pub use state::*;
pub use totals::*;

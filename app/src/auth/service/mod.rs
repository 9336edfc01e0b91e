//! Sign-in operations: each one checks its input, then does its writes in one place.
//! By flow: sign-in, registration and activation, recovery and autologin.
mod login;
mod recovery;
mod register;

pub use login::*;
pub use recovery::*;
pub use register::*;

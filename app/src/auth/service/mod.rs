//! Sign-in operations: each one checks its input, then does its writes in one place.
//! By flow: sign-in, registration and activation, recovery and autologin.
mod login;
mod recovery;
mod register;

pub use login::*;
pub use recovery::*;
pub use register::*;

use crate::auth::error::AuthError;
use crate::platform::state::AppState;

/// One hit on a rate-limit bucket; past `limit` in the window: 429.
pub(crate) async fn throttle(
    state: &AppState,
    bucket: &str,
    limit: i64,
    window_secs: i64,
    now: i64,
) -> Result<(), AuthError> {
    if crate::platform::ratelimit::hit(&state.db, bucket, limit, window_secs, now).await? {
        Ok(())
    } else {
        Err(AuthError::TooManyRequests)
    }
}

/// The bucket of mails to one address on one site (registration and recovery share it).
pub(crate) fn mail_bucket(site_id: u16, email: &str) -> String {
    format!("mail:{site_id}:{email}")
}

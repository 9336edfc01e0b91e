//! Why a sponsorship call failed: only storage can (a member always has a page).
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum SponsorshipError {
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for SponsorshipError {
    fn status(&self) -> u16 {
        500
    }
    fn code(&self) -> &'static str {
        "unexpected"
    }
    fn message_key(&self) -> &'static str {
        "errors.general_retry.notification"
    }
    fn cause(&self) -> Option<String> {
        match self {
            SponsorshipError::Storage(e) => Some(e.to_string()),
        }
    }
}

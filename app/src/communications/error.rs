//! Why a communication call was refused. The spec names no message of its own for these
//! (§8 "Communication failures: error stored for display"): the member reads
//! `errors.general_retry.notification`, the wire code says what was wrong.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum CommunicationsError {
    /// A value this site does not offer, an unknown value or an unreadable body.
    #[error("invalid request: {0}")]
    Invalid(&'static str),
    /// A partner, brand, reason or subscription that is not there (or not the member's).
    #[error("not found")]
    NotFound,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for CommunicationsError {
    fn status(&self) -> u16 {
        match self {
            CommunicationsError::Invalid(_) => 400,
            CommunicationsError::NotFound => 404,
            CommunicationsError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            CommunicationsError::Invalid(code) => code,
            CommunicationsError::NotFound => "not_found",
            CommunicationsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            CommunicationsError::NotFound => "errors.not_found",
            _ => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            CommunicationsError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! Why a product page operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

use crate::product::rules::REMOVED_KEY;

#[derive(Debug, thiserror::Error)]
pub enum ProductError {
    #[error("not found")]
    NotFound,
    /// Taken off the shop by a moderator (a notice of illegal content).
    #[error("removed")]
    Removed,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for ProductError {
    fn status(&self) -> u16 {
        match self {
            ProductError::NotFound => 404,
            ProductError::Removed => 410,
            ProductError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            ProductError::NotFound => "not_found",
            ProductError::Removed => "removed",
            ProductError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            ProductError::NotFound => "errors.not_found",
            ProductError::Removed => REMOVED_KEY,
            ProductError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            ProductError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

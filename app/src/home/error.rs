//! Why a home page operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum HomeError {
    #[error("not found")]
    NotFound,
    /// A refused input; the translation key says why.
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for HomeError {
    fn status(&self) -> u16 {
        match self {
            HomeError::NotFound => 404,
            HomeError::BadRequest(_) => 400,
            HomeError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            HomeError::NotFound => "not_found",
            HomeError::BadRequest(_) => "bad_request",
            HomeError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            HomeError::NotFound => "errors.not_found",
            HomeError::BadRequest(key) => key,
            HomeError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            HomeError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! Why a search operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("not found")]
    NotFound,
    /// A refused input; the translation key says why.
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for SearchError {
    fn status(&self) -> u16 {
        match self {
            SearchError::NotFound => 404,
            SearchError::BadRequest(_) => 400,
            SearchError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            SearchError::NotFound => "not_found",
            SearchError::BadRequest(_) => "bad_request",
            SearchError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            SearchError::NotFound => "errors.not_found",
            SearchError::BadRequest(key) => key,
            SearchError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            SearchError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! Why a content call was refused: an unknown landing page (404, the real not-found page
//! for a browser) or a slug that cannot name one (400).
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("invalid landing slug")]
    InvalidSlug,
    #[error("not found")]
    NotFound,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for ContentError {
    fn status(&self) -> u16 {
        match self {
            ContentError::InvalidSlug => 400,
            ContentError::NotFound => 404,
            ContentError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            ContentError::InvalidSlug => "invalid_slug",
            ContentError::NotFound => "not_found",
            ContentError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            ContentError::InvalidSlug | ContentError::NotFound => "errors.not_found",
            ContentError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            ContentError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! Why an experiments operation failed: a refused variations call (400, localized) or
//! storage.
use crate::experiments::rules::Refusal;
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum ExperimentsError {
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for ExperimentsError {
    fn status(&self) -> u16 {
        match self {
            ExperimentsError::Refused(_) => 400,
            ExperimentsError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            ExperimentsError::Refused(r) => r.code(),
            ExperimentsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            ExperimentsError::Refused(r) => r.message_key(),
            ExperimentsError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            ExperimentsError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

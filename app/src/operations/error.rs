//! Why entering an operation failed: unknown code (404), over (410), or storage.
use crate::model::error::WireError;
use crate::operations::rules::Refusal;

#[derive(Debug, thiserror::Error)]
pub enum OperationError {
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for OperationError {
    fn status(&self) -> u16 {
        match self {
            OperationError::Refused(Refusal::Unknown) => 404,
            OperationError::Refused(Refusal::Expired) => 410,
            OperationError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            OperationError::Refused(Refusal::Unknown) => "operation_unknown",
            OperationError::Refused(Refusal::Expired) => "operation_expired",
            OperationError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            OperationError::Refused(r) => r.message_key(),
            OperationError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            OperationError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

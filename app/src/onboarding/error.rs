//! Why a onboarding operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum OnboardingError {
    #[error("not found")]
    NotFound,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for OnboardingError {
    fn status(&self) -> u16 {
        match self {
            OnboardingError::NotFound => 404,
            OnboardingError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            OnboardingError::NotFound => "not_found",
            OnboardingError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            OnboardingError::NotFound => "errors.not_found",
            OnboardingError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            OnboardingError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

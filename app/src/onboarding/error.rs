//! Why a onboarding operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum OnboardingError {
    #[error("not found")]
    NotFound,
    /// An answer to a popin version that is not the current one of its type (review L4).
    #[error("not the current popin version")]
    StaleVersion,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for OnboardingError {
    fn status(&self) -> u16 {
        match self {
            OnboardingError::NotFound => 404,
            OnboardingError::StaleVersion => 400,
            OnboardingError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            OnboardingError::NotFound => "not_found",
            OnboardingError::StaleVersion => "invalid_popin_version",
            OnboardingError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            OnboardingError::NotFound => "errors.not_found",
            OnboardingError::StaleVersion => "errors.general_retry.notification",
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

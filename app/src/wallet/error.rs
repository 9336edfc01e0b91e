//! Why a wallet call was refused (spec 001 §8): a bank save that fails says
//! `errors.something_wrong.notification` with the faulty fields; other failures
//! `errors.general_retry.notification`.
use crate::model::error::{FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    #[error("bank details to correct")]
    Invalid(Vec<FieldError>),
    /// A body that is not the form (bad JSON, wrong types).
    #[error("unreadable bank details")]
    Unreadable,
    /// No such IBAN or payment method among the member's own.
    #[error("not found")]
    NotFound,
    #[error("saving bank details failed: {0}")]
    SaveFailed(String),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
    /// New bank details need the current password or a fresh provider sign-in (review N1).
    #[error("re-authentication: {0}")]
    Reauth(#[from] crate::auth::reauth::Refusal),
}

impl WireError for WalletError {
    fn status(&self) -> u16 {
        match self {
            WalletError::Invalid(_) | WalletError::Unreadable => 400,
            WalletError::NotFound => 404,
            WalletError::SaveFailed(_) | WalletError::Storage(_) => 500,
            WalletError::Reauth(r) => r.status(),
        }
    }
    fn code(&self) -> &'static str {
        match self {
            WalletError::Invalid(_) => "invalid_bank_details",
            WalletError::Unreadable => "bad_request",
            WalletError::NotFound => "not_found",
            WalletError::SaveFailed(_) | WalletError::Storage(_) => "unexpected",
            WalletError::Reauth(r) => r.code(),
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            WalletError::Invalid(_) | WalletError::Unreadable | WalletError::SaveFailed(_) => {
                "errors.something_wrong.notification"
            }
            WalletError::NotFound => "errors.not_found",
            WalletError::Storage(_) => "errors.general_retry.notification",
            WalletError::Reauth(r) => r.message_key(),
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            WalletError::Invalid(fields) => Some(fields.clone()),
            WalletError::Reauth(r) => r.field_error().map(|(field, key)| {
                vec![FieldError {
                    field: field.into(),
                    message_key: key.into(),
                }]
            }),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            WalletError::SaveFailed(e) => Some(e.clone()),
            WalletError::Storage(e) => Some(e.to_string()),
            WalletError::Reauth(crate::auth::reauth::Refusal::Storage(e)) => Some(e.to_string()),
            _ => None,
        }
    }
}

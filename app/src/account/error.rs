//! Why an account call was refused (spec 001 §8: most failed account calls say
//! `errors.general_retry.notification`; a password change says which of its codes).
use crate::account::rules::{PasswordChangeError, PasswordRefusal};
use crate::model::error::{FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// Fields to correct, each with its message (`fieldErrors`).
    #[error("fields to correct")]
    Invalid(Vec<FieldError>),
    #[error("password change refused: {0:?}")]
    Password(PasswordChangeError, Vec<FieldError>),
    /// A body that is not the call's JSON object.
    #[error("unreadable body")]
    Unreadable,
    #[error("too many attempts")]
    TooManyRequests,
    /// The change needs the current password or a fresh provider sign-in (review N1).
    #[error("re-authentication: {0}")]
    Reauth(#[from] crate::auth::reauth::Refusal),
    /// An email confirmation link that is unknown, used, expired or another member's.
    #[error("confirmation link invalid")]
    LinkInvalid,
    /// The basket is being paid for: deleting now would leave a payment without an owner.
    #[error("payment in progress")]
    PaymentInProgress,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
    #[error("internal failure: {0}")]
    Internal(String),
}

pub fn fields(list: &[(&str, &str)]) -> Vec<FieldError> {
    list.iter()
        .map(|(field, key)| FieldError {
            field: (*field).into(),
            message_key: (*key).into(),
        })
        .collect()
}

impl AccountError {
    pub fn invalid(list: &[(&str, &str)]) -> AccountError {
        AccountError::Invalid(fields(list))
    }
}

impl From<PasswordRefusal> for AccountError {
    fn from(r: PasswordRefusal) -> Self {
        AccountError::Password(r.code, fields(&r.fields))
    }
}

impl WireError for AccountError {
    fn status(&self) -> u16 {
        match self {
            AccountError::Invalid(_)
            | AccountError::Password(..)
            | AccountError::Unreadable
            | AccountError::LinkInvalid => 400,
            AccountError::PaymentInProgress => 409,
            AccountError::TooManyRequests => 429,
            AccountError::Reauth(r) => r.status(),
            AccountError::Storage(_) | AccountError::Internal(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            AccountError::Invalid(_) => "invalid",
            AccountError::Password(code, _) => code.code(),
            AccountError::Unreadable => "bad_request",
            AccountError::TooManyRequests => "too_many_requests",
            AccountError::LinkInvalid => "link_invalid",
            AccountError::PaymentInProgress => "payment_in_progress",
            AccountError::Reauth(r) => r.code(),
            AccountError::Storage(_) | AccountError::Internal(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            AccountError::Password(code, _) => code.message_key(),
            AccountError::TooManyRequests => "auth.error.too_many",
            AccountError::LinkInvalid => "myprofile.email.error.link",
            AccountError::PaymentInProgress => "account.delete.error.payment",
            AccountError::Reauth(r) => r.message_key(),
            AccountError::Invalid(_)
            | AccountError::Unreadable
            | AccountError::Storage(_)
            | AccountError::Internal(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            AccountError::Invalid(f) | AccountError::Password(_, f) => Some(f.clone()),
            AccountError::Reauth(r) => r.field_error().map(|f| fields(&[f])),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            AccountError::Storage(e) => Some(e.to_string()),
            AccountError::Internal(e) => Some(e.clone()),
            AccountError::Reauth(crate::auth::reauth::Refusal::Storage(e)) => Some(e.to_string()),
            _ => None,
        }
    }
}

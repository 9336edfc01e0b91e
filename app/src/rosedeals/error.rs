//! Why a rose-deals call was refused (spec 001 §8): the refund form shows the error code
//! the server sent (`invalid_iban`, `already_refunded`, ...); the contact message without
//! a profile or vouchers says "Missing values".
use crate::model::error::{ErrorBody, FieldError, WireError};
use crate::platform::upload_quota::Refusal;

#[derive(Debug, thiserror::Error)]
pub enum DealsError {
    /// A body or field that is not the form (bad JSON, too long, bad page).
    #[error("bad request")]
    BadRequest,
    #[error("invalid iban")]
    InvalidIban(&'static str),
    /// No IBAN given and none stored in the wallet.
    #[error("no iban")]
    NoIban,
    #[error("already refunded")]
    AlreadyRefunded,
    /// Nothing left to refund or re-issue (vouchers used, expired or unknown).
    #[error("nothing to refund")]
    NothingToRefund,
    #[error("missing values")]
    MissingValues,
    /// An attachment of a type or size the rules refuse (its DSA message key).
    #[error("attachment refused")]
    Attachment(&'static str),
    /// Files past the member's quota, or the shop's storage nearly full (review N2).
    #[error("upload refused: {0:?}")]
    Upload(Refusal),
    /// Not among the member's own (another member's basket answers the same).
    #[error("not found")]
    NotFound,
    #[error("wallet: {0}")]
    Wallet(String),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
    /// A refund to an IBAN the wallet does not hold needs the current password or a fresh
    /// provider sign-in (review N1).
    #[error("re-authentication: {0}")]
    Reauth(#[from] crate::auth::reauth::Refusal),
}

impl WireError for DealsError {
    fn status(&self) -> u16 {
        match self {
            DealsError::NotFound => 404,
            DealsError::Wallet(_) | DealsError::Storage(_) => 500,
            DealsError::AlreadyRefunded => 409,
            DealsError::Upload(r) => r.status(),
            DealsError::Reauth(r) => r.status(),
            _ => 400,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            DealsError::BadRequest => "bad_request",
            DealsError::InvalidIban(_) => "invalid_iban",
            DealsError::NoIban => "no_iban",
            DealsError::AlreadyRefunded => "already_refunded",
            DealsError::NothingToRefund => "nothing_to_refund",
            DealsError::MissingValues => "missing_values",
            DealsError::Attachment(_) => "invalid_attachment",
            DealsError::Upload(r) => r.code(),
            DealsError::Reauth(r) => r.code(),
            DealsError::NotFound => "not_found",
            DealsError::Wallet(_) | DealsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            DealsError::BadRequest => "errors.general_retry.notification",
            DealsError::InvalidIban(_) => "rosedeals.errors.invalid_iban",
            DealsError::NoIban => "rosedeals.errors.no_iban",
            DealsError::AlreadyRefunded => "rosedeals.errors.already_refunded",
            DealsError::NothingToRefund => "rosedeals.errors.nothing_to_refund",
            DealsError::MissingValues => "rosedeals.errors.missing_values",
            DealsError::Attachment(key) => key,
            DealsError::Upload(Refusal::Quota) => "dsaform.error.upload_quota",
            DealsError::Upload(Refusal::StorageFull) => "dsaform.error.storage_full",
            DealsError::NotFound => "errors.not_found",
            DealsError::Reauth(r) => r.message_key(),
            DealsError::Wallet(_) | DealsError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            DealsError::InvalidIban(key) => Some(vec![FieldError {
                field: "iban".into(),
                message_key: (*key).into(),
            }]),
            DealsError::Attachment(key) => Some(vec![FieldError {
                field: "attachments".into(),
                message_key: (*key).into(),
            }]),
            DealsError::Reauth(r) => r.field_error().map(|(field, key)| {
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
            DealsError::Wallet(e) => Some(e.clone()),
            DealsError::Storage(e) => Some(e.to_string()),
            DealsError::Reauth(crate::auth::reauth::Refusal::Storage(e)) => Some(e.to_string()),
            _ => None,
        }
    }
    fn body(&self) -> ErrorBody {
        ErrorBody {
            field_errors: self.field_errors(),
            // The spec's own words for this refusal.
            message: matches!(self, DealsError::MissingValues)
                .then(|| crate::rosedeals::rules::MISSING_VALUES.to_string()),
            ..ErrorBody::new(self.code(), self.message_key())
        }
    }
}

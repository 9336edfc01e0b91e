//! Why an address call was refused (spec 001 §5, §8). A refused address carries its faulty
//! fields (`field_type`, `error_type`) and the message the spec's rule picks for them; a
//! save that fails for any other reason says `errors.address.not_saved.notification`;
//! other failures `errors.general_retry.notification`.
use crate::address::model::{AddressErrorBody, AddressFieldError};
use crate::address::rules::{error_message, field_errors};
use crate::model::error::{FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum AddressError {
    #[error("address to correct")]
    Invalid(Vec<AddressFieldError>),
    /// A body that is not an address (bad JSON, wrong types).
    #[error("unreadable address")]
    Unreadable,
    #[error("too many addresses")]
    TooMany,
    /// No such address among the member's own.
    #[error("not found")]
    NotFound,
    #[error("saving the address failed: {0}")]
    SaveFailed(String),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl AddressError {
    /// The body of the address service, with the message in `lang` too.
    pub fn address_body(&self, lang: &str) -> AddressErrorBody {
        let errors = match self {
            AddressError::Invalid(e) => e.clone(),
            _ => Vec::new(),
        };
        let message = match self {
            AddressError::Invalid(e) => error_message(e).text(lang),
            _ => crate::site::i18n::t(lang, self.message_key()),
        };
        AddressErrorBody {
            error_code: self.code().into(),
            error_description: self.message_key().into(),
            message: Some(message),
            field_errors: field_errors(&errors),
            errors,
        }
    }
}

impl WireError for AddressError {
    fn status(&self) -> u16 {
        match self {
            AddressError::Invalid(_) | AddressError::Unreadable | AddressError::TooMany => 400,
            AddressError::NotFound => 404,
            AddressError::SaveFailed(_) | AddressError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            AddressError::Invalid(_) => "invalid_address",
            AddressError::Unreadable => "bad_request",
            AddressError::TooMany => "too_many_addresses",
            AddressError::NotFound => "not_found",
            AddressError::SaveFailed(_) | AddressError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            AddressError::Invalid(e) => error_message(e).key(),
            // No field named: the spec's "not saved".
            AddressError::Unreadable | AddressError::SaveFailed(_) => error_message(&[]).key(),
            AddressError::TooMany => "address.errors.limit",
            AddressError::NotFound => "errors.not_found",
            AddressError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            AddressError::Invalid(e) => Some(field_errors(e)),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            AddressError::SaveFailed(e) => Some(e.clone()),
            AddressError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

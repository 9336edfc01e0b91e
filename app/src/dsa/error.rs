//! Why a report was refused. Its REST body is the DSA form's own spec shape
//! (`DsaFormErrorResponse`, exported to the React widget); `WireError` gives the edge the
//! same status, code and key.
use crate::model::dsa::{DsaFieldError, DsaFormErrorResponse};
use crate::model::error::{FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum DsaError {
    #[error("invalid report")]
    Invalid(Vec<DsaFieldError>),
    #[error("too many reports from this client")]
    RateLimited,
    /// Files past the client's quota, or the shop's storage nearly full (review N2).
    #[error("upload refused: {0:?}")]
    Upload(crate::platform::upload_quota::Refusal),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl DsaError {
    pub fn status(&self) -> u16 {
        match self {
            DsaError::Invalid(_) => 400,
            DsaError::RateLimited => 429,
            DsaError::Upload(r) => r.status(),
            DsaError::Storage(_) => 500,
        }
    }

    /// The DSA form's own error body (spec shape), from the same code and key.
    pub fn body(&self) -> DsaFormErrorResponse {
        DsaFormErrorResponse {
            error_code: WireError::code(self).into(),
            message_key: WireError::message_key(self).into(),
            field_errors: match self {
                DsaError::Invalid(f) => f.clone(),
                _ => vec![],
            },
        }
    }
}

impl WireError for DsaError {
    fn status(&self) -> u16 {
        DsaError::status(self)
    }
    fn code(&self) -> &'static str {
        match self {
            DsaError::Invalid(_) => "invalid_fields",
            DsaError::RateLimited => "too_many_requests",
            DsaError::Upload(r) => r.code(),
            DsaError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            DsaError::Invalid(_) => "dsaform.message.invalid",
            DsaError::RateLimited => "dsaform.message.security",
            DsaError::Upload(crate::platform::upload_quota::Refusal::Quota) => {
                "dsaform.error.upload_quota"
            }
            DsaError::Upload(crate::platform::upload_quota::Refusal::StorageFull) => {
                "dsaform.error.storage_full"
            }
            DsaError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            DsaError::Invalid(f) => Some(
                f.iter()
                    .map(|f| FieldError {
                        field: f.field.clone(),
                        message_key: f.message_key.clone(),
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            DsaError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! The error side of the wire (spec 000 §8): one body for every REST error, read by the
//! browser and written by the server, and the trait every area's error enum implements so
//! that the edge (`server::rest::error::ApiError`) turns it into a response without a
//! hand-written match per handler.
use serde::{Deserialize, Serialize};

/// Error body of our API: `error_code` (stable, machine-readable) and `error_description`
/// (a translation key). Forms add `fieldErrors`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    #[serde(default)]
    pub error_code: String,
    #[serde(default, alias = "errorDescription")]
    pub error_description: String,
    /// Field-level failures of a form, each with a translation key.
    #[serde(
        default,
        rename = "fieldErrors",
        skip_serializing_if = "Option::is_none"
    )]
    pub field_errors: Option<Vec<FieldError>>,
    /// The message already in the member's language, where the call knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl ErrorBody {
    pub fn new(code: &str, message_key: &str) -> ErrorBody {
        ErrorBody {
            error_code: code.into(),
            error_description: message_key.into(),
            field_errors: None,
            message: None,
        }
    }
}

/// One form field that failed validation; `messageKey` is a translation key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FieldError {
    pub field: String,
    pub message_key: String,
}

/// What an area's error enum tells the edge: its HTTP status, its wire code and the
/// translation key the member sees. `cause` is for the log only and is never sent.
pub trait WireError {
    fn status(&self) -> u16;
    /// The `error_code` of the body: a fixed string per variant, never derived from `Debug`.
    fn code(&self) -> &'static str;
    fn message_key(&self) -> &'static str;
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        None
    }
    /// The infrastructure failure behind a 5xx, logged by the edge.
    fn cause(&self) -> Option<String> {
        None
    }
    fn body(&self) -> ErrorBody {
        ErrorBody {
            field_errors: self.field_errors(),
            ..ErrorBody::new(self.code(), self.message_key())
        }
    }
}

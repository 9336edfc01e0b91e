//! Why a diagnostics call was refused: a body outside the rules (400, each field with its
//! key), a flood (429), or the rate-limit store failing (500).
use crate::diagnostics::rules::{Problem, Refusal};
use crate::model::error::{FieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum DiagnosticsError {
    #[error("invalid diagnostics body")]
    Invalid(Vec<Refusal>),
    #[error("too many diagnostics from this client")]
    RateLimited,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl DiagnosticsError {
    /// A body that is not JSON of the documented shape.
    pub fn unreadable() -> DiagnosticsError {
        DiagnosticsError::Invalid(vec![Refusal {
            field: "body".into(),
            problem: Problem::Unreadable,
        }])
    }

    fn first(&self) -> Option<Problem> {
        match self {
            DiagnosticsError::Invalid(r) => {
                Some(r.first().map_or(Problem::Unreadable, |r| r.problem))
            }
            _ => None,
        }
    }
}

impl WireError for DiagnosticsError {
    fn status(&self) -> u16 {
        match self {
            DiagnosticsError::Invalid(_) => 400,
            DiagnosticsError::RateLimited => 429,
            DiagnosticsError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            DiagnosticsError::Invalid(_) => self.first().map_or("invalid_body", Problem::code),
            DiagnosticsError::RateLimited => "too_many_requests",
            DiagnosticsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            DiagnosticsError::Invalid(_) => self
                .first()
                .map_or("diagnostics.errors.invalid_body", Problem::message_key),
            DiagnosticsError::RateLimited => "diagnostics.errors.rate_limited",
            DiagnosticsError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            DiagnosticsError::Invalid(r) => Some(
                r.iter()
                    .map(|r| FieldError {
                        field: r.field.clone(),
                        message_key: r.problem.message_key().into(),
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            DiagnosticsError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

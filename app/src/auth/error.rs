//! Why a sign-in operation failed: its HTTP status, its fixed wire code and the
//! translation key the member sees.
use crate::model::error::{FieldError as WireFieldError, WireError};

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("invalid input")]
    Invalid(Vec<crate::model::auth::FieldError>),
    #[error("too many attempts from this client")]
    TooManyRequests,
    #[error("link invalid, used or expired")]
    CypherInvalid,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
    #[error("internal failure: {0}")]
    Internal(String),
}

impl AuthError {
    pub fn status(&self) -> u16 {
        match self {
            AuthError::Invalid(_) | AuthError::CypherInvalid => 400,
            AuthError::TooManyRequests => 429,
            AuthError::Storage(_) | AuthError::Internal(_) => 500,
        }
    }
    pub fn message_key(&self) -> &'static str {
        match self {
            AuthError::Invalid(_) => "auth.error.invalid",
            AuthError::TooManyRequests => "auth.error.too_many",
            AuthError::CypherInvalid => "auth.error.cypher",
            AuthError::Storage(_) | AuthError::Internal(_) => "errors.general_retry.notification",
        }
    }
}

impl WireError for AuthError {
    fn status(&self) -> u16 {
        AuthError::status(self)
    }
    /// The codes the REST API has always sent (they were the lowercased variant names).
    fn code(&self) -> &'static str {
        match self {
            AuthError::Invalid(_) => "invalid",
            AuthError::TooManyRequests => "toomanyrequests",
            AuthError::CypherInvalid => "cypherinvalid",
            AuthError::Storage(_) => "storage",
            AuthError::Internal(_) => "internal",
        }
    }
    fn message_key(&self) -> &'static str {
        AuthError::message_key(self)
    }
    fn field_errors(&self) -> Option<Vec<WireFieldError>> {
        match self {
            AuthError::Invalid(f) => Some(
                f.iter()
                    .map(|f| WireFieldError {
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
            AuthError::Storage(e) => Some(e.to_string()),
            AuthError::Internal(e) => Some(e.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire codes are fixed literals equal to what the Debug-derived codes were.
    #[test]
    fn codes_are_the_former_debug_names() {
        let cases = [
            AuthError::Invalid(vec![]),
            AuthError::TooManyRequests,
            AuthError::CypherInvalid,
            AuthError::Internal("x".into()),
        ];
        for e in cases {
            let debug = format!("{e:?}").split('(').next().unwrap().to_lowercase();
            assert_eq!(WireError::code(&e), debug);
        }
    }
}

//! Why a help call was refused (spec 001 §8 "Help send or feedback failure: stored in
//! state"): each with its status, wire code and the key the form shows.
use crate::model::error::{FieldError, WireError};
use crate::platform::upload_quota::Refusal;

#[derive(Debug, thiserror::Error)]
pub enum HelpError {
    /// Faulty fields (reason, sub-reason, order, message).
    #[error("message to correct")]
    Invalid(Vec<FieldError>),
    /// A body that is not the message (bad JSON, wrong types, broken multipart).
    #[error("unreadable message")]
    Unreadable,
    /// A file that is not a PDF, PNG or JPEG by its content.
    #[error("file type refused")]
    FileType,
    #[error("too many files")]
    FileCount,
    /// One file past its limit, or all of them together past theirs.
    #[error("file too large")]
    FileTooLarge,
    #[error("files too large together")]
    TotalTooLarge,
    /// This site takes no tickets from the form.
    #[error("tickets not taken here")]
    TicketsClosed,
    /// No such order, ticket, notification or evaluation among the member's own.
    #[error("not found")]
    NotFound,
    /// Too many automatic-answer calls in the window (`rules::ANSWER_RATE_LIMIT`).
    #[error("too many requests")]
    TooMany,
    /// Files past the sender's quota, or the shop's storage nearly full (review N2).
    #[error("upload refused: {0:?}")]
    Upload(crate::platform::upload_quota::Refusal),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for HelpError {
    fn status(&self) -> u16 {
        match self {
            HelpError::Invalid(_)
            | HelpError::Unreadable
            | HelpError::FileType
            | HelpError::FileCount => 400,
            HelpError::FileTooLarge | HelpError::TotalTooLarge => 413,
            HelpError::TicketsClosed => 403,
            HelpError::NotFound => 404,
            HelpError::TooMany => 429,
            HelpError::Upload(r) => r.status(),
            HelpError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            HelpError::Invalid(_) => "invalid_message",
            HelpError::Unreadable => "bad_request",
            HelpError::FileType => "file_type",
            HelpError::FileCount => "file_count",
            HelpError::FileTooLarge => "file_too_large",
            HelpError::TotalTooLarge => "files_too_large",
            HelpError::TicketsClosed => "tickets_closed",
            HelpError::NotFound => "not_found",
            HelpError::TooMany => "too_many_requests",
            HelpError::Upload(r) => r.code(),
            HelpError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            HelpError::Invalid(_) | HelpError::Unreadable => "help.errors.form",
            HelpError::FileType => "help.errors.file_type",
            HelpError::FileCount => "help.errors.file_count",
            HelpError::FileTooLarge => "help.errors.file_size",
            HelpError::TotalTooLarge => "help.errors.total_size",
            HelpError::TicketsClosed => "help.errors.tickets_closed",
            HelpError::NotFound => "errors.not_found",
            HelpError::TooMany => "help.errors.too_many",
            HelpError::Upload(Refusal::Quota) => "help.errors.upload_quota",
            HelpError::Upload(Refusal::StorageFull) => "help.errors.storage_full",
            HelpError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            HelpError::Invalid(fields) => Some(fields.clone()),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            HelpError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

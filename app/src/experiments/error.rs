//! Why an experiments operation failed: a refused variations call (400, localized), an
//! operator's refused control (no such experiment, bad weights, a page no longer true), or
//! storage.
use crate::experiments::controls::WeightError;
use crate::experiments::rules::Refusal;
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum ExperimentsError {
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error("no experiment of that name")]
    UnknownExperiment,
    #[error("weights refused: {0:?}")]
    Weights(WeightError),
    /// The experiment changed since the version the operator acted on: nothing was done.
    #[error("the experiment changed meanwhile")]
    Changed,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for ExperimentsError {
    fn status(&self) -> u16 {
        match self {
            ExperimentsError::Refused(_) | ExperimentsError::Weights(_) => 400,
            ExperimentsError::UnknownExperiment => 404,
            ExperimentsError::Changed => 409,
            ExperimentsError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            ExperimentsError::Refused(r) => r.code(),
            ExperimentsError::UnknownExperiment => "unknown_experiment",
            ExperimentsError::Weights(_) => "invalid_weights",
            ExperimentsError::Changed => "changed",
            ExperimentsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            ExperimentsError::Refused(r) => r.message_key(),
            ExperimentsError::UnknownExperiment => Refusal::UnknownExperiment.message_key(),
            ExperimentsError::Weights(_)
            | ExperimentsError::Changed
            | ExperimentsError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            ExperimentsError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

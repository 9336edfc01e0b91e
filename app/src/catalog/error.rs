//! Why a catalog operation failed: status, fixed wire code and translation key.
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("not found")]
    NotFound,
    /// A refused input; the translation key says why.
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
    /// A cart operation done with a catalog one refused (a cart frozen for payment).
    #[error("cart: {0:?}")]
    Cart(crate::cart::error::CartFailure),
}

impl From<crate::cart::error::CartFailure> for CatalogError {
    fn from(e: crate::cart::error::CartFailure) -> Self {
        match e {
            crate::cart::error::CartFailure::Db(e) => CatalogError::Storage(e),
            e => CatalogError::Cart(e),
        }
    }
}

impl WireError for CatalogError {
    fn status(&self) -> u16 {
        match self {
            CatalogError::NotFound => 404,
            CatalogError::BadRequest(_) => 400,
            CatalogError::Storage(_) => 500,
            CatalogError::Cart(e) => e.status(),
        }
    }
    fn code(&self) -> &'static str {
        match self {
            CatalogError::NotFound => "not_found",
            CatalogError::BadRequest(_) => "bad_request",
            CatalogError::Storage(_) => "unexpected",
            CatalogError::Cart(e) => e.code(),
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            CatalogError::NotFound => "errors.not_found",
            CatalogError::BadRequest(key) => key,
            CatalogError::Storage(_) => "errors.general_retry.notification",
            CatalogError::Cart(e) => e.message_key(),
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            CatalogError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

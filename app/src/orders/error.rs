//! Why an orders call was refused: a bad page or size (400), an order that is not the
//! member's (404, the same as one that does not exist), a move the life cycle forbids.
use crate::model::error::WireError;
use crate::orders::rules::MoveRefusal;

#[derive(Debug, thiserror::Error)]
pub enum OrdersError {
    #[error("bad page number")]
    BadPage,
    #[error("bad page size")]
    BadSize,
    #[error("order not found")]
    NotFound,
    #[error("{0}")]
    Refused(MoveRefusal),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for OrdersError {
    fn status(&self) -> u16 {
        match self {
            OrdersError::BadPage | OrdersError::BadSize => 400,
            OrdersError::NotFound => 404,
            OrdersError::Refused(_) => 409,
            OrdersError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            OrdersError::BadPage => "bad_page",
            OrdersError::BadSize => "bad_size",
            OrdersError::NotFound => "not_found",
            OrdersError::Refused(_) => "status_refused",
            OrdersError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            OrdersError::BadPage | OrdersError::BadSize | OrdersError::Refused(_) => {
                "errors.general_retry.notification"
            }
            OrdersError::NotFound => "orders.not_found",
            OrdersError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            OrdersError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

impl From<crate::orders::rules::PagingError> for OrdersError {
    fn from(e: crate::orders::rules::PagingError) -> Self {
        match e {
            crate::orders::rules::PagingError::Page => OrdersError::BadPage,
            crate::orders::rules::PagingError::Size => OrdersError::BadSize,
        }
    }
}

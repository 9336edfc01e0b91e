//! Why a vouchers-page call was refused: a voucher that is not the member's (404), or
//! what the cart says about putting it in the basket (frozen 261, used up, ...).
use crate::cart::error::CartFailure;
use crate::model::error::WireError;

#[derive(Debug, thiserror::Error)]
pub enum PromotionsError {
    #[error("unreadable request")]
    Invalid,
    /// Not one of the member's vouchers nor a promotion of their site.
    #[error("not found")]
    NotFound,
    #[error("the cart refused: {0:?}")]
    Cart(CartFailure),
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl From<CartFailure> for PromotionsError {
    fn from(e: CartFailure) -> Self {
        PromotionsError::Cart(e)
    }
}

impl WireError for PromotionsError {
    fn status(&self) -> u16 {
        match self {
            PromotionsError::Invalid => 400,
            PromotionsError::NotFound => 404,
            PromotionsError::Cart(e) => e.status(),
            PromotionsError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            PromotionsError::Invalid => "bad_request",
            PromotionsError::NotFound => "not_found",
            PromotionsError::Cart(e) => e.code(),
            PromotionsError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            PromotionsError::NotFound => "errors.not_found",
            PromotionsError::Cart(crate::cart::error::CartFailure::Cart(e)) => e.message_key(),
            _ => "errors.general_retry.notification",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            PromotionsError::Storage(e) => Some(e.to_string()),
            PromotionsError::Cart(e) => e.cause(),
            _ => None,
        }
    }
}

//! Why a cart operation did not succeed: a cart outcome of spec §8 (the pure `CartError`
//! of `rules.rs`, with its code table), or the database.
use crate::cart::rules::CartError;
use crate::model::error::WireError;

#[derive(Debug)]
pub enum CartFailure {
    Cart(CartError),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for CartFailure {
    fn from(e: sqlx::Error) -> Self {
        CartFailure::Db(e)
    }
}

impl From<CartError> for CartFailure {
    fn from(e: CartError) -> Self {
        CartFailure::Cart(e)
    }
}

impl WireError for CartFailure {
    fn status(&self) -> u16 {
        match self {
            CartFailure::Cart(e) => e.code().status(),
            CartFailure::Db(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            CartFailure::Cart(e) => e.error_code(),
            CartFailure::Db(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            CartFailure::Cart(e) => e.message_key(),
            CartFailure::Db(_) => "cart.errors.unexpected",
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            CartFailure::Db(e) => Some(e.to_string()),
            CartFailure::Cart(_) => None,
        }
    }
}

pub type CartResult<T> = Result<T, CartFailure>;

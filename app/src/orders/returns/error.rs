//! Why an after-sale call (invoice, return, marketplace message) was refused: the spec's
//! `error_code`, its HTTP status and the message key `aftersale.errors.<code>`.
use crate::model::error::{FieldError, WireError};
use crate::orders::returns::rules::Refusal;

#[derive(Debug, thiserror::Error)]
pub enum AfterSaleError {
    /// Not one of the member's orders (or no such order): 404, never "someone else's".
    #[error("no such order")]
    NotFound,
    #[error("order not delivered")]
    OrderNotDelivered,
    /// Past the return window (`ROSACE_RETURN_WINDOW_DAYS` after delivery).
    #[error("return window closed")]
    WindowClosed,
    #[error("order not paid")]
    NotInvoiceable,
    #[error("not a marketplace order")]
    NotMarketplace,
    #[error("refused: {0:?}")]
    Refused(Refusal),
    #[error("invalid message")]
    InvalidMessage,
    /// A body that is not the call's JSON.
    #[error("unreadable body")]
    Unreadable,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl From<Refusal> for AfterSaleError {
    fn from(r: Refusal) -> Self {
        AfterSaleError::Refused(r)
    }
}

impl WireError for AfterSaleError {
    fn status(&self) -> u16 {
        match self {
            AfterSaleError::NotFound => 404,
            AfterSaleError::Refused(Refusal::AlreadyRequested(_)) => 409,
            AfterSaleError::Storage(_) => 500,
            _ => 400,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            AfterSaleError::NotFound => "not_found",
            AfterSaleError::OrderNotDelivered => "order_not_delivered",
            AfterSaleError::WindowClosed => "return_window_closed",
            AfterSaleError::NotInvoiceable => "order_not_invoiceable",
            AfterSaleError::NotMarketplace => "not_marketplace_order",
            AfterSaleError::Refused(r) => match r {
                Refusal::NoProducts => "no_products",
                Refusal::InvalidQuantity(_) => "invalid_quantity",
                Refusal::UnknownProduct(_) => "unknown_product",
                Refusal::AlreadyRequested(_) => "return_already_requested",
                Refusal::InvalidReason => "invalid_reason",
                Refusal::InvalidComment => "invalid_comment",
            },
            AfterSaleError::InvalidMessage => "invalid_message",
            AfterSaleError::Unreadable => "bad_request",
            AfterSaleError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            AfterSaleError::NotFound => "errors.not_found",
            AfterSaleError::OrderNotDelivered => "aftersale.errors.order_not_delivered",
            AfterSaleError::WindowClosed => "aftersale.errors.return_window_closed",
            AfterSaleError::NotInvoiceable => "aftersale.errors.order_not_invoiceable",
            AfterSaleError::NotMarketplace => "aftersale.errors.not_marketplace_order",
            AfterSaleError::Refused(r) => match r {
                Refusal::NoProducts => "aftersale.errors.no_products",
                Refusal::InvalidQuantity(_) => "aftersale.errors.invalid_quantity",
                Refusal::UnknownProduct(_) => "aftersale.errors.unknown_product",
                Refusal::AlreadyRequested(_) => "aftersale.errors.return_already_requested",
                Refusal::InvalidReason => "aftersale.errors.invalid_reason",
                Refusal::InvalidComment => "aftersale.errors.invalid_comment",
            },
            AfterSaleError::InvalidMessage => "aftersale.errors.invalid_message",
            AfterSaleError::Unreadable => "errors.general_retry.notification",
            AfterSaleError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        let (field, key) = match self {
            AfterSaleError::Refused(Refusal::NoProducts)
            | AfterSaleError::Refused(Refusal::InvalidQuantity(_))
            | AfterSaleError::Refused(Refusal::UnknownProduct(_))
            | AfterSaleError::Refused(Refusal::AlreadyRequested(_)) => {
                ("products", self.message_key())
            }
            AfterSaleError::Refused(Refusal::InvalidReason) => ("reasonId", self.message_key()),
            AfterSaleError::Refused(Refusal::InvalidComment) => ("comment", self.message_key()),
            AfterSaleError::InvalidMessage => ("message", self.message_key()),
            _ => return None,
        };
        Some(vec![FieldError {
            field: field.into(),
            message_key: key.into(),
        }])
    }
    fn cause(&self) -> Option<String> {
        match self {
            AfterSaleError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

//! Why a travel call was refused: the status, the wire code and the key of the message the
//! member reads.
use crate::model::error::{FieldError, WireError};
use crate::travel::rules::BookingBlock;

#[derive(Debug, thiserror::Error)]
pub enum TravelError {
    #[error("no such travel product")]
    NotFound,
    #[error("the configuration cannot be booked")]
    Blocked(Vec<BookingBlock>),
    #[error("travellers to correct")]
    Invalid(Vec<FieldError>),
    /// The chosen address is not one of the member's (another member's, or none at all).
    #[error("no such address in the member's address book")]
    UnknownAddress,
    #[error("not enough places left on this departure")]
    SoldOut,
    #[error("no such booking")]
    NoBooking,
    #[error("the hold on these places expired")]
    Expired,
    #[error("payment declined")]
    Declined,
    #[error("invalid card")]
    InvalidCard,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl WireError for TravelError {
    fn status(&self) -> u16 {
        match self {
            TravelError::NotFound | TravelError::NoBooking | TravelError::UnknownAddress => 404,
            TravelError::Blocked(_) | TravelError::Invalid(_) => 400,
            TravelError::SoldOut | TravelError::Expired => 409,
            TravelError::Declined | TravelError::InvalidCard => 402,
            TravelError::Storage(_) => 500,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            TravelError::NotFound => "not_found",
            TravelError::Blocked(_) => "booking_blocked",
            TravelError::Invalid(_) => "invalid_travellers",
            TravelError::UnknownAddress => "unknown_address",
            TravelError::SoldOut => "sold_out",
            TravelError::NoBooking => "no_booking",
            TravelError::Expired => "hold_expired",
            TravelError::Declined => "payment_declined",
            TravelError::InvalidCard => "invalid_card",
            TravelError::Storage(_) => "unexpected",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            TravelError::NotFound => "travel.error.not_found",
            TravelError::Blocked(blocks) => blocks
                .first()
                .map(|b| b.message_key())
                .unwrap_or("travel.error.blocked"),
            TravelError::Invalid(_) => "travel.error.invalid",
            TravelError::UnknownAddress => "travel.error.unknown_address",
            TravelError::SoldOut => "travel.error.sold_out",
            TravelError::NoBooking => "travel.error.no_booking",
            TravelError::Expired => "travel.error.expired",
            TravelError::Declined => "travel.error.declined",
            TravelError::InvalidCard => "travel.error.invalid_card",
            TravelError::Storage(_) => "errors.general_retry.notification",
        }
    }
    fn field_errors(&self) -> Option<Vec<FieldError>> {
        match self {
            TravelError::Blocked(blocks) => Some(
                blocks
                    .iter()
                    .map(|b| FieldError {
                        field: b.field(),
                        message_key: b.message_key().into(),
                    })
                    .collect(),
            ),
            TravelError::Invalid(fields) => Some(fields.clone()),
            _ => None,
        }
    }
    fn cause(&self) -> Option<String> {
        match self {
            TravelError::Storage(e) => Some(e.to_string()),
            _ => None,
        }
    }
}

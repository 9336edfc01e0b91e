//! Marketplace order help (spec 001 §3 "Marketplace help form", §4, §7): contact the
//! seller about an order, ask for a return, get the invoice. The form state and message
//! rules are pure and unit-tested; [`service`] writes the message.

/// Orders of this cart type are sold by marketplace sellers.
pub const CART_TYPE: &str = "marketplace";

pub fn is_marketplace(cart_type: &str) -> bool {
    cart_type == CART_TYPE
}

/// The contact reasons (id, translation key).
pub const CONTACT_REASONS: [(&str, &str); 4] = [
    ("delivery", "aftersale.marketplace.reason.delivery"),
    ("product", "aftersale.marketplace.reason.product"),
    ("invoice", "aftersale.marketplace.reason.invoice"),
    ("other", "aftersale.marketplace.reason.other"),
];

pub const MAX_MESSAGE_CHARS: usize = 2000;

pub fn valid_reason(id: &str) -> bool {
    CONTACT_REASONS.iter().any(|(r, _)| *r == id)
}

/// A message is 1 to 2000 characters once trimmed; the trimmed text is what is stored.
pub fn clean_message(message: &str) -> Option<&str> {
    let m = message.trim();
    let n = m.chars().count();
    (1..=MAX_MESSAGE_CHARS).contains(&n).then_some(m)
}

#[cfg(feature = "ssr")]
pub mod service {
    //! The marketplace message write, one transaction.
    use crate::orders::returns::error::AfterSaleError;
    use crate::orders::returns::model::{MarketplaceContactRequest, MarketplaceContactSent};
    use crate::platform::db::Db;

    pub async fn contact(
        db: &Db,
        member_id: i64,
        order_id: i64,
        req: &MarketplaceContactRequest,
        now: i64,
    ) -> Result<MarketplaceContactSent, AfterSaleError> {
        let mut tx = db.begin().await?;
        let cart_type: Option<String> =
            sqlx::query_scalar("SELECT cart_type FROM orders WHERE id = $1 AND member_id = $2")
                .bind(order_id)
                .bind(member_id)
                .fetch_optional(&mut *tx)
                .await?;
        let cart_type = cart_type.ok_or(AfterSaleError::NotFound)?;
        if !super::is_marketplace(&cart_type) {
            return Err(AfterSaleError::NotMarketplace);
        }
        if !super::valid_reason(&req.reason_id) {
            return Err(crate::orders::returns::rules::Refusal::InvalidReason.into());
        }
        let message = super::clean_message(&req.message).ok_or(AfterSaleError::InvalidMessage)?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO marketplace_messages (order_id, reason_id, message, created_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(order_id)
        .bind(&req.reason_id)
        .bind(message)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(MarketplaceContactSent {
            message_id: id,
            message_has_been_sent: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_1_to_2000_characters() {
        assert_eq!(clean_message("  hi "), Some("hi"));
        assert_eq!(clean_message("   "), None);
        assert!(clean_message(&"é".repeat(2000)).is_some());
        assert!(clean_message(&"é".repeat(2001)).is_none());
    }
}

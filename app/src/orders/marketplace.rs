//! Marketplace order help (spec 001 §3 "Marketplace help form", §4, §7): contact the
//! seller about an order, ask for a return, get the invoice. The form state and message
//! rules are pure and unit-tested; [`service`] writes the message.
use serde::{Deserialize, Serialize};

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

/// The marketplace help form: message, reasonId, orderId, selectedProducts and the flags
/// messageHasBeenSent and openInvoice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HelpForm {
    pub message: String,
    pub reason_id: Option<String>,
    pub order_id: i64,
    /// (productId, quantity) of the lines picked for a return.
    pub selected_products: Vec<(String, i64)>,
    pub message_has_been_sent: bool,
    pub open_invoice: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HelpAction {
    SelectReason(String),
    SetMessage(String),
    /// Sets a line's quantity; 0 takes it out of the selection.
    SelectProduct {
        product_id: String,
        quantity: i64,
    },
    MessageSent,
    ReturnSent,
    InvoiceFetched,
}

/// Spec 001 §4: selecting a reason resets the sent flag; sending a message or a return
/// sets it; fetching the invoice sets openInvoice.
pub fn reduce_help(state: &HelpForm, action: &HelpAction) -> HelpForm {
    let mut s = state.clone();
    match action {
        HelpAction::SelectReason(id) => {
            s.reason_id = Some(id.clone());
            s.message_has_been_sent = false;
        }
        HelpAction::SetMessage(m) => s.message = m.clone(),
        HelpAction::SelectProduct {
            product_id,
            quantity,
        } => {
            s.selected_products.retain(|(id, _)| id != product_id);
            if *quantity > 0 {
                s.selected_products.push((product_id.clone(), *quantity));
            }
        }
        HelpAction::MessageSent => {
            s.message_has_been_sent = true;
            s.message.clear();
        }
        HelpAction::ReturnSent => {
            s.message_has_been_sent = true;
            s.selected_products.clear();
        }
        HelpAction::InvoiceFetched => s.open_invoice = true,
    }
    s
}

/// The contact message can be sent: a known reason and a message of the right length.
pub fn can_send(state: &HelpForm) -> bool {
    state.reason_id.as_deref().is_some_and(valid_reason) && clean_message(&state.message).is_some()
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
    fn selecting_a_reason_resets_the_sent_flag() {
        let sent = HelpForm {
            message_has_been_sent: true,
            ..HelpForm::default()
        };
        let s = reduce_help(&sent, &HelpAction::SelectReason("delivery".into()));
        assert!(!s.message_has_been_sent);
        assert_eq!(s.reason_id.as_deref(), Some("delivery"));
    }

    #[test]
    fn sending_a_message_or_a_return_sets_it() {
        let s = reduce_help(
            &HelpForm::default(),
            &HelpAction::SetMessage("Bonjour".into()),
        );
        let s = reduce_help(&s, &HelpAction::MessageSent);
        assert!(s.message_has_been_sent);
        assert!(s.message.is_empty());
        let s = reduce_help(
            &HelpForm::default(),
            &HelpAction::SelectProduct {
                product_id: "7".into(),
                quantity: 2,
            },
        );
        assert_eq!(s.selected_products, vec![("7".to_string(), 2)]);
        let s = reduce_help(&s, &HelpAction::ReturnSent);
        assert!(s.message_has_been_sent);
        assert!(s.selected_products.is_empty());
    }

    #[test]
    fn invoice_fetch_opens_the_invoice() {
        let s = reduce_help(&HelpForm::default(), &HelpAction::InvoiceFetched);
        assert!(s.open_invoice && !s.message_has_been_sent);
    }

    #[test]
    fn product_selection_replaces_and_removes() {
        let pick = |s: &HelpForm, id: &str, q| {
            reduce_help(
                s,
                &HelpAction::SelectProduct {
                    product_id: id.into(),
                    quantity: q,
                },
            )
        };
        let s = pick(&HelpForm::default(), "1", 1);
        let s = pick(&s, "1", 3);
        assert_eq!(s.selected_products, vec![("1".to_string(), 3)]);
        let s = pick(&s, "1", 0);
        assert!(s.selected_products.is_empty());
    }

    #[test]
    fn messages_are_1_to_2000_characters() {
        assert_eq!(clean_message("  hi "), Some("hi"));
        assert_eq!(clean_message("   "), None);
        assert!(clean_message(&"é".repeat(2000)).is_some());
        assert!(clean_message(&"é".repeat(2001)).is_none());
        let mut s = HelpForm {
            message: "Où est mon colis ?".into(),
            ..HelpForm::default()
        };
        assert!(!can_send(&s));
        s.reason_id = Some("delivery".into());
        assert!(can_send(&s));
        s.reason_id = Some("nope".into());
        assert!(!can_send(&s));
    }
}

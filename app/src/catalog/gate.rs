//! A sale's intermediate step (spec 000 §3: `legal.productsListingCgu`, and the sale
//! state's `hasAcceptedIntermediate` and `hasCanceledCart`, which "become true once"): a
//! sale may ask each member to accept its listing conditions before its catalog and
//! product pages show. When the member's cart holds items of another kind (one cart, one
//! checkout: `cart::rules::cart_types_conflict`), the step says so and offers to empty it
//! with the acceptance. Pure: the page, the form and their tests share it.
use serde::{Deserialize, Serialize};

use crate::cart::rules::{cart_type_for_seller, cart_types_conflict};
use crate::model::catalog_api::SaleState;

/// The step a member meets before a sale's pages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaleGate {
    /// The sale's listing conditions, as its operator wrote them.
    pub conditions: String,
    /// The member's cart holds items that cannot be bought with this sale's.
    pub cart_to_cancel: bool,
}

/// The step before a sale for a member, if any: only a sale with conditions, only until
/// the member accepted them.
pub fn gate(
    conditions: &str,
    seller_kind: &str,
    state: &SaleState,
    live_cart_type: Option<&str>,
) -> Option<SaleGate> {
    if conditions.trim().is_empty() || state.has_accepted_intermediate {
        return None;
    }
    Some(SaleGate {
        conditions: conditions.to_string(),
        cart_to_cancel: cart_types_conflict(live_cart_type, cart_type_for_seller(seller_kind)),
    })
}

/// The form's route (`server/src/forms/catalog.rs`) and its path for a sale.
pub const FORM_ROUTE: &str = "/catalog/{saleId}/intermediate";
pub fn form_action(sale_id: i64) -> String {
    FORM_ROUTE.replace("{saleId}", &sale_id.to_string())
}

/// Where the form returns: a page of the sale the member came from (its catalog or one of
/// its products, a local path), else the sale's catalog. Never another site's address.
pub fn return_path(sale_id: i64, asked: &str) -> String {
    let local = asked.starts_with('/') && !asked.starts_with("//") && !asked.contains('\\');
    if local && asked.len() <= 512 {
        asked.to_string()
    } else {
        format!("/catalog/{sale_id}/0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(accepted: bool) -> SaleState {
        SaleState {
            has_accepted_intermediate: accepted,
            has_canceled_cart: false,
        }
    }

    #[test]
    fn only_a_sale_with_conditions_and_only_until_accepted() {
        assert_eq!(gate("", "fs", &state(false), None), None);
        assert_eq!(gate("  \n", "fs", &state(false), None), None);
        assert_eq!(gate("Terms", "fs", &state(true), None), None);
        assert_eq!(
            gate("Terms", "fs", &state(false), None),
            Some(SaleGate {
                conditions: "Terms".into(),
                cart_to_cancel: false
            })
        );
    }

    #[test]
    fn a_cart_of_another_kind_is_offered_to_empty() {
        let g = |cart: Option<&str>, seller: &str| {
            gate("Terms", seller, &state(false), cart).map(|g| g.cart_to_cancel)
        };
        assert_eq!(g(Some("fs"), "marketplace"), Some(true));
        assert_eq!(g(Some("marketplace"), "marketplace"), Some(false));
        assert_eq!(g(Some("fs"), "fs"), Some(false));
        assert_eq!(g(None, "marketplace"), Some(false));
    }

    #[test]
    fn the_form_returns_to_a_local_page_only() {
        assert_eq!(
            return_path(1011, "/catalog/1011/0?page=2"),
            "/catalog/1011/0?page=2"
        );
        assert_eq!(return_path(1011, "/p/1011/5"), "/p/1011/5");
        for away in ["https://evil.test/", "//evil.test", "/\\evil.test", ""] {
            assert_eq!(return_path(1011, away), "/catalog/1011/0", "{away}");
        }
    }
}

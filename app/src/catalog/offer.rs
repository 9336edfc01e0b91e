//! A sale's offer type (spec 000 §1: FlashSale, SecondHand, M2M, Vbi, Premium,
//! Marketplace, and the brand's own, here `Rosace`): what the back office and the feed may
//! give a sale, and what a member is told about it. A flash sale is the shop's ordinary
//! offer and says nothing; second-hand goods, goods members sell to members (M2M, sold
//! through the shop, which ships and refunds them) and a partner seller's goods
//! (Marketplace) are named on the home's tile and the catalog's header, because they
//! change what the buyer gets: used goods, or another seller.
pub const OFFER_TYPES: [&str; 7] = [
    "FlashSale",
    "SecondHand",
    "M2M",
    "Marketplace",
    "Premium",
    "Vbi",
    "Rosace",
];

/// Whether `offer_type` is one a sale may have.
pub fn is_offer_type(offer_type: &str) -> bool {
    OFFER_TYPES.contains(&offer_type)
}

/// The translation key of the label a member sees for a sale of `offer_type`, if any.
pub fn label_key(offer_type: &str) -> Option<&'static str> {
    match offer_type {
        "SecondHand" => Some("offer.secondhand"),
        "M2M" => Some("offer.m2m"),
        "Marketplace" => Some("offer.marketplace"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_offers_that_change_what_the_buyer_gets_are_named() {
        assert!(is_offer_type("M2M") && is_offer_type("FlashSale"));
        assert!(!is_offer_type("m2m") && !is_offer_type(""));
        assert_eq!(label_key("M2M"), Some("offer.m2m"));
        assert_eq!(label_key("SecondHand"), Some("offer.secondhand"));
        assert_eq!(label_key("Marketplace"), Some("offer.marketplace"));
        for quiet in ["FlashSale", "Premium", "Vbi", "Rosace", "unknown"] {
            assert_eq!(label_key(quiet), None, "{quiet}");
        }
    }
}

//! The merchandisers' words for voucher and promotion campaigns, `(key, English, French)`.
pub(super) const TABLE: &[(&str, &str, &str)] = &[("nav.campaigns", "Campaigns", "Campagnes")];

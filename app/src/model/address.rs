//! The delivery address an order keeps: a wire type the cart, the orders and the address
//! book share (its conversion from an address-book entry is in `address::model`).
use serde::{Deserialize, Serialize};

/// The delivery address an order keeps: a copy, so later edits or deletions of the address
/// book never change a past order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAddress {
    pub first_name: String,
    pub last_name: String,
    pub details: String,
    pub extras: String,
    pub zip_code: String,
    pub city: String,
    pub country: String,
    pub phone: String,
}

/// GET /api/members/v1/cities (spec 000 §7 "cities by zip code", without shape): the places
/// a zip code of the site's country names, for the registration and address forms to
/// offer. Empty when the code is unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "CitiesByZipCode.ts"))]
#[serde(rename_all = "camelCase")]
pub struct CitiesByZipCode {
    /// The code as looked up (spaces and a Luxembourg `L-` removed, upper case).
    pub zip_code: String,
    pub cities: Vec<String>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_typescript_matches_the_rust_models() {
        let mut stale = Vec::new();
        crate::model::dsa::check_generated::<super::CitiesByZipCode>(&mut stale);
        assert!(
            stale.is_empty(),
            "regenerate with UPDATE_GENERATED=1:\n{}",
            stale.join("\n")
        );
    }
}

//! The address book's wire shapes (spec 001 §3 "Address", §7 address service). Field names
//! are the spec's (camelCase); the error entries keep the spec's `field_type` and
//! `error_type`.
use serde::{Deserialize, Serialize};

/// Base path of the address service.
pub const ADDRESS_API: &str = "/api/address/v1";
/// Base path of the post-sales configuration (address specificities).
pub const POSTSALES_CONFIG_API: &str = "/api/postsales/config/v1";

/// One of the member's addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Address {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    /// Street and number.
    pub details: String,
    /// Building, floor, door code: optional.
    pub extras: String,
    pub zip_code: String,
    pub city: String,
    /// ISO 3166-1 alpha-2.
    pub country: String,
    /// As stored (digits, with `+` for an international number); pages show it formatted
    /// for the site (`rules::format_phone`).
    pub phone: String,
    pub is_favorite: bool,
}

/// POST (new) and PUT (change, `id` set) bodies. Missing fields count as empty, so they get
/// their field's error rather than a parse failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct AddressRequest {
    /// PUT only: the address to change.
    pub id: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub details: String,
    pub extras: String,
    pub zip_code: String,
    pub city: String,
    /// Empty means the site's own country.
    pub country: String,
    pub phone: String,
    /// Make it the favourite (the one checkout preselects). Leaving it out keeps the flag
    /// as it is (a first address always becomes the favourite).
    pub is_favorite: Option<bool>,
}

/// One faulty field, as the address service reports it (spec 001 §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AddressFieldError {
    /// The field's wire name (`zipCode`, `phone`, ...).
    pub field_type: String,
    /// 1 missing, 2 too long, 3 characters not allowed, 4 forbidden (zip code or country
    /// not delivered), 5 wrong format.
    pub error_type: u8,
}

/// The body of a refused address call: the message the spec's rule chooses
/// (`error_description`, also in the member's language in `message`), the faulty fields as
/// the spec shapes them (`errors`) and a message key per field (`fieldErrors`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AddressErrorBody {
    pub error_code: String,
    pub error_description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default)]
    pub errors: Vec<AddressFieldError>,
    #[serde(default, rename = "fieldErrors")]
    pub field_errors: Vec<crate::model::error::FieldError>,
}

/// GET list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AddressList {
    pub addresses: Vec<Address>,
}

/// A country a site delivers to, with its zip code rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CountrySpecificities {
    pub code: String,
    /// The format as a regular expression, for clients (the server checks it itself).
    pub zip_code_pattern: String,
    pub zip_code_example: String,
    pub zip_code_max_length: usize,
    /// Zip codes (or their first digits) not delivered to.
    pub forbidden_zip_codes: Vec<String>,
}

/// How a site writes phone numbers: the first group, then groups of `rest` digits (or the
/// remaining digits in one group when `rest` is none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PhoneFormat {
    pub first: usize,
    pub rest: Option<usize>,
    pub example: String,
}

/// `configurationDetails.addressFieldSpecificities` of a site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AddressFieldSpecificities {
    pub countries: Vec<CountrySpecificities>,
    pub phone_format: PhoneFormat,
    pub required_fields: Vec<String>,
    /// Longest value per field, in characters.
    pub max_lengths: std::collections::BTreeMap<String, usize>,
    /// Most addresses a member may keep.
    pub max_addresses: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConfigurationDetails {
    pub address_field_specificities: AddressFieldSpecificities,
}

/// GET `/api/postsales/config/v1/features`: the post-sales web features of a site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PostsalesFeatures {
    pub site_id: u16,
    pub target: String,
    pub configuration_details: ConfigurationDetails,
}

pub use crate::model::address::DeliveryAddress;

impl From<&Address> for DeliveryAddress {
    fn from(a: &Address) -> Self {
        DeliveryAddress {
            first_name: a.first_name.clone(),
            last_name: a.last_name.clone(),
            details: a.details.clone(),
            extras: a.extras.clone(),
            zip_code: a.zip_code.clone(),
            city: a.city.clone(),
            country: a.country.clone(),
            phone: a.phone.clone(),
        }
    }
}

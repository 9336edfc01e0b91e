//! Travel catalog and search wire types: the query a catalog or a search result list is
//! built from, and one page of offers with the filters' facets.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::travel::TravelOffer;

/// Offers per catalog or results page; the next page appends.
pub const OFFERS_PAGE_SIZE: u32 = 9;

/// What a list of offers is built from: a travel catalog (`campaignId`, optional
/// `universeId`) or a search (no campaign). Dates are `YYYY-MM-DD` here; the URL carries
/// the filters' dates as `DDMMYY` (spec 001 §2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, utoipa::IntoParams))]
#[serde(rename_all = "camelCase", default)]
pub struct OfferQuery {
    pub site_id: u16,
    pub campaign_id: Option<i64>,
    pub universe_id: Option<i64>,
    /// A destination id (a country, region or city: it and everything under it) or a
    /// travel sale (`sale-{id}`), as the autocomplete gives them.
    pub destination_id: Option<String>,
    /// Free text when no suggestion was chosen: matched against destination names.
    pub destination_text: Option<String>,
    pub departure_city_code: Option<String>,
    pub trip_type_id: Option<String>,
    pub checkin: Option<String>,
    pub checkout: Option<String>,
    /// A flexible period: a month `YYYY-MM`.
    pub dates: Option<String>,
    /// Days either side of the check-in (1, 3 or 7; 0 exact dates).
    #[serde(deserialize_with = "crate::model::travel::flex_wire::deserialize")]
    #[cfg_attr(feature = "ssr", param(value_type = Option<u8>))]
    pub flex: u8,
    /// The other filters of spec 001 §2 by name (`board`, `accomodationtype`, ...), values
    /// as in the URL.
    pub filters: BTreeMap<String, Vec<String>>,
    /// 0-based page; a page appends to the ones before it.
    pub page: u32,
}

/// One value of a filter with its number of matching offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FacetValue {
    pub value: String,
    pub label: String,
    pub count: u32,
    pub selected: bool,
}

/// A filter with its values (spec 001 §2 "Travel filters"); `category` is `Dates`, `City`
/// or empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Facet {
    pub name: String,
    pub category: String,
    pub values: Vec<FacetValue>,
}

/// A page of offers, the total and the facets of the whole selection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OfferPage {
    pub offers: Vec<TravelOffer>,
    pub total: u32,
    pub page: u32,
    pub page_size: u32,
    pub facets: Vec<Facet>,
    /// The travel sale's name and flags when the query names one.
    pub campaign_name: Option<String>,
    pub with_map: bool,
}

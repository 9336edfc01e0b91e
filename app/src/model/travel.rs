//! Travel wire types (spec 001 §3 "Travel product", "Package", "Configurator", "Calendar
//! days", "Participant", "Travel search selection", "Sale feature flags"). Amounts are in
//! minor units (cents) of the site's currency, dates are `YYYY-MM-DD`. The calendar and map
//! widgets receive the types marked `TS` through ts-rs (`frontend-react/src/generated/`).
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One departure day of a configuration (package, city, duration) in the price calendar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "CalendarDay.ts"))]
#[serde(rename_all = "camelCase")]
pub struct CalendarDay {
    /// Price per person that day, cents.
    pub price: i64,
    /// The crossed-out reference price, cents.
    pub reference_price: i64,
    /// The departure's id (`{durationId}-{YYYYMMDD}`).
    pub id: String,
    /// The duration (package, city, length) this departure belongs to.
    pub vp_entity_id: i64,
    pub is_out_of_stock: bool,
    /// The cheapest bookable day of the calendar.
    pub is_lowest: bool,
}

/// Calendar days keyed by date (`YYYY-MM-DD`), in date order.
pub type CalendarDays = BTreeMap<String, CalendarDay>;

/// A participant profile of the party rules: its type and age window (years, inclusive).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "ParticipantProfile.ts"))]
#[serde(rename_all = "camelCase")]
pub struct ParticipantProfile {
    #[serde(rename = "type")]
    pub kind: ParticipantType,
    pub min_age: u32,
    pub max_age: u32,
    /// The share of an adult's price this profile pays, in percent (an offer's "children
    /// -50 %" is 50). Left out: babies travel free, everyone else pays an adult's price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub price_percent: Option<u32>,
}

impl ParticipantProfile {
    /// Percent of an adult's price: as the offer says, else 0 for babies and 100 for others.
    pub fn share(&self) -> u32 {
        self.price_percent
            .unwrap_or(if self.kind == ParticipantType::Babies {
                0
            } else {
                100
            })
            .min(100)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "ParticipantType.ts"))]
#[serde(rename_all = "lowercase")]
pub enum ParticipantType {
    Adults,
    Children,
    Babies,
}

/// Who may travel together (spec 001 §3, §5). When `min == max` only the head count
/// matters; otherwise `rules` lists the allowed counts, keyed by adults, then children,
/// with the allowed baby counts as the leaf.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "ParticipantRules.ts"))]
#[serde(rename_all = "camelCase")]
pub struct ParticipantRules {
    pub min: u32,
    pub max: u32,
    pub rules: BTreeMap<u32, BTreeMap<u32, Vec<u32>>>,
    pub profiles: Vec<ParticipantProfile>,
}

/// A traveller: type and, for children and babies, the birthday (`YYYY-MM-DD`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "Participant.ts"))]
#[serde(rename_all = "camelCase")]
pub struct Participant {
    #[serde(rename = "type")]
    pub kind: ParticipantType,
    #[cfg_attr(test, ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birthday: Option<String>,
}

/// A stay length from a departure city: its own price (the lowest departure) and id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Duration {
    pub id: i64,
    pub day: u32,
    pub night: u32,
    pub price: i64,
    pub is_out_of_stock: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DepartureCity {
    pub id: i64,
    /// The city code (IATA-like), kept in the `trv_departure_city` cookie.
    pub code: String,
    pub value: String,
    pub price: i64,
    pub reference_price: i64,
    pub is_out_of_stock: bool,
    pub durations: Vec<Duration>,
}

/// An optional extra (transfer, insurance, ...); `min` is how many must be chosen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Benefit {
    pub id: i64,
    pub label: String,
    /// Per person, cents.
    pub price: i64,
    pub min: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Configurator {
    pub departure_cities: Vec<DepartureCity>,
    pub participants: ParticipantRules,
    pub benefits: Vec<Benefit>,
    pub with_benefits: bool,
    pub with_departure_dates: bool,
    pub with_durations: bool,
    pub with_departure_cities: bool,
    pub with_participants: bool,
    pub with_cheapest_toggle: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Package {
    pub id: i64,
    pub title: String,
    pub configurator: Configurator,
    /// Derived: no departure city of the package has a bookable day.
    pub is_out_of_stock: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DefaultConfiguration {
    pub package_id: Option<i64>,
    pub departure_city: Option<String>,
    pub days: Option<u32>,
    pub nights: Option<u32>,
    pub checkin: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PriceText {
    /// "from", shown before the price.
    pub prefix: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TravelPrice {
    pub value: i64,
    /// What the price is for ("per person").
    pub unit: String,
    pub text: PriceText,
    pub retail_value: i64,
    /// The lowest price of the last 30 days (EU Omnibus directive), cents.
    pub retail_price_notice: i64,
    pub payment_facilities: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Tab {
    pub title: String,
    pub content: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TravelProduct {
    pub id: i64,
    pub campaign_id: i64,
    pub campaign_name: String,
    pub title: String,
    pub description: String,
    pub bullet_points: Vec<String>,
    pub is_public: bool,
    pub image: String,
    pub destination: String,
    pub lat: f64,
    pub lng: f64,
    pub price: TravelPrice,
    pub tabs: Vec<Tab>,
    pub benefit: Option<String>,
    pub default_configuration: DefaultConfiguration,
    pub packages: Vec<Package>,
    pub with_quotation_price: bool,
    pub favorite: bool,
}

/// A pin of the map widget and its thumbnail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "MapOffer.ts"))]
#[serde(rename_all = "camelCase")]
pub struct MapOffer {
    pub id: i64,
    pub title: String,
    pub image: String,
    pub href: String,
    pub lat: f64,
    pub lng: f64,
    pub price: MapPrice,
    #[cfg_attr(test, ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benefit: Option<String>,
}

/// A price as the map thumbnail shows it: the formatted value and its unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "MapPrice.ts"))]
pub struct MapPrice {
    pub value: String,
    pub unit: String,
}

/// What the calendar widget sends when a day is chosen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "CalendarSelect.ts"))]
pub struct CalendarSelect {
    /// `YYYY-MM-DD`.
    pub date: String,
}

/// What the map widget sends when a pin is hovered, focused or chosen (`null`: none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "MapHighlight.ts"))]
pub struct MapHighlight {
    pub id: Option<i64>,
}

/// A travel offer in a catalog or in search results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TravelOffer {
    pub id: i64,
    pub campaign_id: i64,
    pub title: String,
    pub destination: String,
    pub image: String,
    pub href: String,
    /// Lowest bookable price per person, cents.
    pub price_from: i64,
    pub retail_value: i64,
    pub nights: u32,
    pub board: String,
    pub rating: u32,
    pub lat: f64,
    pub lng: f64,
    pub benefit: Option<String>,
    pub favorite: bool,
}

/// How many days either side of the check-in a flexible search may depart: the date-change
/// options of spec 000 §9 (+1, +3, +7 days). 0 is exact dates.
pub const FLEX_DAYS: [u8; 3] = [1, 3, 7];

/// `flex` on the wire: a number of days, or the flag older clients send (`true` is 3 days).
pub mod flex_wire {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Flex {
            Flag(bool),
            Days(u64),
        }
        Ok(match Flex::deserialize(d)? {
            Flex::Flag(true) => 3,
            Flex::Flag(false) => 0,
            Flex::Days(n) => u8::try_from(n)
                .ok()
                .filter(|n| super::FLEX_DAYS.contains(n))
                .unwrap_or(0),
        })
    }
}

/// The travel search selection (spec 001 §3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct TravelSearch {
    pub destination_id: Option<String>,
    pub destination_text: String,
    pub destination_tracking: String,
    pub destination_suggestion_type: String,
    pub is_destination_suggested: bool,
    pub departure_city_code: String,
    pub departure_city_text: String,
    pub is_departure_city_suggested: bool,
    pub trip_type_id: String,
    pub checkin: Option<String>,
    pub checkout: Option<String>,
    /// A flexible period, e.g. a month `2026-12`.
    pub dates: Option<String>,
    /// Days either side of the check-in the departure may be (1, 3 or 7; 0 exact dates).
    #[serde(deserialize_with = "flex_wire::deserialize")]
    pub flex: u8,
}

/// A destination suggestion: a country, region, city, or a travel sale by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DestinationSuggestion {
    pub id: String,
    pub label: String,
    /// `country`, `region`, `city` or `sale`.
    #[serde(rename = "type")]
    pub kind: String,
    pub count: u32,
}

/// The widgets' TypeScript types (see `model::dsa`'s twin of this test).
#[cfg(test)]
mod generated_typescript {
    use super::*;

    #[test]
    fn generated_typescript_matches_the_rust_models() {
        let mut stale = Vec::new();
        crate::model::dsa::check_generated::<CalendarDay>(&mut stale);
        crate::model::dsa::check_generated::<ParticipantType>(&mut stale);
        crate::model::dsa::check_generated::<ParticipantProfile>(&mut stale);
        crate::model::dsa::check_generated::<ParticipantRules>(&mut stale);
        crate::model::dsa::check_generated::<Participant>(&mut stale);
        crate::model::dsa::check_generated::<MapOffer>(&mut stale);
        crate::model::dsa::check_generated::<MapPrice>(&mut stale);
        crate::model::dsa::check_generated::<CalendarSelect>(&mut stale);
        crate::model::dsa::check_generated::<MapHighlight>(&mut stale);
        assert!(
            stale.is_empty(),
            "regenerate with UPDATE_GENERATED=1:\n{}",
            stale.join("\n")
        );
    }
}

//! Wire shapes of the communication calls (spec 001 §3, §7: `communicationChannel`,
//! `communicationModel`, `isOptinPerso`, `isOptinPartner`, `memberCommercialPartnerSettings`,
//! `cancelReasonId`, `subscriptionId`, cancel reasons as `datas`).
use serde::{Deserialize, Serialize};

use crate::communications::rules::{Channel, Model};

pub const COMMUNICATIONS_API: &str = "/api/postsales/v1/communications";
pub const BRAND_ALERTS_API: &str = "/api/postsales/v1/brandalerts";

/// PUT `/api/postsales/v1/communications`. Values are read as text so an unknown one is
/// refused with the area's message instead of a parse failure.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct PreferencesRequest {
    /// ALL, MAIL or PUSH (the site's options).
    pub communication_channel: String,
    /// ALL, REGULARLY, FEWER, ONEPERWEEK or NONE (the site's options).
    pub communication_model: String,
}

/// POST `/api/postsales/v1/communications/optins`: either or both; both may be withdrawn.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct OptinsRequest {
    #[serde(rename = "isOptinPerso")]
    pub is_optin_perso: Option<bool>,
    #[serde(rename = "isOptinPartner")]
    pub is_optin_partner: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct PartnerSetting {
    pub id: i64,
    pub status: bool,
}

/// POST `/api/postsales/v1/communications/commercialpartners`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct PartnersRequest {
    #[serde(rename = "memberCommercialPartnerSettings")]
    pub settings: Vec<PartnerSetting>,
}

/// POST `/api/postsales/v1/communications/subscription/cancel`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(default, rename_all = "camelCase")]
pub struct CancelRequest {
    pub cancel_reason_id: i64,
    pub subscription_id: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CancelReason {
    pub id: i64,
    /// In the member's language.
    pub label: String,
}

/// GET `/api/postsales/v1/communications/cancelreasons`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CancelReasons {
    pub datas: Vec<CancelReason>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PartnerState {
    pub id: i64,
    pub name: String,
    /// What sharing with this partner is for, in the member's language.
    pub purpose: String,
    pub status: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct BrandRef {
    pub id: i64,
    pub name: String,
}

/// Brand alert state (spec 001 §3): the brands followed, and those one may follow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct BrandAlerts {
    pub brands: Vec<BrandRef>,
    pub options: Vec<BrandRef>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ChoiceSets {
    pub channels: Vec<Channel>,
    pub models: Vec<Model>,
}

/// GET `/api/postsales/v1/communications` (and the answer of every write).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CommunicationSettings {
    pub communication_channel: Channel,
    pub communication_model: Model,
    /// What this member's site offers.
    pub options: ChoiceSets,
    pub is_optin_perso: bool,
    pub is_optin_partner: bool,
    pub member_commercial_partner_settings: Vec<PartnerState>,
    pub brand_alerts: BrandAlerts,
    /// The newsletter subscription the cancel survey refers to.
    pub subscription_id: Option<i64>,
    /// Set by a PUT that chose NONE while newsletters were on: show the cancel survey.
    pub cancel_survey: bool,
}

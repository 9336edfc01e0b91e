//! The sponsorship page's wire shape (REST `GET /api/members/v1/sponsorship` and the page).
use serde::{Deserialize, Serialize};

/// A member the sponsor brought, as the sponsor may see them: a first name and dates only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SponsoredMember {
    pub first_name: String,
    pub joined_at: i64,
    /// When their first order earned the sponsor a voucher.
    pub rewarded_at: Option<i64>,
}

/// A reward voucher the sponsor holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SponsorReward {
    pub code: String,
    pub value: i64,
    pub valid_until: Option<i64>,
    pub used: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Sponsorship {
    /// The member's personal code (`mgmcode`).
    pub code: String,
    /// The registration address pre-filling `mgmcode` and `godfatherid`.
    pub share_link: String,
    /// What a sponsor earns per sponsored member's first order, in minor units.
    pub reward_value: i64,
    /// The smallest first order that earns it.
    pub reward_min_order: i64,
    pub sponsored: Vec<SponsoredMember>,
    pub rewards: Vec<SponsorReward>,
}

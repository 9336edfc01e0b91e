//! Experiments on the wire (spec 000 §6-§7): the features an experiment switches, what
//! the server decided for the request being rendered (in the request context, so the
//! first HTML and the hydrated page agree), and the A/B variations call's body and answer.
use serde::{Deserialize, Serialize};

/// A feature of spec 000 §6 that an experiment switches in this product.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// Dynamic pricing, as a price display variant: tiles show the saving in money.
    DynamicPricing,
    /// The rose-deal entry of the lateral menu.
    RosedealsMenu,
    /// The favourites entry of the lateral menu.
    FavouritesPage,
}

/// The experiments of one request: every assignment (experiment, variation) and the
/// features the non-control variations switch on. Empty (everything as without
/// experiments) when the visitor has not accepted performance cookies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiments {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assigned: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<Feature>,
}

impl Experiments {
    /// Whether this request's variation switches `feature` on.
    pub fn on(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }

    /// The variation of one experiment, if the request has one.
    pub fn variation(&self, experiment: &str) -> Option<&str> {
        self.assigned
            .iter()
            .find(|(e, _)| e == experiment)
            .map(|(_, v)| v.as_str())
    }
}

/// The A/B variations call's body: the experiments asked about, and for a member the
/// segment (anonymous visitors send none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VariationsRequest {
    pub experiment_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment_id: Option<String>,
}

/// One experiment's variation (`var1_enabled`, `on`, `var2_programmatic`, or the control).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExperimentVariation {
    pub experiment_name: String,
    pub variation: String,
    /// Whether this variation is the experiment's control (today's behaviour).
    pub control: bool,
}

/// The A/B variations call's answer, in the order the names were asked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExperimentVariations {
    pub variations: Vec<ExperimentVariation>,
}

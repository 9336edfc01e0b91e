//! Experiments on the wire (spec 000 §6-§7): the features an experiment switches, what
//! the server decided for the request being rendered (in the request context, so the
//! first HTML and the hydrated page agree), and the A/B variations call's body and answer.
use serde::{Deserialize, Serialize};

/// A feature of spec 000 §6 that an experiment switches in this product.
///
/// Two kinds: a new feature (off for everyone outside its experiment; its variation turns
/// it on) and a launched one (on for everyone outside its experiment; its experiment is a
/// holdback whose small control goes without it). Every experiment's control is the shop
/// without its feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// Dynamic pricing, as a price display variant: tiles show the saving in money.
    DynamicPricing,
    /// The rose-deal entry of the lateral menu.
    RosedealsMenu,
    /// The favourites entry of the lateral menu.
    FavouritesPage,
    /// The last-viewed sections (travel home and travel product page). Launched.
    LastViewed,
    /// The file attachments of the help centre's contact form. Launched.
    ContactFormAttachments,
    /// Sponsored banners: the media-ads banner tiles and the advertising script. Launched.
    SponsoredBanners,
    /// The vouchers page's revamped titles and empty texts (spec 001 §1: revamped versus
    /// classic); the classic ones are today's.
    VouchersRevamp,
    /// The communications page's revamp: a summary of what the member receives, each line
    /// linked to its section, above the sections.
    CommunicationsRevamp,
    /// The account menu's revamp: its entries in three headed groups (purchases, account,
    /// help) instead of one list.
    MenuRevamp,
    /// The burger menu's revamp: the information links in place (a disclosure, not a side
    /// panel) and, for a member, the account's entries in the burger.
    BurgerMenuRevamp,
    /// Addresses through the cities service: the address form offers the city of the zip
    /// code typed. Launched.
    AddressService,
    /// The contact form's automatic answers: a request the help centre can answer at once
    /// gets the answer before a ticket is opened. Launched.
    ContactForm,
    /// The brands place's details: each brand's live sales, linked, under its name.
    BrandsPlaceDetails,
    /// Programmatic (in-app) navigation: a same-site link is followed by the script, which
    /// swaps the page and keeps the islands' state; without it every link is a page load.
    /// Launched.
    ProgrammaticNavigation,
}

impl Feature {
    /// The fourteen switches spec 000 §6 names, in its order but for the four launched.
    pub const ALL: [Feature; 14] = [
        Feature::DynamicPricing,
        Feature::RosedealsMenu,
        Feature::FavouritesPage,
        Feature::LastViewed,
        Feature::ContactFormAttachments,
        Feature::SponsoredBanners,
        Feature::VouchersRevamp,
        Feature::CommunicationsRevamp,
        Feature::MenuRevamp,
        Feature::BurgerMenuRevamp,
        Feature::AddressService,
        Feature::ContactForm,
        Feature::BrandsPlaceDetails,
        Feature::ProgrammaticNavigation,
    ];

    /// What a visitor outside any experiment of the feature gets (no performance consent,
    /// `ROSACE_EXPERIMENTS=off`, or experiments that could not be read): launched features
    /// on, new ones off.
    pub const fn launched(self) -> bool {
        matches!(
            self,
            Feature::LastViewed
                | Feature::ContactFormAttachments
                | Feature::SponsoredBanners
                | Feature::AddressService
                | Feature::ContactForm
                | Feature::ProgrammaticNavigation
        )
    }

    /// Whether the feature may show on the page at `path` when the shop renders it once for
    /// many (the visitors' page cache, the members' templates). One that cannot (the
    /// vouchers page is a member's own, rendered per request; the brands place's details
    /// are on that page only) stays out of the page's cache key, so its experiment does not
    /// halve the page's hit rate.
    pub fn shown_on(self, path: &str) -> bool {
        match self {
            Feature::VouchersRevamp
            | Feature::CommunicationsRevamp
            | Feature::AddressService
            | Feature::ContactForm => false,
            Feature::BrandsPlaceDetails => {
                matches!(
                    path.trim_end_matches('/'),
                    "/brandsplace" | "/gr/brandsplace"
                )
            }
            _ => true,
        }
    }
}

/// The experiments of one request: every assignment (experiment, variation) and the
/// features its variations turn away from their default (`Feature::launched`): a new
/// feature a variation switches on, a launched one its holdback control goes without.
/// Empty (the default) is the state outside any experiment: the visitor has not accepted
/// performance cookies, experiments are off, or they could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiments {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assigned: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switched: Vec<Feature>,
}

impl Experiments {
    /// The state of a visitor outside any experiment (every feature at its default).
    pub fn outside() -> Experiments {
        Experiments::default()
    }

    /// Whether this request shows `feature`: its default, unless a variation switched it.
    pub fn on(&self, feature: Feature) -> bool {
        feature.launched() != self.switched.contains(&feature)
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

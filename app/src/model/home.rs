//! Home wire types (spec 000 §2 "Home page", §3 "Home", §7 homes by id or name).
use serde::{Deserialize, Serialize};

use crate::model::catalog::SaleCard;

/// A home: its modules in display order, each with its banners.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Home {
    pub id: i64,
    /// DEFAULT, TRAVEL, DEAL…
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub display_name: String,
    pub is_reduced: bool,
    /// The day the home is previewed for (`YYYY-MM-DD`), when it is.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub preview_date: Option<String>,
    /// The theme the home asks for (spec 000 §3, §9): `recycle`, `bw`, or empty for its
    /// site's brand.
    #[serde(default)]
    pub theme: String,
    /// A line of information at the top of the home (a delivery delay, say), which a
    /// visitor can close for the rest of their visit.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub information_section_toast: Option<String>,
    /// What a member who joined less than a week ago is shown once over the home.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub new_member_overlay: Option<NewMemberOverlay>,
    /// The page background the home asks for: `sand`, `blush`, `mint`, or empty for none.
    #[serde(default)]
    pub background_theme: String,
    /// A line for signed-in members under the home's title, after their first name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub member_information: Option<String>,
    /// Whether the home reports its furthest scroll position when left (spec 000 §4
    /// "Scroll tracking"; the scroll-depth setting).
    #[serde(default = "yes")]
    pub scroll_depth: bool,
    pub modules: Vec<HomeModule>,
}

fn yes() -> bool {
    true
}

/// The new member's overlay of a home.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NewMemberOverlay {
    pub title: String,
    pub text: String,
}

/// Module kinds: group, highlight, sectionBanner, subNavigationCategory, universe, text,
/// deal, pedagogical.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HomeModule {
    pub id: i64,
    pub kind: String,
    pub name: String,
    pub title: String,
    #[serde(flatten)]
    pub settings: ModuleSettings,
    pub banners: Vec<Banner>,
    /// A group module fed by the site's live sales (`source: "liveSales"`): those sales.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sales: Vec<SaleCard>,
}

/// What a module's `settings` column may hold; unknown keys are ignored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ModuleSettings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// Body text of a text module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Pedagogical module: colour of the texts on the web (`#FFFFFF` gives transparent buttons).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_text_color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary_button: Option<CallToAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_button: Option<CallToAction>,
    /// Pedagogical highlights: two per page instead of four.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub two_per_page: bool,
    /// `liveSales`: a group module listing every live sale of the site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The theme the module asks for (spec 000 §9): `recycle` or `bw`; none: its home's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallToAction {
    pub label: String,
    pub link: String,
}

/// Banner kinds: HighlightBanner, CampaignBanner, UniverseBanner, ProductBanner, SaleBanner,
/// SplittedBanner, DealBanner, MediaAdsBanner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Banner {
    pub id: i64,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sale_id: Option<i64>,
    pub title: String,
    pub image_url: String,
    pub mobile_image_url: String,
    pub link: String,
    /// M, XL, XXL or MEGAFAT.
    pub tile_size: String,
    /// 1x1, 1x2 (tall), 2x1 (wide) or 2x2.
    pub layout: String,
    /// Unix seconds: end of the banner's sale.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub end_date: Option<i64>,
    /// A media-ads banner's advertising type, `PUBLICITY` or `SPONSORED` (spec 000); none
    /// for the other kinds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub advertising_type: Option<String>,
}

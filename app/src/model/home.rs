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
    pub modules: Vec<HomeModule>,
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
}

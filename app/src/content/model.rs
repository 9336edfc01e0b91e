//! Wire types of the content calls: the footer (sections of links) and a landing page
//! (seoConfig, content blocks and its selection).
use serde::{Deserialize, Serialize};

use crate::model::catalog_api::CatalogItem;

pub use crate::routes::GIFTS_KEY;

/// `GET /api/content/v1/footer`: the footer's sections, in display order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Footer {
    pub site_id: u16,
    pub sections: Vec<FooterSection>,
    /// The legal line under the links (`© 2026 Rosace`).
    pub copyright: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FooterSection {
    /// `shop`, `inspirations`, `account`, `help`, `legal`.
    pub id: String,
    pub title: String,
    pub links: Vec<FooterLink>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FooterLink {
    pub id: String,
    pub label: String,
    /// A same-site path.
    pub href: String,
    /// Shown to signed-in members only (their pages are members-only).
    pub logged_in: bool,
}

pub use crate::model::catalog_api::SeoConfig;

/// A content block of a landing page: a heading and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ContentBlock {
    pub heading: String,
    pub text: String,
}

/// A live sale in a landing page's selection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LandingSale {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// The sale's catalog: the open-door SEO catalog `/c/{slug}/{id}/{universe}`.
    pub url: String,
    pub image_url: String,
    pub ends_at: i64,
}

/// `GET /api/content/v1/landings/{slug}` and the `/l/{slug}` page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Landing {
    pub slug: String,
    pub heading: String,
    pub seo_config: SeoConfig,
    pub blocks: Vec<ContentBlock>,
    /// `sales` (live sales, optionally of one offer type) or `brand` (a brand's items).
    pub selection_kind: String,
    pub sales: Vec<LandingSale>,
    /// The brand's name when the selection is a brand's items.
    pub brand: Option<String>,
    pub products: Vec<CatalogItem>,
    /// The same landing page on the brand's sites (this one included), each at its own
    /// slug: the page's hreflang alternates. Only translations that exist are listed.
    pub translations: Vec<LandingTranslation>,
}

/// A translation of a landing page: the site that has it and its slug there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LandingTranslation {
    pub site_id: u16,
    pub slug: String,
}

/// A landing page as the footer and the sitemap list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LandingLink {
    pub slug: String,
    pub heading: String,
}

//! The header's wire types (`GET /api/content/v1/header`, `GET /api/content/v1/homes/headers`).
//! The header's page module reads `HeaderContent` through its generated TypeScript type.
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HeaderLink.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HeaderLink {
    pub label: String,
    pub href: String,
}

/// A live sale in a category's sales list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HeaderSale.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HeaderSale {
    pub id: i64,
    pub name: String,
    pub href: String,
    pub logo_url: String,
}

/// A header category: at most 5 items and 4 sales.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HeaderCategory.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HeaderCategory {
    pub label: String,
    pub href: String,
    pub items: Vec<HeaderLink>,
    pub sales: Vec<HeaderSale>,
}

/// A home of the site as a header tab, with at most 7 of its modules (`?part=`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HomeHeader.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HomeHeader {
    pub id: i64,
    pub name: String,
    pub label: String,
    /// `DEFAULT` or `TRAVEL`.
    #[serde(rename = "type")]
    pub kind: String,
    pub href: String,
    /// The header is transparent over this home (at the top of the page): the home's hero
    /// band is dark enough for its white text.
    pub transparent: bool,
    /// The hero band's colour (`#rrggbb`) when `transparent`, else empty.
    pub hero_color: String,
    pub modules: Vec<HeaderLink>,
}

/// One of the newest messages of the member's message centre.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HeaderMessage.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HeaderMessage {
    pub id: i64,
    pub label: String,
    pub href: String,
    pub read: bool,
    pub created_at: i64,
}

/// Everything the header shows for a site, a member and a page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "HeaderContent.ts"))]
#[serde(rename_all = "camelCase")]
pub struct HeaderContent {
    pub site_id: u16,
    pub member_id: Option<i64>,
    pub home_tabs: Vec<HomeHeader>,
    pub categories: Vec<HeaderCategory>,
    pub unread_count: i64,
    /// The 3 newest messages (members only).
    pub messages: Vec<HeaderMessage>,
}

/// The menu config call's answer (`/api/content/v1/menu/10`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MenuConfig {
    pub id: u32,
    pub switches: MenuSwitches,
    /// The lateral menu for this visitor (loggedIn items only for members).
    pub items: Vec<MenuItem>,
    /// The account menu's sections (members only; empty for a visitor).
    pub account: Vec<MenuItem>,
}

/// How a menu link opens (spec 001 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub enum LinkKind {
    Default,
    Blank,
    Modal,
    DeepLink,
}

/// One entry of the lateral menu, the account menu or a side panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MenuItem {
    /// The spec's name of the entry (`account`, `address-book`, ...).
    pub id: String,
    /// Translation key of its label.
    pub label_key: String,
    pub href: String,
    pub logged_in: bool,
    pub kind: LinkKind,
    /// The offers item clears the stored member session (the header cache) on click.
    pub clears_session: bool,
    /// Legal sub-sections, shown in a side panel.
    #[cfg_attr(feature = "ssr", schema(no_recursion))]
    pub children: Vec<MenuItem>,
}

/// Per-site switches of the menu config call (`/api/content/v1/menu/10`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MenuSwitches {
    pub sponsorship_active: bool,
    pub about_us_active: bool,
    /// The rose-deal entry (experiment `member_rosedeals_menu`; off: today's menu).
    #[serde(default)]
    pub rosedeals_entry: bool,
    /// The favourites entry (experiment `member_favourites_page`; off: today's menu).
    #[serde(default)]
    pub favourites_entry: bool,
}

impl Default for MenuSwitches {
    fn default() -> Self {
        MenuSwitches {
            sponsorship_active: true,
            about_us_active: true,
            rosedeals_entry: false,
            favourites_entry: false,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_typescript_matches_the_rust_models() {
        let mut stale = Vec::new();
        use crate::model::dsa::check_generated;
        check_generated::<super::HeaderLink>(&mut stale);
        check_generated::<super::HeaderSale>(&mut stale);
        check_generated::<super::HeaderCategory>(&mut stale);
        check_generated::<super::HomeHeader>(&mut stale);
        check_generated::<super::HeaderMessage>(&mut stale);
        check_generated::<super::HeaderContent>(&mut stale);
        assert!(
            stale.is_empty(),
            "regenerate with UPDATE_GENERATED=1:\n{}",
            stale.join("\n")
        );
    }
}

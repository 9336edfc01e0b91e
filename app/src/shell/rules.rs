//! The shell's pure rules (spec 000 §9, 001 §2): the header limits, the header categories
//! built from the live sales, the header cache's staleness, the lateral menu and the
//! account menu. No I/O; compiled for both targets. `public/js/header.js` carries the
//! cache rule's JavaScript twin, checked against `app/tests/vectors/header_cache.json`.
use serde::{Deserialize, Serialize};

use super::model::{HeaderCategory, HeaderLink, HeaderSale};

/// Header limits (spec 000 §9).
pub const MAX_CATEGORIES: usize = 8;
pub const MAX_CATEGORY_ITEMS: usize = 5;
pub const MAX_SALES_ITEMS: usize = 4;
pub const MAX_HOME_MODULES: usize = 7;

/// The header cache is stale after 15 minutes (spec 000 §9).
pub const CACHE_MAX_AGE_MS: i64 = 15 * 60 * 1000;
/// Sales open at these local hours: a cache saved before one of them is stale after it.
pub const SALE_HOURS: [i64; 4] = [7, 9, 12, 19];

/// What a header cache record was saved for, and what the page now is (spec 001 §3
/// "Cache record: data, siteId, memberId, path, date"). `date` is the local wall-clock
/// time in milliseconds (epoch milliseconds shifted by the time-zone offset).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheKey {
    pub site_id: u16,
    pub member_id: Option<i64>,
    pub path: String,
    pub date: i64,
}

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
const HOUR_MS: i64 = 60 * 60 * 1000;

/// Stale when older than 15 minutes (or from the future), when the member, the site or the
/// path changed, or when one of the sale hours (7, 9, 12, 19) passed since it was saved.
pub fn is_stale(saved: &CacheKey, now: &CacheKey) -> bool {
    let age = now.date - saved.date;
    if !(0..CACHE_MAX_AGE_MS).contains(&age) {
        return true;
    }
    if saved.site_id != now.site_id || saved.member_id != now.member_id || saved.path != now.path {
        return true;
    }
    // Less than 15 minutes apart: at most one day boundary between them.
    let day = now.date.div_euclid(DAY_MS) * DAY_MS;
    SALE_HOURS.iter().any(|h| {
        [day + h * HOUR_MS, day - DAY_MS + h * HOUR_MS]
            .iter()
            .any(|edge| saved.date < *edge && *edge <= now.date)
    })
}

/// The category of a sale, from its name `Brand · Category`; the whole name otherwise.
pub fn category_of(sale_name: &str) -> &str {
    sale_name
        .rsplit_once(" · ")
        .map(|(_, c)| c.trim())
        .filter(|c| !c.is_empty())
        .unwrap_or(sale_name.trim())
}

/// A live sale as the header sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSale {
    pub id: i64,
    pub name: String,
    pub first_universe_id: i64,
}

/// A top-level universe of a live sale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaleUniverse {
    pub sale_id: i64,
    pub id: i64,
    pub title: String,
}

pub fn sale_href(sale_id: i64, universe_id: i64) -> String {
    format!("/catalog/{sale_id}/{universe_id}")
}

/// Header categories from the live sales (in display order): one category per distinct
/// category name, its items the distinct universe titles of its sales, its sales list the
/// sales themselves; cut to 8 categories, 5 items and 4 sales.
pub fn header_categories(sales: &[LiveSale], universes: &[SaleUniverse]) -> Vec<HeaderCategory> {
    let mut out: Vec<HeaderCategory> = Vec::new();
    for sale in sales {
        let label = category_of(&sale.name).to_string();
        let idx = match out.iter().position(|c| c.label == label) {
            Some(i) => i,
            None => {
                if out.len() == MAX_CATEGORIES {
                    continue;
                }
                out.push(HeaderCategory {
                    label,
                    href: sale_href(sale.id, sale.first_universe_id),
                    items: Vec::new(),
                    sales: Vec::new(),
                });
                out.len() - 1
            }
        };
        let cat = &mut out[idx];
        if cat.sales.len() < MAX_SALES_ITEMS {
            cat.sales.push(HeaderSale {
                id: sale.id,
                name: sale.name.clone(),
                href: sale_href(sale.id, sale.first_universe_id),
                logo_url: format!("/img/sale/{}/logo.svg", sale.id),
            });
        }
        for u in universes.iter().filter(|u| u.sale_id == sale.id) {
            if cat.items.len() < MAX_CATEGORY_ITEMS && !cat.items.iter().any(|i| i.label == u.title)
            {
                cat.items.push(HeaderLink {
                    label: u.title.clone(),
                    href: sale_href(sale.id, u.id),
                });
            }
        }
    }
    out
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

fn item(id: &str, label_key: &str, href: &str, logged_in: bool, kind: LinkKind) -> MenuItem {
    MenuItem {
        id: id.into(),
        label_key: label_key.into(),
        href: href.into(),
        logged_in,
        kind,
        clears_session: false,
        children: Vec::new(),
    }
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

/// The menu config id the config call ends with (spec 001 §7).
pub const MENU_CONFIG_ID: u32 = 10;

/// The lateral menu's full item list for a site. Spec items without a page in the product
/// (club/forum, gifts, mobile apps, news) are left out: no entry leads to a dead end.
pub fn lateral_menu_items(switches: MenuSwitches) -> Vec<MenuItem> {
    use LinkKind::*;
    let mut legal = Vec::new();
    if switches.about_us_active {
        legal.push(item(
            "aboutus",
            "menu.aboutus",
            "/gr/aboutus",
            false,
            Default,
        ));
    }
    legal.push(item(
        "privacy-policy",
        "page.privacypolicy",
        "/registration/privacypolicy",
        false,
        Default,
    ));
    legal.push(item(
        "general-conditions",
        "shell.menu.general_conditions",
        "/registration/generalconditions",
        false,
        Default,
    ));
    let mut items = vec![
        item("home", "menu.home", "/", false, Default),
        item("account", "menu.account", "/gr/myaccount", true, Default),
        item("orders", "menu.orders", "/gr/my-orders", true, Default),
    ];
    if switches.favourites_entry {
        items.push(item(
            "favourites",
            "menu.favourites",
            "/postsales/favourites",
            true,
            Default,
        ));
    }
    if switches.rosedeals_entry {
        items.push(item(
            "rosedeals",
            "menu.rosedeals",
            "/rosedeals",
            true,
            Default,
        ));
    }
    items.extend([
        item(
            "alerts",
            "shell.menu.alerts",
            "/memberaccount/communications",
            true,
            Default,
        ),
        MenuItem {
            clears_session: true,
            ..item(
                "offers",
                "shell.menu.offers",
                "/vouchers-promotions",
                true,
                Default,
            )
        },
        item("help", "menu.help", "/helpform", true, Default),
    ]);
    if switches.sponsorship_active {
        items.push(item(
            "sponsorship",
            "menu.sponsorship",
            "/gr/sponsorship",
            true,
            Default,
        ));
    }
    items.push(MenuItem {
        children: legal,
        ..item(
            "information",
            "shell.menu.information",
            "#menu-legal",
            false,
            Modal,
        )
    });
    items.push(item(
        "disconnect",
        "menu.logout",
        "/authentication/logout/",
        true,
        Default,
    ));
    items
}

/// Items flagged loggedIn are hidden in open-door mode (a visitor).
pub fn visible(items: Vec<MenuItem>, member: bool) -> Vec<MenuItem> {
    items
        .into_iter()
        .filter(|i| member || !i.logged_in)
        .map(|mut i| {
            i.children = visible(std::mem::take(&mut i.children), member);
            i
        })
        .collect()
}

/// The account menu's sections that the product has (spec 001 §2), in menu order.
/// Left out, having no page of their own: life2-favourites, mes-evaluations, messages,
/// mon-dressing, payment-methods (the wallet holds them), transactions, subscriptions, club.
pub fn account_sections() -> Vec<MenuItem> {
    use LinkKind::*;
    vec![
        item("my-account", "menu.account", "/gr/myaccount", true, Default),
        item("my-orders", "menu.orders", "/gr/my-orders", true, Default),
        item(
            "message-center",
            "header.messages",
            "/gr/my-notifications/",
            true,
            Default,
        ),
        item(
            "personal-data",
            "shell.account.personal_data",
            "/myaccount/memberdata",
            true,
            Default,
        ),
        item(
            "address-book",
            "shell.account.address_book",
            "/postsales/myaccount/addresses/",
            true,
            Default,
        ),
        item(
            "wallet",
            "shell.account.wallet",
            "/postsales/myaccount/wallet/",
            true,
            Default,
        ),
        item(
            "favourites",
            "menu.favourites",
            "/postsales/favourites",
            true,
            Default,
        ),
        item(
            "vouchers-promos",
            "menu.vouchers",
            "/vouchers-promotions",
            true,
            Default,
        ),
        item(
            "notifications-alerts",
            "shell.menu.alerts",
            "/memberaccount/communications",
            true,
            Default,
        ),
        item("rose-deal", "menu.rosedeals", "/rosedeals", true, Default),
        item(
            "premium",
            "shell.account.premium",
            "/checkout/loyalty",
            true,
            Default,
        ),
        item(
            "member-get-member",
            "menu.sponsorship",
            "/gr/sponsorship",
            true,
            Default,
        ),
        item(
            "brands",
            "shell.account.brands",
            "/brandsplace",
            false,
            Default,
        ),
        item("help", "menu.help", "/helpform", true, Default),
        item(
            "general-conditions",
            "shell.menu.general_conditions",
            "/registration/generalconditions",
            false,
            Blank,
        ),
        item("menu", "shell.account.menu", "/menu", false, Default),
    ]
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;

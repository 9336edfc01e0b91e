//! The shell's pure rules (spec 000 §9, 001 §2): the header limits, the header categories
//! built from the live sales, the header cache's staleness, the lateral menu and the
//! account menu. No I/O; compiled for both targets. `frontend-react/src/pages/header-cache.ts` carries the
//! cache rule's JavaScript twin, checked against `app/tests/vectors/header_cache.json`.
use serde::{Deserialize, Serialize};

use super::model::{HeaderCategory, HeaderLink, HeaderSale};
pub use super::model::{LinkKind, MenuItem, MenuSwitches};

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
    /// The sale's SEO slug, for the open-door links a visitor gets.
    pub seo_slug: String,
    /// The sale's logo (uploaded, or the shop's drawing).
    pub logo_url: String,
}

/// A top-level universe of a live sale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaleUniverse {
    pub sale_id: i64,
    pub id: i64,
    pub title: String,
}

/// Who the header's links are for: a member gets the members' catalog, a visitor (open
/// door) the SEO catalog `/c/{slug}/...` that needs no sign-in (spec 000 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Member,
    Visitor,
}

pub fn sale_href(sale_id: i64, universe_id: i64) -> String {
    format!("/catalog/{sale_id}/{universe_id}")
}

/// The catalog link of a sale's universe for `audience`; a sale without a slug keeps the
/// members' link (the sign-in wall) rather than an invented one.
pub fn catalog_href(audience: Audience, sale: &LiveSale, universe_id: i64) -> String {
    match audience {
        Audience::Visitor if !sale.seo_slug.trim().is_empty() => {
            format!("/c/{}/{}/{universe_id}", sale.seo_slug.trim(), sale.id)
        }
        _ => sale_href(sale.id, universe_id),
    }
}

/// Header categories from the live sales (in display order): one category per distinct
/// category name, its items the distinct universe titles of its sales, its sales list the
/// sales themselves; cut to 8 categories, 5 items and 4 sales. Links as `audience` may
/// follow them ([`catalog_href`]).
pub fn header_categories(
    sales: &[LiveSale],
    universes: &[SaleUniverse],
    audience: Audience,
) -> Vec<HeaderCategory> {
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
                    href: catalog_href(audience, sale, sale.first_universe_id),
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
                href: catalog_href(audience, sale, sale.first_universe_id),
                logo_url: sale.logo_url.clone(),
            });
        }
        for u in universes.iter().filter(|u| u.sale_id == sale.id) {
            if cat.items.len() < MAX_CATEGORY_ITEMS && !cat.items.iter().any(|i| i.label == u.title)
            {
                cat.items.push(HeaderLink {
                    label: u.title.clone(),
                    href: catalog_href(audience, sale, u.id),
                });
            }
        }
    }
    out
}

/// A module of a home, as the header lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HomeModule {
    /// The module's internal name: the `?part=` key, never shown to a visitor.
    pub name: String,
    pub title: String,
    /// A group module fed by the site's live sales (`source: "liveSales"`).
    pub live_sales: bool,
}

/// The heading the home page gives an untitled live-sales module (`home::ui::modules`),
/// which the header names it by too.
pub const LIVE_SALES_LABEL_KEY: &str = "home.sales.title";

/// The translation key naming a module in the header when it has no title of its own:
/// the live-sales grid is named as the home page heads it ("Ventes en cours"); any other
/// untitled module has no heading on the home page (a text block, a banner strip), so no
/// name a visitor would recognise, and the header leaves it out.
pub fn untitled_module_label_key(m: &HomeModule) -> Option<&'static str> {
    m.live_sales.then_some(LIVE_SALES_LABEL_KEY)
}

/// The header links of a home's modules (spec 000 §9: at most 7), in the home's order:
/// `{home_path}?part={module}`, labelled by the module's title, else by the translated
/// label of [`untitled_module_label_key`] (`t` translates a key into the site's
/// language); an untitled module without such a label is left out. The internal name is
/// never a label.
pub fn home_module_links(
    home_path: &str,
    modules: &[HomeModule],
    t: impl Fn(&str) -> String,
) -> Vec<HeaderLink> {
    modules
        .iter()
        .filter_map(|m| {
            let label = match m.title.trim() {
                "" => t(untitled_module_label_key(m)?),
                title => title.to_string(),
            };
            Some(HeaderLink {
                label,
                href: format!("{home_path}?part={}", m.name),
            })
        })
        .take(MAX_HOME_MODULES)
        .collect()
}

/// Where a home's header tab leads `audience`, or `None` when the home has no page this
/// audience may open (the tab is then left out). The default home is the home page; the
/// travel home is `/home/travel` for members and its open-door twin `/voyages` for
/// visitors (`routes::open_door_twin`); any other home is `/gr/home/{name}`, kept for a
/// visitor only when that page is open to them or has a twin (a members-only home, such as
/// the rose deals', would only show the sign-in page).
pub fn home_tab_href(audience: Audience, name: &str, kind: &str) -> Option<String> {
    use crate::routes::{open_door_twin, resolve, Access};
    let href = match (name, kind) {
        ("default", _) => return Some("/".into()),
        (_, "TRAVEL") => "/home/travel".to_string(),
        _ => format!("/gr/home/{name}"),
    };
    let route = resolve(&href)?;
    match (audience, route.access()) {
        (Audience::Visitor, Access::MembersOnly) => open_door_twin(&route).map(String::from),
        _ => Some(href),
    }
}

/// The header is transparent over a home only when the home names the colour of its hero
/// band (`homes.header_hero`) and that colour is dark enough for the header's white text
/// and icons (contrast with white at least 4.5:1, WCAG AA). Any other value (empty, not a
/// `#rgb`/`#rrggbb` colour, too light) keeps the header solid. Returns the colour, lower
/// case, six digits.
pub fn transparent_hero(color: &str) -> Option<String> {
    let hex = color.trim().strip_prefix('#')?;
    let full: String = match hex.len() {
        3 => hex.chars().flat_map(|c| [c, c]).collect(),
        6 => hex.to_string(),
        _ => return None,
    };
    if !full.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |i: usize| {
        let v = f64::from(u8::from_str_radix(&full[i..i + 2], 16).unwrap_or(0)) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
    let contrast_with_white = 1.05 / (luminance + 0.05);
    (contrast_with_white >= 4.5).then(|| format!("#{}", full.to_ascii_lowercase()))
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

/// The sites whose sponsorship programme is not running: the Violeta brand's Italian
/// shop (site 69) has no member-get-member reward, so neither its lateral menu nor its
/// account menu offers sponsorship there. Every site runs the about-us page today; a site
/// listed here would lose the who-we-are link.
pub const SPONSORSHIP_OFF_SITES: [u16; 1] = [69];
pub const ABOUT_US_OFF_SITES: [u16; 0] = [];

/// The menu switches of a site for a request: the site's settings (sponsorship and
/// who-we-are only where active) and the experiments' entries (rose deals, favourites).
/// One function for the menu config call and the menus drawn on the page, so both agree.
pub fn menu_switches(
    site_id: u16,
    experiments: &crate::model::experiments::Experiments,
) -> MenuSwitches {
    use crate::model::experiments::Feature;
    MenuSwitches {
        sponsorship_active: !SPONSORSHIP_OFF_SITES.contains(&site_id),
        about_us_active: !ABOUT_US_OFF_SITES.contains(&site_id),
        rosedeals_entry: experiments.on(Feature::RosedealsMenu),
        favourites_entry: experiments.on(Feature::FavouritesPage),
    }
}

/// The store pages of the shop's apps (demo identifiers; one app per brand, the same on
/// every site of it). The mobile-apps entry leads to `/menu#apps`, which links them.
pub fn app_store_links(brand: crate::site::Brand) -> [(&'static str, &'static str); 2] {
    match brand {
        crate::site::Brand::Violeta => [
            (
                "App Store",
                "https://apps.apple.com/app/violeta/id6450000002",
            ),
            (
                "Google Play",
                "https://play.google.com/store/apps/details?id=shop.violeta.app",
            ),
        ],
        _ => [
            (
                "App Store",
                "https://apps.apple.com/app/rosace/id6450000001",
            ),
            (
                "Google Play",
                "https://play.google.com/store/apps/details?id=shop.rosace.app",
            ),
        ],
    }
}

/// The menu config id the config call ends with (spec 001 §7).
pub const MENU_CONFIG_ID: u32 = 10;

/// The lateral menu's full item list for a site. `news` leads to the default home's
/// highlights of the day (its newest sales), `mobile-apps` to the apps section of the menu
/// page, `gifts` to the site's gift ideas landing page (`/gr/gifts` redirects to it). Spec
/// items without a page in the product are left out, so no entry leads to a dead end:
/// club/forum (the shop has no member community or forum).
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
        item("gifts", "shell.menu.gifts", "/gr/gifts", false, Default),
        item("news", "shell.menu.news", NEWS_HREF, false, Default),
        item(
            "mobile-apps",
            "shell.menu.apps",
            "/menu#apps",
            false,
            Default,
        ),
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

/// The news entry: the default home's "highlights of the day" module (every site's
/// default home has it), its newest sales.
pub const NEWS_HREF: &str = "/gr/home/default?part=highlights";

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

/// The account menu's sections that the product has (spec 001 §2), in menu order, for a
/// site's switches (member-get-member only where sponsorship is active). Payment methods
/// are the saved cards of the wallet page (`#cards-title`), subscriptions the newsletters
/// of the communications page (`#newsletters-title`); the message centre is the member's
/// messages (order news and help tickets). Hidden because the shop has no such offer
/// (docs/spec-gaps.md M20): life2-favourites, mon-dressing, transactions, mes-evaluations
/// and the sellers' messages belong to member-to-member second-hand selling, where members
/// list their own clothes, sell them to each other and rate each other; club to a member
/// forum (M6). The shop sells its partners' stock only.
pub fn account_sections(switches: MenuSwitches) -> Vec<MenuItem> {
    use LinkKind::*;
    let mut sections = vec![
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
            "payment-methods",
            "shell.account.payment_methods",
            "/postsales/myaccount/wallet/#cards-title",
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
        item(
            "subscriptions",
            "shell.account.subscriptions",
            "/memberaccount/communications#newsletters-title",
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
    ];
    if !switches.sponsorship_active {
        sections.retain(|s| s.id != "member-get-member");
    }
    sections
}

/// The revamped account menu's groups (`member_menu_revamp`), in their order: the label key
/// and the sections of each. A section no group names goes to the last, so a new section
/// never drops out of the menu.
pub fn account_groups(sections: Vec<MenuItem>) -> Vec<(&'static str, Vec<MenuItem>)> {
    const PURCHASES: [&str; 7] = [
        "my-orders",
        "favourites",
        "vouchers-promos",
        "rose-deal",
        "premium",
        "wallet",
        "payment-methods",
    ];
    const ACCOUNT: [&str; 7] = [
        "my-account",
        "personal-data",
        "address-book",
        "message-center",
        "notifications-alerts",
        "subscriptions",
        "member-get-member",
    ];
    let mut groups = [
        ("shell.account.group.purchases", Vec::new()),
        ("shell.account.group.account", Vec::new()),
        ("shell.account.group.more", Vec::new()),
    ];
    for s in sections {
        let at = if PURCHASES.contains(&s.id.as_str()) {
            0
        } else if ACCOUNT.contains(&s.id.as_str()) {
            1
        } else {
            2
        };
        groups[at].1.push(s);
    }
    groups.into_iter().filter(|(_, g)| !g.is_empty()).collect()
}

/// The path of a menu target, without its query or fragment (what the route table sees).
pub fn target_path(href: &str) -> &str {
    href.split(['?', '#']).next().unwrap_or(href)
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;

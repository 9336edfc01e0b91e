//! The whole route table (spec 000 §2, 001 §2) in one place.
//!
//! The server uses it to apply access rules before any page renders; the app uses it to
//! pick the page to show. Pure code: compiled for both targets and unit-tested.
// Over 400 lines: 130 of them are tests; the route table stays whole, in one place.
use serde::{Deserialize, Serialize};

/// The translation key of the gift ideas landing page: the lateral menu's gifts entry,
/// `/gr/gifts`, leads to the site's page with this key.
pub const GIFTS_KEY: &str = "gifts";

/// The site base prefix (spec 000 §2).
pub const SITE_BASE: &str = "/gr";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PageKind {
    AboutUs,
    Authentication,
    Portal,
    Registration,
    PrivacyPolicy,
    GeneralConditions,
    Home,
    Landing,
    BrandsPlace,
    Catalog,
    Product,
    Brand,
    Search,
    Sponsorship,
    Cart,
    Logout,
    Operation,
    /// An operation's own selection of products across sales (members).
    OperationSelection,
    MyAccount,
    PersonalData,
    MyOrders,
    OrderDetails,
    MyNotifications,
    VouchersPromos,
    HelpForm,
    MobileMenu,
    Communications,
    PostSales,
    ContactSelector,
    Favourites,
    Addresses,
    Wallet,
    PostSalesError,
    Chat,
    Loyalty,
    Deals,
    Travel,
    TravelSearch,
    TravelResults,
    TravelCatalog,
    TravelProduct,
    TravelCheckout,
    TravelError,
    /// The SEO variant "sales": every live sale, open-door.
    Sales,
    /// The SEO variant "navigation": the header's categories as a page, open-door.
    Navigation,
}

impl PageKind {
    /// Translation key of the page's name (titles, placeholders, breadcrumbs).
    pub fn title_key(self) -> &'static str {
        use PageKind::*;
        match self {
            AboutUs => "page.aboutus",
            Authentication => "page.authentication",
            Portal => "page.portal",
            Registration => "page.registration",
            PrivacyPolicy => "page.privacypolicy",
            GeneralConditions => "page.generalconditions",
            Home => "page.home",
            Landing => "page.landing",
            BrandsPlace => "page.brandsplace",
            Catalog => "page.catalog",
            Product => "page.product",
            Brand => "page.brand",
            Search => "page.search",
            Sponsorship => "page.sponsorship",
            Cart => "page.cart",
            Logout => "page.logout",
            Operation => "page.operation",
            OperationSelection => "page.operationselection",
            MyAccount => "page.myaccount",
            PersonalData => "page.personaldata",
            MyOrders => "page.myorders",
            OrderDetails => "page.orderdetails",
            MyNotifications => "page.mynotifications",
            VouchersPromos => "page.vouchers",
            HelpForm => "page.helpform",
            MobileMenu => "page.menu",
            Communications => "page.communications",
            PostSales => "page.postsales",
            ContactSelector => "page.contactselector",
            Favourites => "page.favourites",
            Addresses => "page.addresses",
            Wallet => "page.wallet",
            PostSalesError => "page.postsaleserror",
            Chat => "page.chat",
            Loyalty => "page.loyalty",
            Deals => "page.deals",
            Travel => "page.travel",
            TravelSearch => "page.travelsearch",
            TravelResults => "page.travelresults",
            TravelCatalog => "page.travelcatalog",
            TravelProduct => "page.travelproduct",
            TravelCheckout => "page.travelcheckout",
            TravelError => "page.travelerror",
            Sales => "page.sales",
            Navigation => "page.navigation",
        }
    }

    /// Crawlable pages (spec 000 §2): served to anyone and listed in the sitemap.
    pub fn is_crawlable(self) -> bool {
        use PageKind::*;
        matches!(
            self,
            Home | AboutUs
                | Registration
                | Portal
                | Authentication
                | PrivacyPolicy
                | GeneralConditions
        )
    }

    /// Sign-in pages use the simplified header (logo only).
    pub fn simplified_header(self) -> bool {
        use PageKind::*;
        matches!(self, Authentication | Portal | Registration | PrivacyPolicy)
    }
}

/// Who may see a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Access {
    /// Crawlable: complete HTML for anyone, robots included.
    Public,
    /// Open-door: an SEO page, the search page or the home page, shown to non-members.
    OpenDoor,
    MembersOnly,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedRoute {
    pub kind: PageKind,
    /// Reached through an SEO variant (/b, /c, /h, /l, /p, /seo-product, /voyages).
    pub seo: bool,
    /// Named path parameters, in path order.
    pub params: Vec<(String, String)>,
}

impl ResolvedRoute {
    fn new(kind: PageKind) -> Self {
        ResolvedRoute {
            kind,
            seo: false,
            params: Vec::new(),
        }
    }
    fn seo(mut self) -> Self {
        self.seo = true;
        self
    }
    fn param(mut self, name: &str, value: &str) -> Self {
        self.params.push((name.to_string(), value.to_string()));
        self
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn get_id(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(|v| v.parse().ok())
    }

    pub fn access(&self) -> Access {
        if self.kind.is_crawlable() {
            Access::Public
        } else if self.seo
            || matches!(
                self.kind,
                PageKind::Search
                    | PageKind::Logout
                    | PageKind::MobileMenu
                    // The brands place is crawlable; an operation link records
                    // its code for a visitor too.
                    | PageKind::BrandsPlace
                    | PageKind::Operation
            )
        {
            Access::OpenDoor
        } else {
            Access::MembersOnly
        }
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit())
}

/// A sale's slug as the shop writes them (`hotel-mira-lyon`): lower-case letters, digits
/// and hyphens, at most 120, not a number (that is an id).
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 120
        && !is_id(s)
        && s.bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
}

/// Resolves a path (without query) to its page, or `None` for an unknown path (404).
pub fn resolve(path: &str) -> Option<ResolvedRoute> {
    use PageKind::*;
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // The site base prefix is optional everywhere: a ReturnUrl always carries it.
    let segs: &[&str] = match segs.first() {
        Some(&"gr") => &segs[1..],
        _ => &segs[..],
    };
    let r = ResolvedRoute::new;
    let route = match segs {
        [] => r(Home),
        ["authentication"] => r(Authentication),
        ["authentication", "logout"] => r(Logout),
        ["portal"] => r(Portal),
        ["registration"] => r(Registration),
        ["registration", "privacypolicy"] => r(PrivacyPolicy),
        ["registration", "generalconditions"] => r(GeneralConditions),
        ["aboutus"] => r(AboutUs),
        ["home", "default"] => r(Home),
        ["home", "travel"] => r(Travel),
        ["home", "rosedeals"] => r(Deals).param("homeName", "rosedeals"),
        ["home", name] => r(Home).param("homeName", name),
        ["h", "default"] => r(Home).seo(),
        ["h", name] => r(Home).seo().param("homeName", name),
        // One page: deeper paths would duplicate it under another canonical.
        ["brandsplace"] => r(BrandsPlace),
        // The spec's SEO variants "sales" and "navigation" (it names no path).
        ["sales"] => r(Sales).seo(),
        ["navigation"] => r(Navigation).seo(),
        ["l", rest @ ..] if !rest.is_empty() => r(Landing).seo().param("seo", rest[0]),
        // The lateral menu's gifts entry: the site's gift ideas landing, whatever its slug.
        ["gifts"] => r(Landing).seo().param("translationKey", GIFTS_KEY),
        ["catalog", id] if is_id(id) => r(Catalog).param("catalogId", id),
        // A travel catalog by its sale's slug (spec 001 §2's catalog link rule).
        ["catalog", slug] if is_slug(slug) => r(Catalog).param("slug", slug),
        ["catalog", c, u, rest @ ..] if is_id(c) && is_id(u) && rest.len() <= 2 => with_filters(
            r(Catalog).param("campaignId", c).param("universeId", u),
            rest,
        ),
        [p @ ("c" | "p"), seo, c, u, rest @ ..] if is_id(c) && is_id(u) && rest.len() <= 2 => {
            let _ = p;
            with_filters(
                r(Catalog)
                    .seo()
                    .param("seo", seo)
                    .param("campaignId", c)
                    .param("universeId", u),
                rest,
            )
        }
        // A product by its id alone (a campaign link's `productid`): redirects to its sale's.
        ["product", p] if is_id(p) => r(Product).param("productId", p),
        ["product", c, p] if is_id(c) && is_id(p) => {
            r(Product).param("campaignId", c).param("productId", p)
        }
        ["seo-product", seo, c, slug, p] if is_id(c) && is_id(p) => r(Product)
            .seo()
            .param("seo", seo)
            .param("campaignId", c)
            .param("slug", slug)
            .param("productId", p),
        ["c" | "p" | "h" | "l", "seo-product", seo, c, slug, p] if is_id(c) && is_id(p) => {
            r(Product)
                .seo()
                .param("seo", seo)
                .param("campaignId", c)
                .param("slug", slug)
                .param("productId", p)
        }
        ["b", id] if is_id(id) => r(Brand).seo().param("brandId", id),
        ["find"] => r(Search),
        ["sponsorship"] => r(Sponsorship),
        ["cart"] => r(Cart),
        ["operation", code, "selection"] => r(OperationSelection).param("operationCode", code),
        ["operation", rest @ ..] => match rest.first() {
            Some(code) => r(Operation).param("operationCode", code),
            None => r(Operation),
        },
        ["myaccount"] => r(MyAccount),
        ["myaccount", "memberdata"] => r(PersonalData),
        ["my-orders"] => r(MyOrders),
        // Order ids are numbers: anything else names no order (404, never a page).
        ["my-orders", kind, order] if is_id(order) => {
            r(OrderDetails).param("type", kind).param("orderId", order)
        }
        ["details"] => r(MyOrders),
        ["details", order] if is_id(order) => r(OrderDetails).param("orderId", order),
        ["my-notifications"] => r(MyNotifications),
        ["vouchers-promotions"] => r(VouchersPromos),
        ["helpform"] => r(HelpForm),
        ["helpform", id] => r(HelpForm).param("orderId", id),
        ["menu"] => r(MobileMenu),
        ["communications"] | ["memberaccount", "communications"] => r(Communications),
        ["postsales"] => r(PostSales),
        ["postsales", "contactselector"] => r(ContactSelector),
        ["postsales", "favourites"] => r(Favourites),
        ["postsales", "myaccount", "addresses"] => r(Addresses),
        ["postsales", "myaccount", "wallet"] => r(Wallet),
        ["postsales", order, "details"] if is_id(order) => r(OrderDetails).param("orderId", order),
        ["postsales", order, "helpform"] => r(HelpForm).param("orderId", order),
        ["ps", "errors"] => r(PostSalesError),
        ["chat"] => r(Chat),
        ["checkout", "loyalty"] => r(Loyalty),
        ["rosedeals"] => r(Deals),
        ["rosedeals", sub] if ROSEDEAL_SUBPAGES.contains(sub) => r(Deals).param("section", sub),
        ["rosedeals", "order", id] if is_id(id) => {
            r(Deals).param("section", "order").param("basketId", id)
        }
        ["t", "s"] => r(TravelSearch),
        ["t", "r"] => r(TravelResults),
        ["t", "error"] => r(TravelError),
        ["t", "c", c] if is_id(c) => r(TravelCatalog).param("campaignId", c),
        ["t", "c", c, u] if is_id(c) && is_id(u) => r(TravelCatalog)
            .param("campaignId", c)
            .param("universeId", u),
        ["t", "p", c, p] if is_id(c) && is_id(p) => r(TravelProduct)
            .param("campaignId", c)
            .param("productId", p),
        ["t", "p", c, p, "checkout"] if is_id(c) && is_id(p) => r(TravelCheckout)
            .param("campaignId", c)
            .param("productId", p),
        ["voyages", "p", c, p] if is_id(c) && is_id(p) => r(TravelProduct)
            .seo()
            .param("campaignId", c)
            .param("productId", p),
        ["voyages", "c", c] if is_id(c) => r(TravelCatalog).seo().param("campaignId", c),
        ["voyages"] => r(Travel).seo(),
        ["voyage"] | ["voyage", "default"] => r(Travel),
        _ => return None,
    };
    Some(route)
}

const ROSEDEAL_SUBPAGES: [&str; 6] = [
    "history",
    "mail",
    "ongoing",
    "refund",
    "refund-result",
    "contact-form",
];

/// Catalog filter segments (spec 000 §2): `[catalogId]` then `[BrandOrColor]` as a slug.
fn with_filters(route: ResolvedRoute, rest: &[&str]) -> ResolvedRoute {
    match rest {
        [] => route,
        [one] if is_id(one) => route.param("catalogId", one),
        [one] => route.param("brandOrColor", one),
        [cat, slug] => route.param("catalogId", cat).param("brandOrColor", slug),
        _ => route,
    }
}

/// Joins a path and a query string that may or may not start with `?`.
pub fn with_query(path: &str, search: &str) -> String {
    let search = search.trim_start_matches('?');
    if search.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{search}")
    }
}

/// Adds the site base prefix to a path unless it already has it (spec 000 §2).
pub fn with_site_base(path_and_query: &str) -> String {
    if path_and_query == SITE_BASE
        || path_and_query.starts_with("/gr/")
        || path_and_query.starts_with("/gr?")
    {
        path_and_query.to_string()
    } else if path_and_query.starts_with('/') {
        format!("{SITE_BASE}{path_and_query}")
    } else {
        format!("{SITE_BASE}/{path_and_query}")
    }
}

/// Where an anonymous visitor of a members-only page is sent: to the page's open-door
/// equivalent where there is one (the travel home's is `/voyages`, so a travel banner or
/// bookmark shows a visitor the travel offers rather than a sign-in wall), the query kept;
/// otherwise to the sign-in page, which brings them back here.
pub fn visitor_redirect(route: &ResolvedRoute, path: &str, search: &str) -> String {
    match open_door_twin(route) {
        Some(twin) => with_query(twin, search),
        None => login_redirect(&with_query(path, search)),
    }
}

/// The open-door page that shows a visitor what a members-only page shows a member: the
/// travel home's is `/voyages`. Links for visitors (`shell::rules::home_tab_href`) and the
/// guard's redirect both read it here.
pub fn open_door_twin(route: &ResolvedRoute) -> Option<&'static str> {
    match route.kind {
        PageKind::Travel if !route.seo => Some("/voyages"),
        _ => None,
    }
}

/// The sign-in page, back to `path_and_query` after.
pub fn login_redirect(path_and_query: &str) -> String {
    format!(
        "{SITE_BASE}/authentication?ReturnUrl={}",
        encode_query_value(&with_site_base(path_and_query))
    )
}

/// `key=value` pairs of a raw query string, percent-decoded (`+` is a space, as forms send).
pub fn query_pairs(raw: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                    match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                        Some(b) => {
                            out.push(b);
                            i += 2;
                        }
                        None => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    raw.trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-encodes a query value (RFC 3986 unreserved characters and `/` kept).
pub fn encode_query_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shopping_core_routes_resolve_to_their_kind() {
        let cases = [
            ("/", PageKind::Home),
            ("/gr/authentication", PageKind::Authentication),
            ("/gr/portal", PageKind::Portal),
            ("/gr/registration", PageKind::Registration),
            ("/registration/privacypolicy", PageKind::PrivacyPolicy),
            ("/aboutus", PageKind::AboutUs),
            ("/gr/aboutus", PageKind::AboutUs),
            ("/home/default", PageKind::Home),
            ("/h/default", PageKind::Home),
            ("/gr/home/summer", PageKind::Home),
            ("/gr/catalog/12", PageKind::Catalog),
            ("/gr/sponsorship", PageKind::Sponsorship),
            ("/gr/gifts", PageKind::Landing),
            ("/gifts", PageKind::Landing),
            ("/catalog/100/0", PageKind::Catalog),
            ("/catalog/hotel-mira-lyon", PageKind::Catalog),
            ("/c/robes-ete/100/0", PageKind::Catalog),
            ("/p/robes-ete/100/0", PageKind::Catalog),
            ("/product/100/2001", PageKind::Product),
            ("/gr/product/2001", PageKind::Product),
            ("/seo-product/robes/100/robe-rouge/2001", PageKind::Product),
            ("/b/42", PageKind::Brand),
            ("/operation/NOEL/selection", PageKind::OperationSelection),
            ("/gr/operation/noel/selection", PageKind::OperationSelection),
            ("/operation/NOEL", PageKind::Operation),
            ("/find", PageKind::Search),
            ("/cart", PageKind::Cart),
            ("/authentication/logout/", PageKind::Logout),
        ];
        for (path, kind) in cases {
            assert_eq!(resolve(path).map(|r| r.kind), Some(kind), "{path}");
        }
    }

    #[test]
    fn travel_account_and_deals_routes_resolve() {
        let cases = [
            ("/t/c/300", PageKind::TravelCatalog),
            ("/t/c/300/1", PageKind::TravelCatalog),
            ("/t/p/300/9/checkout", PageKind::TravelCheckout),
            ("/t/p/300/9", PageKind::TravelProduct),
            ("/voyages/p/300/9", PageKind::TravelProduct),
            ("/t/error", PageKind::TravelError),
            ("/home/travel", PageKind::Travel),
            ("/t/s", PageKind::TravelSearch),
            ("/t/r", PageKind::TravelResults),
            ("/postsales/myaccount/wallet/", PageKind::Wallet),
            ("/postsales/myaccount/addresses/", PageKind::Addresses),
            ("/postsales/favourites", PageKind::Favourites),
            ("/postsales/contactselector", PageKind::ContactSelector),
            ("/ps/errors", PageKind::PostSalesError),
            ("/myaccount/memberdata", PageKind::PersonalData),
            ("/my-orders/fs/77", PageKind::OrderDetails),
            ("/gr/my-notifications/", PageKind::MyNotifications),
            ("/memberaccount/communications", PageKind::Communications),
            ("/rosedeals/refund-result", PageKind::Deals),
            ("/rosedeals/order/42", PageKind::Deals),
            ("/gr/home/rosedeals", PageKind::Deals),
            ("/checkout/loyalty", PageKind::Loyalty),
            ("/details/12", PageKind::OrderDetails),
            ("/postsales/12/details", PageKind::OrderDetails),
            ("/details", PageKind::MyOrders),
            ("/brandsplace/", PageKind::BrandsPlace),
            ("/gr/brandsplace", PageKind::BrandsPlace),
            ("/sales", PageKind::Sales),
            ("/gr/navigation/", PageKind::Navigation),
        ];
        for (path, kind) in cases {
            assert_eq!(resolve(path).map(|r| r.kind), Some(kind), "{path}");
        }
    }

    #[test]
    fn unknown_paths_do_not_resolve() {
        for path in [
            "/nope",
            "/catalog/abc/1",
            // Slugs are written in lower case, without dots or spaces.
            "/catalog/Hotel-Mira",
            "/catalog/hotel.mira",
            // A product by id alone is a number (its sale found on the server).
            "/product/abc",
            "/product/1/abc",
            "/rosedeals/unknown",
            "/rosedeals/order/abc",
            "/t/p/1",
            // Order ids are numbers; the brands place is one page.
            "/my-orders/fs/abc",
            "/details/abc",
            "/details/12/extra",
            "/postsales/abc/details",
            "/brandsplace/anything",
            "/gr/brandsplace/a/b",
            "/sales/1",
            "/navigation/x",
        ] {
            assert_eq!(resolve(path), None, "{path}");
        }
    }

    #[test]
    fn catalog_filter_segments_become_params() {
        let r = resolve("/catalog/100/5/12/nike").unwrap();
        assert_eq!(r.get("catalogId"), Some("12"));
        assert_eq!(r.get("brandOrColor"), Some("nike"));
        let r = resolve("/c/seo/100/5/rouge").unwrap();
        assert!(r.seo);
        assert_eq!(r.get("brandOrColor"), Some("rouge"));
        assert_eq!(r.get_id("campaignId"), Some(100));
    }

    #[test]
    fn visitors_of_the_travel_home_go_to_its_open_door_page() {
        for path in ["/home/travel", "/gr/home/travel", "/voyage"] {
            let route = resolve(path).unwrap();
            assert_eq!(route.access(), Access::MembersOnly);
            assert_eq!(
                visitor_redirect(&route, path, "?from=banner"),
                "/voyages?from=banner"
            );
            assert_eq!(visitor_redirect(&route, path, ""), "/voyages");
        }
        // Other members-only pages: the sign-in page, back here after.
        let route = resolve("/my-orders").unwrap();
        assert_eq!(
            visitor_redirect(&route, "/my-orders", "?page=2"),
            login_redirect("/my-orders?page=2")
        );
    }

    #[test]
    fn access_follows_crawlable_and_open_door_rules() {
        assert_eq!(resolve("/").unwrap().access(), Access::Public);
        assert_eq!(
            resolve("/gr/authentication").unwrap().access(),
            Access::Public
        );
        assert_eq!(resolve("/find").unwrap().access(), Access::OpenDoor);
        assert_eq!(resolve("/c/x/1/2").unwrap().access(), Access::OpenDoor);
        assert_eq!(resolve("/b/3").unwrap().access(), Access::OpenDoor);
        assert_eq!(
            resolve("/catalog/1/2").unwrap().access(),
            Access::MembersOnly
        );
        assert_eq!(resolve("/cart").unwrap().access(), Access::MembersOnly);
        assert_eq!(
            resolve("/gr/my-notifications/").unwrap().access(),
            Access::MembersOnly
        );
    }

    #[test]
    fn path_and_query_join() {
        assert_eq!(with_query("/a", ""), "/a");
        assert_eq!(with_query("/a", "?b=1"), "/a?b=1");
        assert_eq!(with_query("/a", "b=1"), "/a?b=1");
    }

    #[test]
    fn return_url_gets_the_site_base_once() {
        assert_eq!(with_site_base("/cart"), "/gr/cart");
        assert_eq!(with_site_base("/gr/cart"), "/gr/cart");
        assert_eq!(with_site_base("/grand/x"), "/gr/grand/x");
        assert_eq!(
            login_redirect("/catalog/1/2?page=2&dc=0"),
            "/gr/authentication?ReturnUrl=/gr/catalog/1/2%3Fpage%3D2%26dc%3D0"
        );
        assert_eq!(
            login_redirect("/gr/my-orders"),
            "/gr/authentication?ReturnUrl=/gr/my-orders"
        );
    }
}

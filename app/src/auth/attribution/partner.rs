//! Which partner brought a visit (spec 000 §9: the partner id cookie lives an hour; search
//! engine referrers mark organic traffic, split into SEO and classic partner ids; the
//! cookie kinds from-partner, last-click partner and last-click voyage).
//!
//! A partner is named by a `partnerid` link or, for a visit from a search engine, by the
//! engine: `seo-{engine}` when the visit lands on one of the pages made for search engines
//! (an SEO variant of a route, `ResolvedRoute::seo`), `{engine}` (the classic id) on any
//! other page. The shop keeps it in three cookies, only with the visitor's consent to
//! behavioural cookies (C0004: the cookies follow a visit from another site):
//! - from-partner, one hour: a registration in that hour credits the partner, when its
//!   own link names none;
//! - last-click partner, 30 days: the latest partner followed; an order credits it;
//! - last-click voyage, 30 days: the same for visits that land on travel pages; a travel
//!   order credits it.
//!
//! A sign-in with a from-partner cookie is credited to the partner on the server (the
//! spec's login-partner cookie kept the same fact in the browser).
use crate::routes::{PageKind, ResolvedRoute};

pub const FROM_PARTNER_COOKIE: &str = "rosace_partner";
pub const FROM_PARTNER_MAX_AGE: i64 = 3600;
pub const LAST_CLICK_COOKIE: &str = "rosace_lastclick";
pub const LAST_CLICK_TRAVEL_COOKIE: &str = "rosace_lastclick_travel";
pub const LAST_CLICK_MAX_AGE: i64 = 30 * 86_400;
/// The consent category the cookies need.
pub const CONSENT_CATEGORY: &str = "C0004";
/// Longest partner id kept.
pub const MAX_ID_CHARS: usize = 40;

/// A partner id as the shop keeps it: 1 to 40 letters, digits, `.`, `-` or `_` (safe in
/// a cookie and a report); anything else is no partner.
pub fn valid_id(value: &str) -> Option<String> {
    let v = value.trim();
    (!v.is_empty()
        && v.len() <= MAX_ID_CHARS
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')))
    .then(|| v.to_string())
}

/// The search engines whose referrers mark organic traffic: the engine's name, and
/// whether a host (without `www.`) is one of its.
type IsEngineHost = fn(&str) -> bool;

const ENGINES: [(&str, IsEngineHost); 9] = [
    ("google", |h| country_domain(h, "google")),
    ("bing", |h| h == "bing.com" || h.ends_with(".bing.com")),
    ("yahoo", |h| h.ends_with("search.yahoo.com")),
    ("duckduckgo", |h| h == "duckduckgo.com"),
    ("qwant", |h| h == "qwant.com" || h.ends_with(".qwant.com")),
    ("ecosia", |h| h == "ecosia.org"),
    ("yandex", |h| country_domain(h, "yandex")),
    ("baidu", |h| h == "baidu.com"),
    ("brave", |h| h == "search.brave.com"),
];

/// `name.tld`, `name.co.tld` or `name.com.tld` (google.fr, google.co.uk, google.com.br).
fn country_domain(host: &str, name: &str) -> bool {
    let Some(rest) = host.strip_prefix(name).and_then(|r| r.strip_prefix('.')) else {
        return false;
    };
    let rest = rest
        .strip_prefix("co.")
        .or_else(|| rest.strip_prefix("com."))
        .unwrap_or(rest);
    !rest.is_empty() && rest.len() <= 3 && rest.bytes().all(|b| b.is_ascii_lowercase())
}

/// The search engine a `Referer` names, if it names one.
pub fn search_engine(referer: &str) -> Option<&'static str> {
    let rest = referer
        .strip_prefix("https://")
        .or_else(|| referer.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.split(':').next()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    ENGINES
        .iter()
        .find(|(_, is)| is(host))
        .map(|(name, _)| *name)
}

/// A visit a partner brought, and the page it landed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub partner: String,
    pub travel: bool,
}

fn is_travel(kind: &PageKind) -> bool {
    use PageKind::*;
    matches!(
        kind,
        Travel
            | TravelSearch
            | TravelResults
            | TravelCatalog
            | TravelProduct
            | TravelCheckout
            | TravelError
    )
}

/// The partner of a page view: the link's `partnerid` (any case of the key, the last one
/// given), else the search engine of the referrer, as the SEO id on an SEO page and the
/// classic id elsewhere. None for a page that is no page of the shop.
pub fn arrival(path: &str, query: &str, referer: Option<&str>) -> Option<Arrival> {
    // Most page views name no partner: they cost no route lookup.
    if !may_name_partner(query, referer) {
        return None;
    }
    let route = crate::routes::resolve(path)?;
    let linked = query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .rfind(|(k, _)| k.eq_ignore_ascii_case("partnerid"))
        .and_then(|(_, v)| valid_id(v));
    let partner = match linked {
        Some(p) => p,
        None => {
            let engine = search_engine(referer?)?;
            partner_of_engine(engine, &route)
        }
    };
    Some(Arrival {
        partner,
        travel: is_travel(&route.kind),
    })
}

fn partner_of_engine(engine: &str, route: &ResolvedRoute) -> String {
    if route.seo {
        format!("seo-{engine}")
    } else {
        engine.to_string()
    }
}

/// Whether a query or a referrer may name a partner: the cheap test a cached page's
/// answer makes before looking up the route.
pub fn may_name_partner(query: &str, referer: Option<&str>) -> bool {
    // No allocation: this runs on every cached page's answer.
    const KEY: &[u8] = b"partnerid=";
    query
        .as_bytes()
        .windows(KEY.len())
        .any(|w| w.eq_ignore_ascii_case(KEY))
        || referer.is_some_and(|r| search_engine(r).is_some())
}

/// The cookies an arrival sets: (name, value, max age in seconds).
pub fn cookies_of(a: &Arrival) -> Vec<(&'static str, String, i64)> {
    let mut out = vec![
        (FROM_PARTNER_COOKIE, a.partner.clone(), FROM_PARTNER_MAX_AGE),
        (LAST_CLICK_COOKIE, a.partner.clone(), LAST_CLICK_MAX_AGE),
    ];
    if a.travel {
        out.push((
            LAST_CLICK_TRAVEL_COOKIE,
            a.partner.clone(),
            LAST_CLICK_MAX_AGE,
        ));
    }
    out
}

/// The partner a registration credits: its own link's, else the from-partner cookie's.
pub fn registration_partner(link: &str, from_partner: Option<&str>) -> String {
    if !link.is_empty() {
        return link.to_string();
    }
    from_partner.and_then(valid_id).unwrap_or_default()
}

/// The partner an order credits: a travel order the last click that led to travel pages,
/// any other the last click; a value that is no partner id credits none.
pub fn order_partner(
    travel: bool,
    last_click: Option<&str>,
    last_click_travel: Option<&str>,
) -> Option<String> {
    let cookie = if travel {
        last_click_travel
    } else {
        last_click
    };
    cookie.and_then(valid_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_names_its_partner_and_search_engines_split_seo_from_classic() {
        let a = arrival("/", "site=1&partnerId=affil-42", None).unwrap();
        assert_eq!(a.partner, "affil-42");
        assert!(!a.travel);
        // The link wins over the referrer.
        let a = arrival("/", "partnerid=news_1", Some("https://www.google.fr/")).unwrap();
        assert_eq!(a.partner, "news_1");
        // A search engine on an SEO page: the SEO id; on another page: the classic id.
        let seo = arrival("/b/12", "", Some("https://www.google.co.uk/search?q=x")).unwrap();
        assert_eq!(seo.partner, "seo-google");
        let classic = arrival("/", "", Some("https://www.bing.com/search?q=rosace")).unwrap();
        assert_eq!(classic.partner, "bing");
        let travel = arrival("/voyages", "", Some("https://duckduckgo.com/")).unwrap();
        assert!(travel.travel);
        assert!(travel.partner.ends_with("duckduckgo"));
        // Not partners: another site, the shop itself, a bad id, no page.
        assert_eq!(
            arrival("/", "", Some("https://example.com/google.fr")),
            None
        );
        assert_eq!(arrival("/", "", Some("https://googlex.fr/")), None);
        assert_eq!(arrival("/", "", Some("https://google.evil.example/")), None);
        assert_eq!(arrival("/", "partnerid=<script>", None), None);
        assert_eq!(
            arrival("/", &format!("partnerid={}", "a".repeat(41)), None),
            None
        );
        assert_eq!(arrival("/no/such/page/at/all", "partnerid=p1", None), None);
        assert!(may_name_partner("PARTNERID=x", None));
        assert!(!may_name_partner("site=2", Some("https://rosace.example/")));
    }

    #[test]
    fn cookies_and_credits_follow_the_spec_ages() {
        let a = Arrival {
            partner: "p1".into(),
            travel: true,
        };
        let c = cookies_of(&a);
        assert_eq!(c[0], (FROM_PARTNER_COOKIE, "p1".to_string(), 3600));
        assert_eq!(c[1].2, 30 * 86_400);
        assert_eq!(c.len(), 3);
        assert_eq!(registration_partner("link", Some("cookie")), "link");
        assert_eq!(registration_partner("", Some("cookie")), "cookie");
        assert_eq!(registration_partner("", Some("bad id!")), "");
        assert_eq!(order_partner(false, Some("a"), Some("b")), Some("a".into()));
        assert_eq!(order_partner(true, Some("a"), Some("b")), Some("b".into()));
        assert_eq!(order_partner(true, Some("a"), None), None);
    }
}

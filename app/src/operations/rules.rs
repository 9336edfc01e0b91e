//! Operation codes: their shape, the cookie that records the last one followed, where an
//! operation lands, and what a visitor is told when it does not. Pure code.
use crate::shell::rules::Audience;

/// The operation-code cookie (spec 000 §3 cookie kinds: "operation code"), named after the
/// entry-page parameter `operationcode`.
pub const COOKIE: &str = "operationcode";
/// How long the cookie remembers the operation: 30 days.
pub const COOKIE_MAX_AGE: i64 = 30 * 24 * 3600;
const MAX_LEN: usize = 32;

/// A code as typed or linked, in its stored form (upper case), or `None` when it cannot
/// be a code (no look-up for it).
pub fn normalize_code(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    let ok = !code.is_empty()
        && code.len() <= MAX_LEN
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then_some(code)
}

/// Where an entered operation lands (the enter-operation call's answer).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct OperationLanding {
    /// The code as stored (upper case).
    pub code: String,
    /// The path it lands on: a sale's catalog or a home.
    pub url: String,
}

/// What an operation names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A sale, by id: its catalog.
    Sale(i64),
    /// A home, by name (`default`: the home page).
    Home(String),
}

impl Target {
    pub fn parse(kind: &str, target: &str) -> Option<Target> {
        match kind {
            "sale" => target.parse().ok().map(Target::Sale),
            "home" => Some(Target::Home(target.to_string())),
            _ => None,
        }
    }
}

/// The path of a home by name.
pub fn home_path(name: &str) -> String {
    let name = name.trim();
    if name.is_empty() || name.eq_ignore_ascii_case("default") {
        "/".into()
    } else {
        format!("/gr/home/{}", crate::routes::encode_query_value(name))
    }
}

/// Where a home operation lands `audience`: the travel home's open-door twin `/voyages`
/// for a visitor and `/home/travel` for a member (as the header's tab,
/// `shell::rules::home_tab_href`); any other home at [`home_path`] (the home pages are
/// open to visitors).
pub fn home_landing(audience: Audience, name: &str, kind: &str) -> String {
    if kind == "TRAVEL" {
        if let Some(href) = crate::shell::rules::home_tab_href(audience, name, kind) {
            return href;
        }
    }
    home_path(name)
}

/// Where a sale operation lands `audience`: a member on the members' catalog
/// `/catalog/{sale}/{universe}` (the canonical address of `/gr/catalog/{id}` too), a visitor on the sale's open-door catalog `/c/{slug}/{sale}/{universe}`
/// (no sign-in wall), or the members' one when the sale has no slug.
pub fn sale_landing(audience: Audience, sale_id: i64, universe_id: i64, slug: &str) -> String {
    let sale = crate::shell::rules::LiveSale {
        id: sale_id,
        name: String::new(),
        first_universe_id: universe_id,
        seo_slug: slug.to_string(),
        logo_url: String::new(),
    };
    crate::shell::rules::catalog_href(audience, &sale, universe_id)
}

/// Why a code did not land: the key of the message the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No such operation on this site (or not a code at all).
    Unknown,
    /// Over, not started yet, or its sale is no longer live.
    Expired,
}

impl Refusal {
    pub fn message_key(self) -> &'static str {
        match self {
            Refusal::Unknown => "operation.unknown",
            Refusal::Expired => "operation.expired",
        }
    }
    /// The page's `error` parameter back to its key (only ours: a link cannot choose text).
    pub fn from_key(key: &str) -> Option<Refusal> {
        [Refusal::Unknown, Refusal::Expired]
            .into_iter()
            .find(|r| r.message_key() == key)
    }
}

/// Whether an operation is running at `now` (start included, end excluded).
pub fn is_running(starts_at: i64, ends_at: i64, now: i64) -> bool {
    starts_at <= now && now < ends_at
}

/// The `Set-Cookie` value that records a followed operation.
pub fn cookie(code: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={code}; Path=/; Max-Age={COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The page of an operation's selection.
pub fn selection_path(code: &str) -> String {
    format!("/operation/{code}/selection")
}

/// Where a product of a selection sits: its universe in its sale, and that universe's
/// parent when it is a sub-universe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub universe: String,
    pub parent: Option<String>,
}

impl Placement {
    /// The selection's universe (the top one) and sub-universe it counts in.
    fn levels(&self) -> (&str, Option<&str>) {
        match &self.parent {
            Some(parent) => (parent.as_str(), Some(self.universe.as_str())),
            None => (self.universe.as_str(), None),
        }
    }

    /// Whether `wanted` (a universe's or sub-universe's id; empty: all) takes it.
    pub fn is_in(&self, wanted: &str) -> bool {
        let (top, sub) = self.levels();
        wanted.is_empty()
            || crate::text::slug::slug(top) == wanted
            || sub.is_some_and(|s| crate::text::slug::slug(s) == wanted)
    }
}

/// The universes of a selection's products, gathered by name across their sales, in the
/// order their products come; each with its sub-universes in the same order.
pub fn universes(placements: &[Placement]) -> Vec<crate::operations::model::OperationUniverse> {
    use crate::operations::model::{OperationSubUniverse, OperationUniverse};
    use crate::text::slug::slug;
    let mut out: Vec<OperationUniverse> = Vec::new();
    for p in placements {
        let (top, sub) = p.levels();
        let id = slug(top);
        if id.is_empty() {
            continue;
        }
        let at = match out.iter().position(|u| u.id == id) {
            Some(at) => at,
            None => {
                out.push(OperationUniverse {
                    id,
                    name: top.trim().to_string(),
                    sub_universes: Vec::new(),
                });
                out.len() - 1
            }
        };
        if let Some(sub) = sub {
            let sub_id = slug(sub);
            let subs = &mut out[at].sub_universes;
            if !sub_id.is_empty() && !subs.iter().any(|s| s.id == sub_id) {
                subs.push(OperationSubUniverse {
                    id: sub_id,
                    name: sub.trim().to_string(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(universe: &str, parent: Option<&str>) -> Placement {
        Placement {
            universe: universe.into(),
            parent: parent.map(String::from),
        }
    }

    #[test]
    fn a_selection_gathers_universes_by_name_across_sales() {
        let placements = [
            at("Robes", Some("Femme")),
            at("Montres", None),
            at("Jupes", Some("Femme")),
            at("robes", Some("femme")),
            at("Montres", None),
            at("", None),
        ];
        let u = universes(&placements);
        let names: Vec<_> = u.iter().map(|u| (u.id.as_str(), u.name.as_str())).collect();
        assert_eq!(names, [("femme", "Femme"), ("montres", "Montres")]);
        let subs: Vec<_> = u[0].sub_universes.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            subs,
            ["robes", "jupes"],
            "one robes for two sales, in order"
        );
        assert!(u[1].sub_universes.is_empty());
        assert!(placements[0].is_in("femme") && placements[0].is_in("robes"));
        assert!(placements[0].is_in(""));
        assert!(!placements[0].is_in("jupes") && !placements[1].is_in("femme"));
        assert_eq!(selection_path("NOEL"), "/operation/NOEL/selection");
    }

    #[test]
    fn codes_are_normalized_or_refused() {
        assert_eq!(normalize_code(" spring-24 "), Some("SPRING-24".into()));
        assert_eq!(normalize_code("a_b"), Some("A_B".into()));
        assert_eq!(normalize_code(""), None);
        assert_eq!(normalize_code("has space"), None);
        assert_eq!(normalize_code("x;y"), None);
        assert_eq!(normalize_code(&"A".repeat(33)), None);
        assert_eq!(normalize_code(&"A".repeat(32)).map(|c| c.len()), Some(32));
    }

    #[test]
    fn targets_and_home_paths() {
        assert_eq!(Target::parse("sale", "12"), Some(Target::Sale(12)));
        assert_eq!(Target::parse("sale", "x"), None);
        assert_eq!(
            Target::parse("home", "summer"),
            Some(Target::Home("summer".into()))
        );
        assert_eq!(Target::parse("page", "x"), None);
        assert_eq!(home_path("default"), "/");
        assert_eq!(home_path(""), "/");
        assert_eq!(home_path("summer"), "/gr/home/summer");
    }

    #[test]
    fn visitors_land_on_open_door_pages_members_keep_theirs() {
        use Audience::{Member, Visitor};
        assert_eq!(sale_landing(Member, 3, 40, "robes"), "/catalog/3/40");
        assert_eq!(sale_landing(Visitor, 3, 40, " robes "), "/c/robes/3/40");
        // No slug, no open-door page: the members' catalog (sign in first).
        assert_eq!(sale_landing(Visitor, 3, 40, " "), "/catalog/3/40");
        assert_eq!(home_landing(Member, "travel", "TRAVEL"), "/home/travel");
        assert_eq!(home_landing(Visitor, "travel", "TRAVEL"), "/voyages");
        assert_eq!(
            home_landing(Visitor, "summer", "DEFAULT"),
            "/gr/home/summer"
        );
        assert_eq!(home_landing(Visitor, "default", "DEFAULT"), "/");
        assert_eq!(home_landing(Member, "gone", ""), "/gr/home/gone");
        for (audience, slug) in [(Visitor, "robes"), (Member, "robes")] {
            let access = crate::routes::resolve(&sale_landing(audience, 3, 40, slug))
                .unwrap()
                .access();
            assert_eq!(
                access == crate::routes::Access::MembersOnly,
                audience == Member
            );
        }
        for audience in [Visitor, Member] {
            let href = home_landing(audience, "travel", "TRAVEL");
            let access = crate::routes::resolve(&href).unwrap().access();
            assert_eq!(
                access == crate::routes::Access::MembersOnly,
                audience == Member
            );
        }
    }

    #[test]
    fn running_window() {
        assert!(is_running(10, 20, 10));
        assert!(is_running(10, 20, 19));
        assert!(!is_running(10, 20, 20));
        assert!(!is_running(10, 20, 9));
    }

    #[test]
    fn refusals_round_trip_their_keys() {
        for r in [Refusal::Unknown, Refusal::Expired] {
            assert_eq!(Refusal::from_key(r.message_key()), Some(r));
        }
        assert_eq!(Refusal::from_key("anything"), None);
    }

    #[test]
    fn the_cookie_is_scoped_and_secure_when_asked() {
        assert_eq!(
            cookie("SPRING", false),
            "operationcode=SPRING; Path=/; Max-Age=2592000; SameSite=Lax; HttpOnly"
        );
        assert!(cookie("SPRING", true).ends_with("; Secure"));
    }
}

//! The content area's pure rules: which links the footer has (and who sees them), which
//! document a page kind shows, what a landing slug and selection may be. No I/O.
use crate::routes::PageKind;

/// The legal and company documents, each crawlable at one path (spec 000 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Document {
    AboutUs,
    PrivacyPolicy,
    GeneralConditions,
}

impl Document {
    pub const ALL: [Document; 3] = [
        Document::AboutUs,
        Document::PrivacyPolicy,
        Document::GeneralConditions,
    ];

    pub fn of(kind: PageKind) -> Option<Document> {
        match kind {
            PageKind::AboutUs => Some(Document::AboutUs),
            PageKind::PrivacyPolicy => Some(Document::PrivacyPolicy),
            PageKind::GeneralConditions => Some(Document::GeneralConditions),
            _ => None,
        }
    }

    /// The key of the document in `docs/<lang>.json`.
    pub fn key(self) -> &'static str {
        match self {
            Document::AboutUs => "aboutus",
            Document::PrivacyPolicy => "privacypolicy",
            Document::GeneralConditions => "generalconditions",
        }
    }

    /// The canonical path (the one the sitemap, the footer and canonical links use).
    pub fn path(self) -> &'static str {
        match self {
            Document::AboutUs => "/gr/aboutus",
            Document::PrivacyPolicy => "/registration/privacypolicy",
            Document::GeneralConditions => "/registration/generalconditions",
        }
    }
}

/// A footer link before translation: id, label key, path, members only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkSpec {
    pub id: &'static str,
    pub label_key: &'static str,
    pub href: &'static str,
    pub logged_in: bool,
}

/// A footer section before translation. The `inspirations` section takes the site's
/// landing pages (from the database) instead of fixed links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpec {
    pub id: &'static str,
    pub title_key: &'static str,
    pub links: Vec<LinkSpec>,
}

const fn link(
    id: &'static str,
    label_key: &'static str,
    href: &'static str,
    logged_in: bool,
) -> LinkSpec {
    LinkSpec {
        id,
        label_key,
        href,
        logged_in,
    }
}

/// Every fixed footer link: each leads to a page that exists. Members-only pages are
/// flagged `logged_in` (a visitor would only meet the sign-in page there).
pub const FOOTER_LINKS: [(&str, LinkSpec); 14] = [
    ("shop", link("home", "content.footer.home", "/", false)),
    (
        "shop",
        link("travel", "content.footer.travel", "/voyages", false),
    ),
    // The brands place is open to visitors (crawlable): the footer is their way in.
    (
        "shop",
        link("brands", "shell.account.brands", "/brandsplace", false),
    ),
    (
        "shop",
        link("aboutus", "menu.aboutus", "/gr/aboutus", false),
    ),
    (
        "shop",
        link("join", "content.footer.join", "/gr/registration", false),
    ),
    (
        "account",
        link("orders", "menu.orders", "/gr/my-orders", true),
    ),
    (
        "account",
        link("postsales", "page.postsales", "/postsales", true),
    ),
    (
        "account",
        link(
            "notifications",
            "page.mynotifications",
            "/gr/my-notifications/",
            true,
        ),
    ),
    (
        "account",
        link("loyalty", "page.loyalty", "/checkout/loyalty", true),
    ),
    (
        "help",
        link(
            "contact",
            "page.contactselector",
            "/postsales/contactselector",
            true,
        ),
    ),
    ("help", link("helpform", "menu.help", "/helpform", true)),
    (
        "legal",
        link(
            "conditions",
            "page.generalconditions",
            "/registration/generalconditions",
            false,
        ),
    ),
    (
        "legal",
        link(
            "privacy",
            "page.privacypolicy",
            "/registration/privacypolicy",
            false,
        ),
    ),
    (
        "legal",
        link("sitemap", "content.footer.sitemap", "/sitemap.xml", false),
    ),
];

/// Section order; `inspirations` holds the landing pages.
pub const FOOTER_SECTIONS: [(&str, &str); 5] = [
    ("shop", "content.footer.shop"),
    ("inspirations", "content.footer.inspirations"),
    ("account", "content.footer.account"),
    ("help", "content.footer.help"),
    ("legal", "content.footer.legal"),
];

/// The footer's sections for a member or a visitor: visitors do not get members-only
/// links (nor the `join` link once signed in); a section left without links is dropped,
/// except `inspirations`, filled by the caller.
pub fn footer_sections(is_member: bool) -> Vec<SectionSpec> {
    FOOTER_SECTIONS
        .iter()
        .map(|(id, title_key)| SectionSpec {
            id,
            title_key,
            links: FOOTER_LINKS
                .iter()
                .filter(|(section, l)| {
                    section == id && (is_member || !l.logged_in) && !(is_member && l.id == "join")
                })
                .map(|(_, l)| *l)
                .collect(),
        })
        .filter(|s| s.id == "inspirations" || !s.links.is_empty())
        .collect()
}

/// Landing slugs are the slug rule's output: lower-case ASCII letters, digits and
/// hyphens, 1 to 80 characters, no leading or trailing hyphen.
pub fn valid_landing_slug(slug: &str) -> bool {
    (1..=80).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
}

/// What a landing page shows below its blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Live sales of the site; of one offer type when the value names one.
    Sales { offer_type: Option<String> },
    /// A brand's items in the site's live sales.
    Brand { brand_id: i64 },
}

/// The selection stored for a landing page; `None` when the row cannot be read (the page
/// then shows its blocks without a selection rather than failing).
pub fn selection(kind: &str, value: &str) -> Option<Selection> {
    match kind {
        "sales" => Some(Selection::Sales {
            offer_type: (!value.trim().is_empty()).then(|| value.trim().to_string()),
        }),
        "brand" => value
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .map(|brand_id| Selection::Brand { brand_id }),
        _ => None,
    }
}

/// At most this many sales or items on a landing page.
pub const MAX_SELECTION: i64 = 24;

pub fn selection_limit(stored: i64) -> i64 {
    stored.clamp(1, MAX_SELECTION)
}

/// A landing page's hreflang alternates: the pages sharing its translation key on the
/// brand's sites (another brand's sites are other shops), one per site, in the sites'
/// order, the page itself always among them. Sites without a translation are left out.
pub fn landing_translations(
    site_id: u16,
    slug: &str,
    found: Vec<crate::content::model::LandingTranslation>,
) -> Vec<crate::content::model::LandingTranslation> {
    use crate::content::model::LandingTranslation;
    let site = crate::site::by_id_or_default(site_id);
    site.siblings()
        .filter_map(|s| {
            if s.site_id == site_id {
                return Some(LandingTranslation {
                    site_id,
                    slug: slug.to_string(),
                });
            }
            found.iter().find(|t| t.site_id == s.site_id).cloned()
        })
        .collect()
}

/// Replaces `{brand}` in a document's text with the site's brand name.
pub fn with_brand(text: &str, brand: &str) -> String {
    text.replace("{brand}", brand)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_translations_keep_the_brands_sites_once_and_the_page_itself() {
        use crate::content::model::LandingTranslation;
        let t = |site_id: u16, slug: &str| LandingTranslation {
            site_id,
            slug: slug.to_string(),
        };
        // Site 1 (Rosace): site 2 has it; 69 is the sister brand (another shop); site 3
        // twice (kept once); the page itself is listed even when the rows lack it.
        let found = vec![
            t(69, "vendite"),
            t(3, "ventas"),
            t(3, "otra"),
            t(2, "aktionen"),
        ];
        let out = landing_translations(1, "ventes", found);
        assert_eq!(out, vec![t(1, "ventes"), t(2, "aktionen"), t(3, "ventas")]);
        // No key: only the page itself.
        assert_eq!(landing_translations(2, "x", vec![]), vec![t(2, "x")]);
    }

    #[test]
    fn visitors_get_no_members_only_link_and_members_no_join_link() {
        let visitor = footer_sections(false);
        assert!(visitor.iter().all(|s| s.links.iter().all(|l| !l.logged_in)));
        assert!(visitor.iter().all(|s| s.id != "account" && s.id != "help"));
        assert!(visitor
            .iter()
            .any(|s| s.links.iter().any(|l| l.id == "join")));
        // The brands place is open to visitors: the footer's shop section links it.
        assert!(visitor.iter().any(|s| s.id == "shop"
            && s.links
                .iter()
                .any(|l| l.href == "/brandsplace" && !l.logged_in)));
        let member = footer_sections(true);
        assert!(member.iter().any(|s| s.id == "account"));
        assert!(member
            .iter()
            .all(|s| s.links.iter().all(|l| l.id != "join")));
        let ids: Vec<&str> = member.iter().map(|s| s.id).collect();
        assert_eq!(ids, ["shop", "inspirations", "account", "help", "legal"]);
    }

    #[test]
    fn every_footer_link_resolves_to_a_page() {
        for (_, l) in FOOTER_LINKS {
            if l.href == "/sitemap.xml" {
                continue;
            }
            let path = l.href.split('?').next().unwrap_or("");
            let route = crate::routes::resolve(path);
            assert!(route.is_some(), "{} does not resolve", l.href);
            let members_only =
                route.is_some_and(|r| r.access() == crate::routes::Access::MembersOnly);
            assert_eq!(members_only, l.logged_in, "{} logged_in flag", l.href);
        }
    }

    #[test]
    fn documents_resolve_to_their_kind_and_are_crawlable() {
        for d in Document::ALL {
            let route = crate::routes::resolve(d.path()).unwrap();
            assert_eq!(Document::of(route.kind), Some(d));
            assert!(route.kind.is_crawlable());
        }
        assert_eq!(Document::of(PageKind::Home), None);
    }

    #[test]
    fn landing_slugs() {
        assert!(valid_landing_slug("summer-dresses-2026"));
        assert!(!valid_landing_slug(""));
        assert!(!valid_landing_slug("Summer"));
        assert!(!valid_landing_slug("-a"));
        assert!(!valid_landing_slug("a-"));
        assert!(!valid_landing_slug("a/b"));
        assert!(!valid_landing_slug("été"));
        assert!(!valid_landing_slug(&"a".repeat(81)));
    }

    #[test]
    fn selections_and_limits() {
        assert_eq!(
            selection("sales", ""),
            Some(Selection::Sales { offer_type: None })
        );
        assert_eq!(
            selection("sales", "SecondHand"),
            Some(Selection::Sales {
                offer_type: Some("SecondHand".into())
            })
        );
        assert_eq!(
            selection("brand", "12"),
            Some(Selection::Brand { brand_id: 12 })
        );
        assert_eq!(selection("brand", "x"), None);
        assert_eq!(selection("brand", "-3"), None);
        assert_eq!(selection("other", "1"), None);
        assert_eq!(selection_limit(0), 1);
        assert_eq!(selection_limit(8), 8);
        assert_eq!(selection_limit(500), MAX_SELECTION);
        assert_eq!(with_brand("Chez {brand}", "Violeta"), "Chez Violeta");
    }
}

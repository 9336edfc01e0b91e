//! Where a registration came from (spec 000 §2's entry vocabulary): the `utm_*` keys, the
//! landing form's `formid`, the sponsor's `godfathertype`, a partner's `partnerid` and
//! `opendoor`, kept with the new account so the back office can say which sources bring
//! members and which of them buy (`server/src/backoffice/registrations.rs`). The spec
//! names the keys without saying what the page does with them; a shop records them.
#[cfg(feature = "ssr")]
pub mod credits;
pub mod partner;
#[cfg(feature = "ssr")]
pub mod store;

/// The link keys the entry page carries from step to step up to the registration, and the
/// registration records: the sponsor's and the page's own (`mgmcode`, `godfatherid`,
/// `hideaboutus`, used by the page) first, then the attribution's.
pub const CARRIED_KEYS: [&str; 12] = [
    "mgmcode",
    "godfatherid",
    "hideaboutus",
    "utm_campaign",
    "utm_content",
    "utm_medium",
    "utm_source",
    "utm_term",
    "formid",
    "godfathertype",
    "opendoor",
    "partnerid",
];

/// Longest value kept, in characters: a campaign name, not a document.
pub const MAX_VALUE_CHARS: usize = 100;

/// A registration's source, as its link gave it. Every text is trimmed, at most
/// [`MAX_VALUE_CHARS`] characters and free of control characters (else it is dropped:
/// a link's value is not a member's typing, nothing of theirs is lost).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    pub utm_source: String,
    pub utm_medium: String,
    pub utm_campaign: String,
    pub utm_content: String,
    pub utm_term: String,
    /// The landing form's id (the spec says an integer); anything else is none.
    pub form_id: Option<i64>,
    pub godfather_type: String,
    pub partner_id: String,
    /// The visitor came through a page open to visitors: the link said so (`opendoor=1`),
    /// or the page they signed up to return to is one ([`Attribution::open_door_return`]).
    pub open_door: bool,
}

fn clean(value: &str) -> String {
    let v = value.trim();
    if v.chars().count() > MAX_VALUE_CHARS || v.chars().any(char::is_control) {
        return String::new();
    }
    v.to_string()
}

fn flag(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes"
    )
}

impl Attribution {
    /// Reads the keys from a link's or a form's pairs; a key given twice keeps its last
    /// value, as a page reads a query.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Attribution {
        let mut a = Attribution::default();
        for (k, v) in pairs {
            match k {
                "utm_source" => a.utm_source = clean(v),
                "utm_medium" => a.utm_medium = clean(v),
                "utm_campaign" => a.utm_campaign = clean(v),
                "utm_content" => a.utm_content = clean(v),
                "utm_term" => a.utm_term = clean(v),
                "formid" => {
                    a.form_id = v
                        .trim()
                        .parse::<i64>()
                        .ok()
                        .filter(|n| (0..=i64::from(i32::MAX)).contains(n))
                }
                "godfathertype" => a.godfather_type = clean(v),
                "partnerid" => a.partner_id = clean(v),
                "opendoor" => a.open_door = flag(v),
                _ => {}
            }
        }
        a
    }

    /// Credits the partner of the visit (the from-partner cookie, an hour) when the link
    /// itself names none.
    pub fn with_from_partner(mut self, cookie: Option<&str>) -> Attribution {
        self.partner_id = partner::registration_partner(&self.partner_id, cookie);
        self
    }

    /// Marks the registration as open-door when the address it returns to is a page open
    /// to visitors (a sale or product page a search engine sent them to).
    pub fn open_door_return(mut self, return_url: &str) -> Attribution {
        let path = return_url.split(['?', '#']).next().unwrap_or_default();
        let open = path.starts_with('/')
            && crate::routes::resolve(path)
                .is_some_and(|r| r.access() == crate::routes::Access::OpenDoor);
        self.open_door |= open;
        self
    }
}

impl Attribution {
    /// What was given, as a link's query (no `?`): how a sign-in through a provider keeps
    /// it while the visitor is away; [`Attribution::from_query`] reads it back.
    pub fn to_query(&self) -> String {
        self.pairs()
            .iter()
            .map(|(k, v)| format!("{k}={}", crate::routes::encode_query_value(v)))
            .collect::<Vec<_>>()
            .join("&")
    }

    pub fn from_query(query: &str) -> Attribution {
        let pairs = crate::routes::query_pairs(query);
        Attribution::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// The keys given, with their values in the links' words.
    fn pairs(&self) -> Vec<(&'static str, String)> {
        let form = self.form_id.map(|n| n.to_string()).unwrap_or_default();
        [
            ("utm_source", self.utm_source.clone()),
            ("utm_medium", self.utm_medium.clone()),
            ("utm_campaign", self.utm_campaign.clone()),
            ("utm_content", self.utm_content.clone()),
            ("utm_term", self.utm_term.clone()),
            ("formid", form),
            ("godfathertype", self.godfather_type.clone()),
            ("partnerid", self.partner_id.clone()),
            (
                "opendoor",
                if self.open_door {
                    "1".into()
                } else {
                    String::new()
                },
            ),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect()
    }

    /// `key=value` pairs of what was given, in the links' words (an operator's summary).
    pub fn summary(&self) -> String {
        self.pairs()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// What the registrations report groups by, one column of [`Attribution`] each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dimension {
    Source,
    Medium,
    Campaign,
    Form,
    Partner,
    GodfatherType,
    OpenDoor,
}

impl Dimension {
    pub const ALL: [Dimension; 7] = [
        Dimension::Source,
        Dimension::Medium,
        Dimension::Campaign,
        Dimension::Form,
        Dimension::Partner,
        Dimension::GodfatherType,
        Dimension::OpenDoor,
    ];

    /// Its name in a report address (`?by=`).
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Source => "source",
            Dimension::Medium => "medium",
            Dimension::Campaign => "campaign",
            Dimension::Form => "form",
            Dimension::Partner => "partner",
            Dimension::GodfatherType => "godfathertype",
            Dimension::OpenDoor => "opendoor",
        }
    }

    /// An unknown name is the source, the report's default.
    pub fn parse(name: &str) -> Dimension {
        Dimension::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .unwrap_or(Dimension::Source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_gives_its_source_cleaned_and_bounded() {
        let long = "x".repeat(MAX_VALUE_CHARS + 1);
        let a = Attribution::from_pairs([
            ("utm_source", " newsletter "),
            ("utm_medium", "e\u{7}mail"),
            ("utm_campaign", long.as_str()),
            ("utm_term", "soldes d'été"),
            ("formid", "12"),
            ("godfathertype", "ambassadeur"),
            ("partnerid", "p-9"),
            ("opendoor", "TRUE"),
            ("other", "ignored"),
        ]);
        assert_eq!(a.utm_source, "newsletter");
        assert_eq!(a.utm_medium, "", "a control character drops the value");
        assert_eq!(a.utm_campaign, "", "too long is dropped, not cut");
        assert_eq!(a.utm_term, "soldes d'été");
        assert_eq!(a.form_id, Some(12));
        assert_eq!(a.godfather_type, "ambassadeur");
        assert_eq!(a.partner_id, "p-9");
        assert!(a.open_door);
        let exact = "é".repeat(MAX_VALUE_CHARS);
        assert_eq!(
            Attribution::from_pairs([("utm_content", exact.as_str())]).utm_content,
            exact,
            "the bound counts characters, not bytes"
        );
    }

    #[test]
    fn a_form_id_is_a_number_and_the_last_value_counts() {
        for bad in ["", "douze", "-1", "1.5", "99999999999", "0x10"] {
            assert_eq!(
                Attribution::from_pairs([("formid", bad)]).form_id,
                None,
                "{bad}"
            );
        }
        let a = Attribution::from_pairs([("utm_source", "a"), ("utm_source", "b")]);
        assert_eq!(a.utm_source, "b");
        assert!(!Attribution::from_pairs([("opendoor", "0")]).open_door);
        assert!(!Attribution::from_pairs([("opendoor", "peut-être")]).open_door);
    }

    #[test]
    fn returning_to_a_page_open_to_visitors_is_open_door() {
        let none = Attribution::default();
        assert!(
            none.clone()
                .open_door_return("/seo-product/robes/1001/robe-rouge/2001")
                .open_door
        );
        assert!(none.clone().open_door_return("/gr/find?q=robe").open_door);
        assert!(!none.clone().open_door_return("/gr/cart").open_door);
        assert!(!none.clone().open_door_return("").open_door);
        assert!(
            !none
                .clone()
                .open_door_return("https://evil.example/c/x/1/2")
                .open_door
        );
        let told = Attribution::from_pairs([("opendoor", "1")]);
        assert!(
            told.open_door_return("/gr/cart").open_door,
            "the link's word stays"
        );
    }

    #[test]
    fn a_summary_names_what_was_given() {
        let a =
            Attribution::from_pairs([("utm_source", "mail"), ("formid", "3"), ("opendoor", "1")]);
        assert_eq!(a.summary(), "utm_source=mail · formid=3 · opendoor=1");
        assert_eq!(Attribution::default().summary(), "");
    }

    #[test]
    fn a_source_survives_its_query_form() {
        let a = Attribution::from_pairs([
            ("utm_source", "news & co"),
            ("utm_term", "robe d'été=été"),
            ("formid", "12"),
            ("partnerid", "p+9"),
            ("opendoor", "1"),
        ]);
        assert_eq!(Attribution::from_query(&a.to_query()), a);
        assert_eq!(Attribution::from_query(""), Attribution::default());
    }

    #[test]
    fn report_dimensions_have_one_name_each() {
        for d in Dimension::ALL {
            assert_eq!(Dimension::parse(d.name()), d);
        }
        assert_eq!(Dimension::parse("DROP TABLE"), Dimension::Source);
    }
}

//! The notifier's emails (DSA Art. 16(4) and (5), Art. 17): the acknowledgement of a notice
//! and the statement of reasons of its decision, in the language of the site the notice
//! came from. Pure: the back office and the submit operation compose them here, once.
use crate::platform::mail::Mail;
use crate::site::i18n::{t, t_with};

/// What a notice is about, as the emails name it.
pub enum Object {
    Product { id: i64, name: String },
    Sale(i64),
    Shop,
}

/// The four decisions a moderator takes on a notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The product leaves the shop for good (its page answers 410).
    Remove,
    /// The product is hidden everywhere until a moderator restores it.
    Disable,
    /// The product stays in its sale but leaves search and the brand lists.
    Restrict,
    /// Nothing illegal or against the terms was found.
    NoAction,
}

impl Decision {
    pub const ALL: [Decision; 4] = [
        Decision::Remove,
        Decision::Disable,
        Decision::Restrict,
        Decision::NoAction,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Remove => "remove",
            Decision::Disable => "disable",
            Decision::Restrict => "restrict",
            Decision::NoAction => "none",
        }
    }

    pub fn parse(s: &str) -> Option<Decision> {
        Decision::ALL.into_iter().find(|d| d.as_str() == s)
    }

    /// The product's `moderation` after this decision, if it acts on the product.
    pub fn moderation(self) -> Option<&'static str> {
        match self {
            Decision::Remove => Some("removed"),
            Decision::Disable => Some("disabled"),
            Decision::Restrict => Some("restricted"),
            Decision::NoAction => None,
        }
    }
}

/// How strong a product's `moderation` is: a later, milder decision on another notice
/// does not undo a stronger one.
pub fn strength(moderation: &str) -> u8 {
    match moderation {
        "removed" => 3,
        "disabled" => 2,
        "restricted" => 1,
        _ => 0,
    }
}

/// The legal or contractual ground of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Illegal,
    Terms,
}

impl Ground {
    pub fn as_str(self) -> &'static str {
        match self {
            Ground::Illegal => "illegal",
            Ground::Terms => "terms",
        }
    }

    pub fn parse(s: &str) -> Option<Ground> {
        [Ground::Illegal, Ground::Terms]
            .into_iter()
            .find(|g| g.as_str() == s)
    }
}

fn object_text(lang: &str, object: &Object) -> String {
    match object {
        Object::Product { id, name } => t_with(
            lang,
            "moderation.object.product",
            &[("name", name), ("id", &id.to_string())],
        ),
        Object::Sale(id) => t_with(lang, "moderation.object.sale", &[("id", &id.to_string())]),
        Object::Shop => t(lang, "moderation.object.shop"),
    }
}

/// The site's language, date pattern and brand.
fn site_of(site_id: i64) -> &'static crate::site::Site {
    crate::site::by_id_or_default(u16::try_from(site_id).unwrap_or(1))
}

/// The acknowledgement of notice `id`, received at `at` from site `site_id`.
pub fn acknowledgement(id: i64, site_id: i64, at: i64, to: &str, object: &Object) -> Mail {
    let site = site_of(site_id);
    let id = id.to_string();
    let date = crate::site::format::date(site.date_format, at);
    Mail {
        to: to.to_string(),
        subject: t_with(site.lang, "moderation.ack.subject", &[("id", &id)]),
        body: t_with(
            site.lang,
            "moderation.ack.body",
            &[
                ("id", &id),
                ("date", &date),
                ("object", &object_text(site.lang, object)),
                ("brand", site.brand.name()),
            ],
        ),
    }
}

fn statement_subject_in(lang: &str, id: &str) -> String {
    t_with(lang, "moderation.decision.subject", &[("id", id)])
}

/// The subject of notice `id`'s statement of reasons (sent again word for word).
pub fn statement_subject(id: i64, site_id: i64) -> String {
    statement_subject_in(site_of(site_id).lang, &id.to_string())
}

/// What a moderator wrote for a decision.
pub struct Reasons<'a> {
    pub decision: Decision,
    pub ground: Ground,
    /// The facts and circumstances relied on.
    pub facts: &'a str,
    /// The law or the term of the conditions, and why it applies.
    pub explanation: &'a str,
}

/// The statement of reasons of the decision on notice `id` (received at `at`): the email,
/// whose body is also what the shop keeps.
pub fn statement(
    id: i64,
    site_id: i64,
    at: i64,
    to: &str,
    object: &Object,
    reasons: &Reasons<'_>,
) -> Mail {
    let site = site_of(site_id);
    let lang = site.lang;
    let id = id.to_string();
    Mail {
        to: to.to_string(),
        subject: statement_subject_in(lang, &id),
        body: t_with(
            lang,
            "moderation.decision.body",
            &[
                ("id", &id),
                ("date", &crate::site::format::date(site.date_format, at)),
                ("object", &object_text(lang, object)),
                (
                    "decision",
                    &t(
                        lang,
                        &format!("moderation.decision.{}", reasons.decision.as_str()),
                    ),
                ),
                ("facts", reasons.facts.trim()),
                (
                    "ground",
                    &t(
                        lang,
                        &format!("moderation.ground.{}", reasons.ground.as_str()),
                    ),
                ),
                ("explanation", reasons.explanation.trim()),
                ("redress", &t(lang, "moderation.redress")),
                ("brand", site.brand.name()),
            ],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_says_decision_facts_ground_and_redress_in_the_site_language() {
        let reasons = Reasons {
            decision: Decision::Remove,
            ground: Ground::Illegal,
            facts: "Logo identique à la marque déposée.",
            explanation: "Art. L.716-10 du Code de la propriété intellectuelle.",
        };
        let object = Object::Product {
            id: 100160,
            name: "Sac".into(),
        };
        let m = statement(7, 1, 1_800_000_000, "a@example.com", &object, &reasons);
        assert!(m.subject.contains("n° 7"), "{}", m.subject);
        for part in [
            "le produit est retiré de la boutique",
            "Logo identique",
            "contenu illicite au regard de la loi",
            "L.716-10",
            "article 21",
            "« Sac » (n° 100160)",
        ] {
            assert!(m.body.contains(part), "{part} missing from {}", m.body);
        }
        let de = statement(
            7,
            2,
            1_800_000_000,
            "a@example.com",
            &Object::Sale(5),
            &reasons,
        );
        assert!(de.body.contains("Rechtsbehelfe"), "{}", de.body);
    }

    #[test]
    fn a_milder_decision_is_weaker() {
        assert!(strength("removed") > strength("disabled"));
        assert!(strength("disabled") > strength("restricted"));
        assert!(strength("restricted") > strength(""));
        for d in Decision::ALL {
            assert_eq!(Decision::parse(d.as_str()), Some(d));
        }
    }
}

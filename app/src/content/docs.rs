//! The documents' texts (about us, privacy policy, general conditions), written per
//! language in `docs/<lang>.json`: the same sections in every language. Kept out of the
//! translation tables on purpose: those travel in every page with islands, these only in
//! their own page. Not in the browser build (the pages are plain server HTML).
use serde::Deserialize;

use super::rules::Document;

#[derive(Clone, Debug, Deserialize)]
pub struct Doc {
    pub title: String,
    pub description: String,
    pub intro: String,
    pub sections: Vec<DocSection>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct DocSection {
    pub id: String,
    pub heading: String,
    pub paragraphs: Vec<String>,
    /// Rows of a table (first row: the header), e.g. the cookies list.
    #[serde(default)]
    pub table: Vec<Vec<String>>,
}

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
#[derive(Clone, Debug, Deserialize)]
struct Docs {
    aboutus: Doc,
    privacypolicy: Doc,
    generalconditions: Doc,
}

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
fn source(lang: &str) -> &'static str {
    match lang {
        "de" => include_str!("docs/de.json"),
        "es" => include_str!("docs/es.json"),
        "it" => include_str!("docs/it.json"),
        "nl" => include_str!("docs/nl.json"),
        _ => include_str!("docs/fr.json"),
    }
}

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
static DOCS: std::sync::LazyLock<std::collections::HashMap<&'static str, Docs>> =
    std::sync::LazyLock::new(|| {
        crate::site::i18n::LANGS
            .iter()
            .map(|lang| {
                // Part of the build and checked by the tests below: a parse error is a bug.
                let docs: Docs =
                    serde_json::from_str(source(lang)).expect("content documents are valid JSON");
                (*lang, docs)
            })
            .collect()
    });

/// A document in a language (French for an unknown one); `None` in the browser build.
pub fn document(lang: &str, doc: Document) -> Option<Doc> {
    #[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
    {
        let docs = DOCS.get(crate::site::i18n::lang_of(lang))?;
        Some(match doc {
            Document::AboutUs => docs.aboutus.clone(),
            Document::PrivacyPolicy => docs.privacypolicy.clone(),
            Document::GeneralConditions => docs.generalconditions.clone(),
        })
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        let _ = (lang, doc);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::i18n::LANGS;

    #[test]
    fn every_language_has_the_same_sections_with_text() {
        for d in Document::ALL {
            let fr = document("fr", d).unwrap();
            assert!(fr.sections.len() >= 4, "{:?} has few sections", d);
            for lang in LANGS {
                let doc = document(lang, d).unwrap();
                let ids: Vec<&str> = doc.sections.iter().map(|s| s.id.as_str()).collect();
                let fr_ids: Vec<&str> = fr.sections.iter().map(|s| s.id.as_str()).collect();
                assert_eq!(ids, fr_ids, "{lang} {:?}", d);
                assert!(!doc.title.trim().is_empty() && !doc.intro.trim().is_empty());
                assert!(doc.description.len() <= 170, "{lang} {:?} description", d);
                for s in &doc.sections {
                    assert!(!s.heading.trim().is_empty(), "{lang} {}", s.id);
                    assert!(s.paragraphs.iter().all(|p| p.len() > 20), "{lang} {}", s.id);
                    let fr_rows = fr
                        .sections
                        .iter()
                        .find(|f| f.id == s.id)
                        .unwrap()
                        .table
                        .len();
                    assert_eq!(s.table.len(), fr_rows, "{lang} {} table", s.id);
                }
            }
        }
    }

    #[test]
    fn the_privacy_policy_names_every_cookie_and_consent_category() {
        use crate::onboarding::rules::{APP_BANNER_COOKIE, CONSENT_COOKIE};
        for lang in LANGS {
            let doc = document(lang, Document::PrivacyPolicy).unwrap();
            let text: String = doc
                .sections
                .iter()
                .flat_map(|s| s.paragraphs.iter().chain(s.table.iter().flatten()))
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            for cookie in [
                "rosace_session",
                "rosace_visitor",
                "XSRF-TOKEN",
                "site",
                CONSENT_COOKIE,
                APP_BANNER_COOKIE,
                "trv_departure_city",
            ] {
                assert!(text.contains(cookie), "{lang} lacks cookie {cookie}");
            }
            for category in crate::onboarding::rules::CONSENT_CATEGORIES {
                assert!(text.contains(category), "{lang} lacks {category}");
            }
        }
    }
}

//! Translations in fr, de, es, it, nl, compiled into the server. The browser gets only the
//! keys the page's browser code reads, as data in the page (`<script id="i18n">`, written
//! by the shell from [`page::PageKeys`]; read by the WASM, see `browser`), so the binary
//! carries no text and a new language or key costs it nothing.
//! The widget and area keys live beside them (`locales/dsa/`, `locales/travel/`,
//! `locales/travel-widgets/`, `locales/travel-catalog/`, `locales/travel-search/`, `locales/address/`,
//! `locales/wallet/`, `locales/account/`, `locales/orders/`, `locales/help/`,
//! `locales/rosedeals/`, `locales/aftersale/`, `locales/moderation/`) and are merged in.
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
use std::collections::HashMap;
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
use std::sync::LazyLock;

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
mod browser;
pub mod page;

pub use page::shown_later;
#[cfg(feature = "ssr")]
pub use page::{page_table_json_for, PageKeys, Widget};

pub const LANGS: [&str; 5] = ["fr", "de", "es", "it", "nl"];
pub const FALLBACK_LANG: &str = "fr";

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
type Table = HashMap<String, String>;

/// One language's files: the shared table, then each area's (the browser build has none).
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
macro_rules! locale_files {
    ($lang:literal) => {
        [
            include_str!(concat!("../../../locales/", $lang, ".json")),
            include_str!(concat!("../../../locales/dsa/", $lang, ".json")),
            include_str!(concat!("../../../locales/travel/", $lang, ".json")),
            include_str!(concat!("../../../locales/travel-widgets/", $lang, ".json")),
            include_str!(concat!("../../../locales/travel-catalog/", $lang, ".json")),
            include_str!(concat!("../../../locales/travel-search/", $lang, ".json")),
            include_str!(concat!("../../../locales/address/", $lang, ".json")),
            include_str!(concat!("../../../locales/wallet/", $lang, ".json")),
            include_str!(concat!("../../../locales/account/", $lang, ".json")),
            include_str!(concat!("../../../locales/orders/", $lang, ".json")),
            include_str!(concat!("../../../locales/help/", $lang, ".json")),
            include_str!(concat!("../../../locales/rosedeals/", $lang, ".json")),
            include_str!(concat!("../../../locales/aftersale/", $lang, ".json")),
            include_str!(concat!("../../../locales/content/", $lang, ".json")),
            include_str!(concat!("../../../locales/shell/", $lang, ".json")),
            include_str!(concat!("../../../locales/marketing/", $lang, ".json")),
            include_str!(concat!("../../../locales/social/", $lang, ".json")),
            include_str!(concat!("../../../locales/diagnostics/", $lang, ".json")),
            include_str!(concat!("../../../locales/moderation/", $lang, ".json")),
        ]
    };
}

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
fn sources(lang: &str) -> [&'static str; 19] {
    match lang {
        "de" => locale_files!("de"),
        "es" => locale_files!("es"),
        "it" => locale_files!("it"),
        "nl" => locale_files!("nl"),
        _ => locale_files!("fr"),
    }
}

#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
static TABLES: LazyLock<HashMap<&'static str, Table>> = LazyLock::new(|| {
    LANGS
        .iter()
        .map(|lang| {
            let mut table = Table::new();
            for src in sources(lang) {
                // The files are part of the build and checked by tests: a parse error is a bug.
                let part: Table = serde_json::from_str(src).expect("locale file is valid JSON");
                table.extend(part);
            }
            (*lang, table)
        })
        .collect()
});

/// The language of a locale or translation locale (`de-AT`, `nl-nl`), French when unknown.
pub fn lang_of(locale: &str) -> &'static str {
    let prefix = locale
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    LANGS
        .iter()
        .copied()
        .find(|l| *l == prefix)
        .unwrap_or(FALLBACK_LANG)
}

/// One language's table, without fallback.
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
pub fn table(lang: &str) -> &'static Table {
    &TABLES[lang_of(lang)]
}

/// The id of the script element holding the page's table.
pub const PAGE_TABLE_ID: &str = "i18n";

/// Looks a key up in the language, then in French; a missing key shows as itself.
pub fn t(lang: &str, key: &str) -> String {
    lookup(lang, key).unwrap_or(key).to_string()
}

/// The text of `key` in the language, else in French. On the server, a key that island
/// code looks up is recorded for the page's table ([`page`]); in the browser, the page's
/// table answers (it holds the language over French already), whatever `lang` asks.
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
pub fn lookup(lang: &str, key: &str) -> Option<&'static str> {
    let (_key, text) = table(lang)
        .get_key_value(key)
        .or_else(|| table(FALLBACK_LANG).get_key_value(key))?;
    #[cfg(feature = "ssr")]
    page::island_read(_key.as_str());
    Some(text)
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
pub fn lookup(_lang: &str, key: &str) -> Option<&'static str> {
    browser::lookup(key)
}

/// Like [`t`], replacing `{name}` placeholders.
pub fn t_with(lang: &str, key: &str, args: &[(&str, &str)]) -> String {
    let mut text = t(lang, key);
    for (name, value) in args {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    text
}

/// The merged table the translations endpoint serves: fallback first, then the language.
#[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
pub fn merged(lang: &str, fallback: &str) -> Table {
    let mut out = table(fallback).clone();
    out.extend(table(lang).iter().map(|(k, v)| (k.clone(), v.clone())));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_french_key() {
        let fr = table("fr");
        for lang in LANGS {
            let missing: Vec<&String> = fr
                .keys()
                .filter(|k| !table(lang).contains_key(*k))
                .collect();
            assert!(missing.is_empty(), "{lang} lacks {missing:?}");
            let extra: Vec<&String> = table(lang)
                .keys()
                .filter(|k| !fr.contains_key(*k))
                .collect();
            assert!(extra.is_empty(), "{lang} has keys French lacks: {extra:?}");
        }
    }

    #[test]
    fn no_translation_is_empty_and_placeholders_match_french() {
        let placeholders = |s: &str| -> Vec<String> {
            // Text before the first `{` never closes a placeholder.
            s.split('{')
                .filter(|chunk| chunk.contains('}'))
                .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                .collect()
        };
        for lang in LANGS {
            for (key, text) in table(lang) {
                assert!(!text.trim().is_empty(), "{lang}:{key} is empty");
                let mut a = placeholders(text);
                let mut b = placeholders(&table("fr")[key]);
                a.sort();
                b.sort();
                assert_eq!(a, b, "{lang}:{key} placeholders differ from French");
            }
        }
    }

    #[test]
    fn lookup_falls_back_to_french_then_the_key() {
        assert_eq!(lang_of("de-AT"), "de");
        assert_eq!(lang_of("nl-nl"), "nl");
        assert_eq!(lang_of("pt-PT"), "fr");
        assert_eq!(t("de", "no.such.key"), "no.such.key");
        assert_ne!(
            t("de", "header.search.placeholder"),
            t("fr", "header.search.placeholder")
        );
        assert!(t_with("fr", "sale.ends_on", &[("date", "01/02/2026")]).contains("01/02/2026"));
    }
}

//! The page's table: only the keys its browser code reads.
//!
//! While the server renders a page, one [`PageKeys`] in the render's context collects the
//! keys that the page's browser code reads from `<script id="i18n">`:
//! - the keys island code looks up. Each island's body starts with
//!   `crate::ui::hydrated::island_ready()`, which marks the island's owner
//!   ([`enter_island`]); [`super::lookup`] records a key when it runs under a marked owner
//!   (contexts reach child owners and the reactive closures rendered in them). The browser,
//!   hydrating the same code with the same props, reads the same keys. An island's
//!   `children` are server HTML that the browser never renders: [`island_children`].
//! - the keys an island shows only later in the browser (after a click, a tick, an answer
//!   of a call the server does not make): [`shown_later`], at the island's setup, beside the
//!   code that shows them. Error keys that come from an API answer are given by family: an
//!   error enum's keys, or `prefix.*`.
//! - the keys of a React widget, recorded where the server renders its element
//!   ([`Widget::rendered`]): the keys of its own bundled file, which it reads from the page.
//!
//! The shell writes the table once the whole body has rendered (`app.rs`), with
//! [`page_table_json_for`]. Whoever renders a page may provide a `PageKeys` in the render's
//! context beforehand (a page cache keeping the key set of a template, say): the shell
//! records into that one, so the caller reads the keys afterwards.
//!
//! Pages kept and served again carry the table of their render: the visitors' page cache
//! (the same page for every visitor) and the member templates (`ui::personal`), whose
//! header holes are rendered per request after the template's table was written: the
//! header renders them once for the stand-in inside the template's render, so their
//! islands' keys are recorded (`shell::header::record_holes_keys`).
//!
//! Checked by `server/tests/api/page_table.rs` against the islands actually on a page,
//! each hydrated again on the server from its props (`island_keys`), and in a browser
//! against the keys the WASM and the widgets really read (`end2end/tests/i18n.spec.ts`).
#[cfg(feature = "ssr")]
use std::collections::BTreeSet;
#[cfg(feature = "ssr")]
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

#[cfg(feature = "ssr")]
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::{table, FALLBACK_LANG};

/// The keys a page's browser code reads, recorded while the page renders. Cheap to clone
/// (one shared set); the keys are the tables' own `&'static str`.
#[cfg(feature = "ssr")]
#[derive(Clone, Debug, Default)]
pub struct PageKeys(Arc<Mutex<BTreeSet<&'static str>>>);

#[cfg(feature = "ssr")]
impl PageKeys {
    pub fn new() -> PageKeys {
        PageKeys::default()
    }

    /// The render's collector: the one in the context, else a new one, provided now. Call
    /// it at the root of the render (the shell does).
    pub fn for_render() -> PageKeys {
        use_context::<PageKeys>().unwrap_or_else(|| {
            let keys = PageKeys::new();
            provide_context(keys.clone());
            keys
        })
    }

    /// Records `key`, or with `prefix.*` every key under `prefix.`. A key that no table
    /// has is left out: it shows as itself anyway.
    pub fn record(&self, key: &str) {
        let mut set = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match key.strip_suffix('*').filter(|p| p.ends_with('.')) {
            Some(prefix) => {
                let keys = &*SORTED_KEYS;
                let start = keys.partition_point(|k| *k < prefix);
                set.extend(keys[start..].iter().take_while(|k| k.starts_with(prefix)));
            }
            None => {
                if let Some((key, _)) = table(FALLBACK_LANG).get_key_value(key) {
                    set.insert(key.as_str());
                }
            }
        }
    }

    /// The keys recorded so far, sorted, each once.
    pub fn keys(&self) -> Vec<&'static str> {
        let set = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        set.iter().copied().collect()
    }

    fn insert(&self, key: &'static str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key);
    }
}

/// Every key, sorted (French has them all: `every_language_has_every_french_key`).
#[cfg(feature = "ssr")]
static SORTED_KEYS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut keys: Vec<&'static str> = table(FALLBACK_LANG).keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
});

/// The mark of an island's owner (and, with `None`, of its `children`'s).
#[cfg(feature = "ssr")]
#[derive(Clone)]
struct IslandScope(Option<PageKeys>);

/// Marks the current owner as an island's: the keys looked up under it are the page's.
/// `crate::ui::hydrated::island_ready()` calls it first thing in every island.
pub fn enter_island() {
    #[cfg(feature = "ssr")]
    if let Some(keys) = use_context::<PageKeys>() {
        provide_context(IslandScope(Some(keys)));
    }
}

/// Called by [`super::lookup`] on the server with each key it finds.
#[cfg(feature = "ssr")]
pub(super) fn island_read(key: &'static str) {
    with_context::<IslandScope, _>(|scope| {
        if let Some(keys) = &scope.0 {
            keys.insert(key);
        }
    });
}

/// An island's `children`, rendered as the island's own part of the view: they are
/// server HTML the browser does not render, so the keys they look up are not the page's.
pub fn island_children(children: leptos::prelude::Children) -> leptos::prelude::AnyView {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::IntoAny;
        let owner = Owner::new();
        owner.with(|| {
            provide_context(IslandScope(None));
            // Holds the unmarked owner while the children render.
            leptos::tachys::reactive_graph::OwnedView::new(children()).into_any()
        })
    }
    #[cfg(not(feature = "ssr"))]
    children()
}

/// Keys an island shows only later in the browser: after a click, a tick, or the answer of
/// a call the server does not make (an API's error keys: give the family, an error enum's
/// keys or `prefix.*`). Call it at the island's setup, beside the code that shows them:
/// the server then ships them with the page. Outside an island it does nothing.
pub fn shown_later<'a>(keys: impl IntoIterator<Item = &'a str>) {
    #[cfg(feature = "ssr")]
    with_context::<IslandScope, _>(|scope| {
        if let Some(page) = &scope.0 {
            for key in keys {
                page.record(key);
            }
        }
    });
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    super::browser::shown_later(keys);
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    let _ = keys.into_iter();
}

/// The React widgets that read the page's table (`frontend-react/src/`). Each reads the
/// keys of its own bundled French file, its fallback, so the page carries exactly those.
#[cfg(feature = "ssr")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// `<rosace-dsa-form>`: the whole of `locales/dsa/`.
    DsaForm,
    /// `<travel-calendar>`: the `travel.calendar.` keys of `locales/travel-widgets/`.
    TravelCalendar,
    /// `<travel-map>`: the `travel.map.` keys of `locales/travel-widgets/`.
    TravelMap,
}

#[cfg(feature = "ssr")]
impl Widget {
    /// The keys the widget reads from the page.
    pub fn keys(self) -> Vec<&'static str> {
        let (file, prefix) = match self {
            Widget::DsaForm => (include_str!("../../../locales/dsa/fr.json"), ""),
            Widget::TravelCalendar => (
                include_str!("../../../locales/travel-widgets/fr.json"),
                "travel.calendar.",
            ),
            Widget::TravelMap => (
                include_str!("../../../locales/travel-widgets/fr.json"),
                "travel.map.",
            ),
        };
        let own: std::collections::HashMap<String, serde_json::Value> =
            serde_json::from_str(file).unwrap_or_default();
        let all = table(FALLBACK_LANG);
        let mut keys: Vec<&'static str> = own
            .keys()
            .filter(|k| k.starts_with(prefix))
            .filter_map(|k| all.get_key_value(k.as_str()).map(|(k, _)| k.as_str()))
            .collect();
        keys.sort_unstable();
        keys
    }

    /// Records the widget's keys for the page: call where the server renders its element.
    pub fn rendered(self) {
        static KEYS: LazyLock<[Vec<&'static str>; 3]> = LazyLock::new(|| {
            [
                Widget::DsaForm.keys(),
                Widget::TravelCalendar.keys(),
                Widget::TravelMap.keys(),
            ]
        });
        if let Some(page) = use_context::<PageKeys>() {
            for key in &KEYS[self as usize] {
                page.insert(key);
            }
        }
    }
}

/// The page's table as JSON for a `<script type="application/json">`: each of `keys` (give
/// them once each, as [`PageKeys::keys`] does) with its text in `lang`, else in French;
/// keys no table has are left out. `<` is escaped so no text can close the element. Built
/// straight from the static tables: nothing is cloned.
#[cfg(feature = "ssr")]
pub fn page_table_json_for<'a>(lang: &str, keys: impl IntoIterator<Item = &'a str>) -> String {
    let (own, fallback) = (table(lang), table(FALLBACK_LANG));
    let mut out = String::from("{");
    for key in keys {
        let Some(text) = own.get(key).or_else(|| fallback.get(key)) else {
            continue;
        };
        if out.len() > 1 {
            out.push(',');
        }
        push_json_string(&mut out, key);
        out.push(':');
        push_json_string(&mut out, text);
    }
    out.push('}');
    out
}

#[cfg(feature = "ssr")]
fn push_json_string(out: &mut String, s: &str) {
    let json = serde_json::to_string(s).unwrap_or_default();
    if json.contains('<') {
        out.push_str(&json.replace('<', "\\u003c"));
    } else {
        out.push_str(&json);
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_keys_given_in_the_language_over_french() {
        let json = page_table_json_for("de", ["favourite.add", "no.such.key", "header.cart"]);
        let table: std::collections::HashMap<String, String> =
            serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(table.len(), 2, "{json}");
        assert_eq!(
            table["favourite.add"],
            super::super::t("de", "favourite.add")
        );
        assert_eq!(table["header.cart"], super::super::t("de", "header.cart"));
        assert_eq!(page_table_json_for("fr", []), "{}");
    }

    #[test]
    fn no_text_can_close_the_script_element() {
        let mut out = String::new();
        push_json_string(&mut out, "a</script><b>");
        assert_eq!(out, r#""a\u003c/script>\u003cb>""#);
        let back: String = serde_json::from_str(&out).unwrap();
        assert_eq!(back, "a</script><b>");
    }

    #[test]
    fn keys_are_recorded_once_sorted_and_only_if_they_exist() {
        let keys = PageKeys::new();
        keys.record("header.cart");
        keys.record("favourite.add");
        keys.record("header.cart");
        keys.record("no.such.key");
        assert_eq!(keys.keys(), ["favourite.add", "header.cart"]);
        // A family: every key under the prefix, and nothing else.
        let family = PageKeys::new();
        family.record("home.countdown.*");
        let got = family.keys();
        assert!(got.contains(&"home.countdown.days"), "{got:?}");
        assert!(
            got.iter().all(|k| k.starts_with("home.countdown.")),
            "{got:?}"
        );
    }

    #[test]
    fn lookups_are_recorded_inside_islands_only() {
        let owner = Owner::new();
        owner.with(|| {
            let keys = PageKeys::for_render();
            let _ = super::super::t("fr", "header.cart");
            assert!(keys.keys().is_empty(), "outside an island");
            Owner::new().with(|| {
                enter_island();
                let _ = super::super::t("fr", "favourite.add");
                shown_later(["favourite.error", "home.countdown.*"]);
                // The island's children are not the island's.
                Owner::new().with(|| {
                    provide_context(IslandScope(None));
                    let _ = super::super::t("fr", "favourite.remove");
                    shown_later(["header.cart"]);
                });
            });
            let got = keys.keys();
            assert!(got.contains(&"favourite.add") && got.contains(&"favourite.error"));
            assert!(got.contains(&"home.countdown.ended"));
            assert!(!got.contains(&"favourite.remove") && !got.contains(&"header.cart"));
        });
    }

    #[test]
    fn widgets_read_their_own_files_keys() {
        let dsa = Widget::DsaForm.keys();
        assert!(
            dsa.contains(&"dsaform.submit") && dsa.contains(&"errors.general_retry.notification")
        );
        let calendar = Widget::TravelCalendar.keys();
        assert!(!calendar.is_empty() && calendar.iter().all(|k| k.starts_with("travel.calendar.")));
        // The server-rendered day list's keys live in another file: not the widget's.
        assert!(!calendar.contains(&"travel.calendar.list"));
        let map = Widget::TravelMap.keys();
        assert!(!map.is_empty() && map.iter().all(|k| k.starts_with("travel.map.")));
    }
}

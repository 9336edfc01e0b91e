//! The page's table in the browser: the `<script id="i18n">` of the page on show. An in-app
//! navigation (`pages/navigation.ts`) swaps the body, and the script with it, while the WASM
//! stays: the table is read again once the script it came from has left the document, so
//! each page's islands read their own page's keys (and language).
//!
//! Test hook: when the page defines `window.__i18nTrace = { read: Set, later: Set }` before
//! the WASM starts (end2end/tests/i18n.spec.ts), every key looked up is added to `read`
//! and every key given to `shown_later` to `later`. Without it nothing is noted.
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use wasm_bindgen::{JsCast, JsValue};

use super::PAGE_TABLE_ID;

#[derive(Default)]
struct Page {
    /// The script the table came from.
    script: Option<web_sys::Element>,
    table: HashMap<&'static str, &'static str>,
    trace: Option<Trace>,
}

struct Trace {
    read: js_sys::Set,
    later: js_sys::Set,
}

thread_local! {
    static PAGE: RefCell<Page> = RefCell::default();
    /// Each distinct key and text read from any page, kept once for the WASM's lifetime:
    /// the tables of the pages visited share them, so memory stays within one copy of the
    /// texts the visited pages used.
    static STRINGS: RefCell<HashSet<&'static str>> = RefCell::default();
}

fn intern(s: String) -> &'static str {
    STRINGS.with(|strings| {
        let mut strings = strings.borrow_mut();
        if let Some(kept) = strings.get(s.as_str()) {
            return *kept;
        }
        let kept: &'static str = Box::leak(s.into_boxed_str());
        strings.insert(kept);
        kept
    })
}

impl Page {
    /// Reads the table again when the script it came from left the document (or was not
    /// there yet). A page without a script keeps the last table.
    fn refresh(&mut self) {
        if self.script.as_ref().is_some_and(|s| s.is_connected()) {
            return;
        }
        let Some(script) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(PAGE_TABLE_ID))
        else {
            return;
        };
        let parsed: HashMap<String, String> = script
            .text_content()
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default();
        self.table = parsed
            .into_iter()
            .map(|(k, v)| (intern(k), intern(v)))
            .collect();
        self.script = Some(script);
        self.trace = Trace::of_window();
    }
}

impl Trace {
    fn of_window() -> Option<Trace> {
        let window: JsValue = web_sys::window()?.into();
        let trace = js_sys::Reflect::get(&window, &"__i18nTrace".into()).ok()?;
        let set = |name: &str| {
            js_sys::Reflect::get(&trace, &name.into())
                .ok()?
                .dyn_into::<js_sys::Set>()
                .ok()
        };
        Some(Trace {
            read: set("read")?,
            later: set("later")?,
        })
    }
}

pub fn lookup(key: &str) -> Option<&'static str> {
    PAGE.with(|page| {
        let mut page = page.borrow_mut();
        page.refresh();
        if let Some(trace) = &page.trace {
            trace.read.add(&JsValue::from_str(key));
        }
        page.table.get(key).copied()
    })
}

pub fn shown_later<'a>(keys: impl IntoIterator<Item = &'a str>) {
    PAGE.with(|page| {
        let mut page = page.borrow_mut();
        page.refresh();
        if let Some(trace) = &page.trace {
            for key in keys {
                trace.later.add(&JsValue::from_str(key));
            }
        }
    })
}

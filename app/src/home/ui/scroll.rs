//! Scroll position kept per home (spec 000 §2, §4 "Scroll tracking", §9 debounce 500 ms):
//! once hydrated, the page's vertical position is saved in session storage per home name,
//! 500 ms after scrolling stops, with the furthest position reached; coming back to that
//! home puts the page where it was. The furthest position is reported when the page goes
//! away (hidden, left, or a navigation inside the shop): the island sends
//! [`FURTHEST_EVENT`] on the window, and the diagnostics bundle, present only with the
//! performance consent, tracks it (frontend-react/src/diagnostics/index.ts).
use leptos::prelude::*;

/// The window event that carries `{ home, maxScroll }` (whole pixels) when a furthest
/// position not reported yet in this tab is left behind.
pub const FURTHEST_EVENT: &str = "rosace:home-scroll";

/// Session-storage key of a home's position (`.max`: the furthest one). Home names are
/// ASCII slugs; `to_lowercase` would ship the Unicode case tables in the WASM of every page.
pub fn storage_key(home: &str) -> String {
    format!("rosace.home.scroll.{}", home.trim().to_ascii_lowercase())
}

pub const DEBOUNCE_MS: u64 = 500;

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Sends [`FURTHEST_EVENT`] when the furthest position (the saved one, or `last`: the last
/// position seen on this home, whose debounced save may not have run yet) is beyond the
/// one last reported; the reported one is kept beside it (`….sent`), so a page hidden twice
/// reports once.
#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn report_furthest(key: &str, home: &str, last: i32) {
    let (Some(w), Some(s)) = (web_sys::window(), storage()) else {
        return;
    };
    let read = |k: &str| {
        s.get_item(k)
            .ok()
            .flatten()
            .and_then(|v| v.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let (max_key, sent_key) = (format!("{key}.max"), format!("{key}.sent"));
    let furthest = read(&max_key).max(last);
    if furthest <= read(&sent_key) {
        return;
    }
    let _ = s.set_item(&max_key, &furthest.to_string());
    let _ = s.set_item(&sent_key, &furthest.to_string());
    let detail = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&detail, &"home".into(), &home.into());
    let _ = js_sys::Reflect::set(&detail, &"maxScroll".into(), &furthest.into());
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&detail);
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(FURTHEST_EVENT, &init) {
        let _ = w.dispatch_event(&event);
    }
}

/// Saves `y` as the home's position, and as its furthest when it is.
#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn save(key: &str, y: i32) {
    let Some(s) = storage() else {
        return;
    };
    let _ = s.set_item(key, &y.to_string());
    let max_key = format!("{key}.max");
    let max = s
        .get_item(&max_key)
        .ok()
        .flatten()
        .and_then(|v| v.parse::<i32>().ok())
        .unwrap_or(0);
    if y > max {
        let _ = s.set_item(&max_key, &y.to_string());
    }
}

/// The page's vertical position in whole pixels: formatting an f64 would bring the float
/// printer (20 KB) into the WASM every page loads.
#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn scroll_y() -> i32 {
    web_sys::window()
        .and_then(|w| w.scroll_y().ok())
        .unwrap_or(0.0)
        .round() as i32
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn path() -> String {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default()
}

/// An island without markup: it only saves and restores the scroll position. Lazy: its
/// code (the report's event building) stays out of the module every page loads.
///
/// An island's listeners outlive its page: an in-app navigation swaps the page out without
/// disposing of the islands (`pages/navigation.ts`). So the keeper only records positions
/// while the address is its home's, and stops at the first navigation: before, the window's
/// scroll listener of a home left for a sale went on saving the sale's position as the
/// home's, and a later visit of the home opened at the top (or wherever the sale was).
#[island(lazy)]
pub fn ScrollKeeper(
    home: String,
    /// The home's scroll-depth setting (spec 000 §3): whether its furthest position is
    /// reported when left; it is kept for the way back either way.
    report: bool,
) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let key = storage_key(&home);
    Effect::new(move |_| {
        #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
        {
            let (key, home) = (key.clone(), home.clone());
            let restore = {
                let key = key.clone();
                move || {
                    let saved = storage()
                        .and_then(|s| s.get_item(&key).ok().flatten())
                        .and_then(|v| v.parse::<i32>().ok());
                    if let (Some(y), Some(w)) = (saved, web_sys::window()) {
                        if y > 0 {
                            w.scroll_to_with_x_and_y(0.0, f64::from(y));
                        }
                    }
                }
            };
            restore();
            // Once more after the router's own scroll handling of this navigation.
            request_animation_frame(restore);
            let here = {
                let page = path();
                move || path() == page
            };
            // The last position seen on this home, and the save waiting for scrolling to stop.
            let last: StoredValue<Option<i32>> = StoredValue::new(None);
            let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
            let flush = {
                let key = key.clone();
                move || {
                    if let Some(h) = pending.try_update_value(Option::take).flatten() {
                        h.clear();
                        if let Some(y) = last.get_value() {
                            save(&key, y);
                        }
                    }
                }
            };
            let report = {
                let key = key.clone();
                move || {
                    if report {
                        report_furthest(&key, &home, last.get_value().unwrap_or(0))
                    }
                }
            };
            let listener = window_event_listener(leptos::ev::scroll, {
                let (key, here) = (key.clone(), here.clone());
                move |_| {
                    if !here() {
                        return;
                    }
                    let y = scroll_y();
                    last.set_value(Some(y));
                    if let Some(h) = pending.get_value() {
                        h.clear();
                    }
                    let key = key.clone();
                    let handle = set_timeout_with_handle(
                        move || {
                            pending.set_value(None);
                            save(&key, y);
                        },
                        std::time::Duration::from_millis(DEBOUNCE_MS),
                    )
                    .ok();
                    pending.set_value(handle);
                }
            });
            // `visibilitychange` bubbles from the document to the window; a phone's browser
            // may skip `pagehide` when it drops a tab in the background.
            let hidden = window_event_listener_untyped("visibilitychange", {
                let (flush, report, here) = (flush.clone(), report.clone(), here.clone());
                move |_| {
                    if document().hidden() && here() {
                        flush();
                        report();
                    }
                }
            });
            let left = window_event_listener_untyped("pagehide", {
                let (flush, report) = (flush.clone(), report.clone());
                move |_| {
                    if here() {
                        flush();
                        report();
                    }
                }
            });
            let handles = StoredValue::new(Some((listener, hidden, left)));
            // Leaving the home inside the shop (no page unload): the position is kept and
            // reported, and this keeper stops (the page that replaced it has its own).
            let stop = move || {
                if let Some((listener, hidden, left)) =
                    handles.try_update_value(Option::take).flatten()
                {
                    flush();
                    report();
                    listener.remove();
                    hidden.remove();
                    left.remove();
                }
            };
            crate::ui::hydrated::on_page_swapped(stop.clone());
            on_cleanup(stop);
        }
    });
    #[cfg(not(all(feature = "hydrate", not(feature = "ssr"))))]
    let _ = (key, home, report);
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_key_per_home_whatever_its_case() {
        assert_eq!(super::storage_key("Summer"), "rosace.home.scroll.summer");
        assert_ne!(super::storage_key("default"), super::storage_key("summer"));
    }
}

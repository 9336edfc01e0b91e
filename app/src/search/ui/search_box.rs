//! The search form: a plain GET form to `/find`; hydrated, a combobox with suggestions.
use leptos::prelude::*;

use crate::client::CallError;
use crate::context::RequestCtx;
use crate::model::search::{SuggestionKind, Suggestions};
use crate::search::rules::{self, SuggestAction, SuggestionsState, MAX_QUERY_CHARS};

/// The search form: a plain GET form to `/find`; hydrated (an island), a combobox with
/// suggestions.
#[island(lazy)]
pub fn SearchBox(initial: String) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    // The suggestions list shows once the member focuses the field or types.
    crate::site::i18n::shown_later([
        "search.suggestions.generic",
        "search.kind.history",
        "search.kind.salesbanner",
        "search.kind.popular",
        "search.suggestions.loading",
        "search.suggestions.error",
    ]);
    let ctx = RequestCtx::current();
    let state = RwSignal::new(SuggestionsState {
        input_value: initial.clone(),
        ..Default::default()
    });
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let site_id = ctx.site_id;
    let ask = move |value: String| {
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Pending));
        let id = state.with_untracked(|s| s.request);
        leptos::task::spawn_local(async move {
            let action = match fetch_suggestions(&rules::suggestions_url(&value, site_id)).await {
                Ok(found) => SuggestAction::Fulfilled(id, found.suggestions),
                Err(e) => {
                    leptos::logging::warn!("Cannot fetch suggestions");
                    SuggestAction::Rejected(id, e.message_key())
                }
            };
            state.update(|s| *s = std::mem::take(s).apply(action));
        });
    };
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Input(value.clone())));
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || ask(value),
            std::time::Duration::from_millis(rules::DEBOUNCE_MS),
        );
        timer.set_value(handle.ok());
    };
    let on_focus = move |_| {
        let (value, empty) =
            state.with_untracked(|s| (s.input_value.clone(), s.suggestions.is_empty()));
        state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Open));
        if empty {
            ask(value);
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" => {
            ev.prevent_default();
            let step = if ev.key() == "ArrowDown" { 1 } else { -1 };
            state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Move(step)));
        }
        "Escape" => state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Close)),
        "Enter" => {
            if let Some(url) = state.with_untracked(|s| s.active_url()) {
                ev.prevent_default();
                go_to(&url);
            }
        }
        _ => {}
    };
    // Closing on blur waits a moment, so a click on an option lands first.
    let on_blur = move |_| {
        let _ = set_timeout_with_handle(
            move || state.update(|s| *s = std::mem::take(s).apply(SuggestAction::Close)),
            std::time::Duration::from_millis(150),
        );
    };
    let active_id = move || {
        state
            .with(|s| s.active)
            .map(|i| format!("search-option-{i}"))
    };
    let t = |k: &str| RequestCtx::current().t(k);
    let options = move || {
        state.with(|s| {
            s.suggestions
                .iter()
                .enumerate()
                .map(|(i, sug)| {
                    let selected = s.active == Some(i);
                    // ASCII: the full Unicode case tables would ship to every page.
                    let kind = format!("{:?}", sug.kind).to_ascii_lowercase();
                    let label = match sug.kind {
                        SuggestionKind::Generic => RequestCtx::current()
                            .t_with("search.suggestions.generic", &[("query", &sug.label)]),
                        _ => sug.label.clone(),
                    };
                    let badge = match sug.kind {
                        SuggestionKind::History => Some(t("search.kind.history")),
                        SuggestionKind::Salesbanner => Some(t("search.kind.salesbanner")),
                        SuggestionKind::Popular => Some(t("search.kind.popular")),
                        _ => None,
                    };
                    // No link inside an option (axe nested-interactive): the field keeps
                    // the focus, Enter follows the active option, a click its own (on
                    // mousedown, before the field's blur closes the list).
                    let url = sug.url.clone();
                    view! {
                        <li id=format!("search-option-{i}") role="option" class="suggestions__option"
                            class:suggestions__option--active=selected aria-selected=selected.to_string()
                            data-kind=kind data-url=sug.url.clone()
                            on:mousedown=move |ev| {
                                ev.prevent_default();
                                go_to(&url);
                            }>
                            {badge.map(|b| view! { <span class="suggestions__badge">{b}</span> })}
                            {label}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <form class="search-box" action="/find" method="get" role="search">
            <label class="visually-hidden" for="search-input">{ctx.t("search.label")}</label>
            <div class="search-box__field">
                <input
                    id="search-input"
                    class="search-box__input"
                    name="q"
                    type="text"
                    inputmode="search"
                    maxlength=MAX_QUERY_CHARS.to_string()
                    value=initial
                    placeholder=ctx.t("search.placeholder")
                    autocomplete="off"
                    role="combobox"
                    aria-autocomplete="list"
                    aria-controls="search-suggestions"
                    aria-expanded=move || state.with(|s| s.visible()).to_string()
                    aria-activedescendant=active_id
                    data-testid="search-input"
                    on:input=on_input
                    on:focus=on_focus
                    on:keydown=on_keydown
                    on:blur=on_blur
                />
                <ul
                    id="search-suggestions"
                    class="suggestions"
                    role="listbox"
                    aria-label=ctx.t("search.suggestions.label")
                    aria-busy=move || state.with(|s| s.loading).to_string()
                    hidden=move || !state.with(|s| s.visible())
                    data-testid="search-suggestions"
                >
                    {options}
                    {move || state.with(|s| s.loading && s.suggestions.is_empty()).then(|| view! {
                        <li class="suggestions__status" role="presentation">{t("search.suggestions.loading")}</li>
                    })}
                    {move || state.with(|s| s.error.is_some()).then(|| view! {
                        <li class="suggestions__status suggestions__status--error" role="presentation">{t("search.suggestions.error")}</li>
                    })}
                </ul>
            </div>
            <button class="search-box__submit button" type="submit">{ctx.t("search.submit")}</button>
        </form>
    }
}

fn go_to(url: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(w) = web_sys::window() {
        let _ = w.location().assign(url);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = url;
}

/// The suggestions call with its device header (spec 000 §7 Search).
#[cfg(feature = "hydrate")]
async fn fetch_suggestions(url: &str) -> Result<Suggestions, CallError> {
    let width = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(1024.0);
    let signal = crate::client::timeout_signal();
    let response = gloo_net::http::Request::get(url)
        .abort_signal(signal.as_ref())
        .header("x-vp-device", rules::device_for_width(width))
        .header("X-VP-Origin", "web")
        .header("Accept", "application/json")
        .send()
        .await
        .map_err(|e| crate::client::failed(&e, signal.as_ref()))?;
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    crate::client::outcome(status, body)?
        .json()
        .ok_or(CallError::Network)
}

#[cfg(not(feature = "hydrate"))]
async fn fetch_suggestions(url: &str) -> Result<Suggestions, CallError> {
    let _ = url;
    Err(CallError::Network)
}

//! The travel search form: a plain GET form to `/t/r` (complete without scripts). Hydrated,
//! the destination becomes a WAI-ARIA combobox with suggestions, exact dates and a month
//! clear each other (spec 001 §4), and the departure city is remembered in its cookie.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::DestinationSuggestion;
use crate::travel::api::search::{Choice, SearchForm};
use crate::travel::rules::search::{
    departure_cookie, remembered_city, ComboAction, Combobox, DEBOUNCE_MS, MAX_TEXT_CHARS,
    MIN_QUERY_CHARS, RESULTS_PATH,
};
use crate::travel::rules::{set_checkin_checkout, set_dates};

const INPUT_ID: &str = "trv-destination";
const LIST_ID: &str = "trv-destination-list";

fn option_id(i: usize) -> String {
    format!("trv-destination-option-{i}")
}

fn non_empty(v: String) -> Option<String> {
    (!v.trim().is_empty()).then(|| v.trim().to_string())
}

/// What a suggestion is, for its badge: its kind and offers.
fn badge(s: &DestinationSuggestion) -> String {
    let ctx = RequestCtx::current();
    let key = if s.count == 1 {
        "travel.search.suggestion.badge.one"
    } else {
        "travel.search.suggestion.badge"
    };
    ctx.t_with(
        key,
        &[
            ("kind", &ctx.t(&format!("travel.search.kind.{}", s.kind))),
            ("count", &s.count.to_string()),
        ],
    )
}

/// The search form, prefilled with `form.search`.
#[island(lazy)]
pub fn TravelSearchBox(form: SearchForm) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    // The suggestions' badges (`badge`), once the member types.
    crate::site::i18n::shown_later([
        "travel.search.suggestion.badge",
        "travel.search.suggestion.badge.one",
        "travel.search.kind.*",
    ]);
    let ctx = RequestCtx::current();
    let t = move |k: &str| RequestCtx::current().t(k);
    let SearchForm {
        search,
        departure_cities,
        trip_types,
        months,
        today,
        refused_checkout,
        refused_message,
    } = form;
    let combo = RwSignal::new(Combobox::new(&search));
    let when = RwSignal::new(search.clone());
    // A refused checkout day and its reason, until the member changes a date.
    let refused = RwSignal::new(
        (!refused_checkout.is_empty()).then_some((refused_checkout, refused_message)),
    );
    let city = RwSignal::new(search.departure_city_code.clone());
    let timer = StoredValue::new(None::<TimeoutHandle>);

    // A visitor's page may come from the shared cache: the remembered city is applied here.
    let codes: Vec<String> = departure_cities.iter().map(|c| c.value.clone()).collect();
    Effect::new(move |_| {
        if city.get_untracked().is_empty() {
            if let Some(code) = remembered_city(&browser::cookies(), &codes) {
                city.set(code);
            }
        }
    });

    let ask = move |text: String| {
        combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Pending));
        let id = combo.with_untracked(|c| c.request);
        leptos::task::spawn_local(async move {
            // The REST call, not the server function: the browser build then carries no
            // server-function client for this island.
            let url = format!(
                "/api/travel/v1/autocomplete?q={}",
                crate::routes::encode_query_value(&text)
            );
            let found = match crate::client::call("GET", &url, None).await {
                Ok(reply) => reply
                    .json::<Vec<DestinationSuggestion>>()
                    .unwrap_or_default(),
                Err(_) => {
                    leptos::logging::warn!("cannot fetch travel destinations");
                    Vec::new()
                }
            };
            combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Answer(id, found)));
        });
    };
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Input(text.clone())));
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        if text.trim().chars().count() >= MIN_QUERY_CHARS {
            let handle = set_timeout_with_handle(
                move || ask(text),
                std::time::Duration::from_millis(DEBOUNCE_MS),
            );
            timer.set_value(handle.ok());
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" => {
            ev.prevent_default();
            let step = if ev.key() == "ArrowDown" { 1 } else { -1 };
            let (empty, text) = combo.with_untracked(|c| (c.options.is_empty(), c.text.clone()));
            combo.update(|c| {
                c.open = true;
                *c = std::mem::take(c).apply(ComboAction::Move(step));
            });
            if empty && text.trim().chars().count() >= MIN_QUERY_CHARS {
                ask(text);
            }
        }
        "Enter" if combo.with_untracked(Combobox::has_active) => {
            // Enter chooses the active option; without one it submits the form.
            ev.prevent_default();
            combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Choose(None)));
        }
        "Escape" if combo.with_untracked(Combobox::expanded) => {
            ev.prevent_default();
            combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Close));
        }
        _ => {}
    };
    let close = move |_| combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Close));
    let expanded = move || combo.with(Combobox::expanded);
    let active_id = move || combo.with(|c| c.active.filter(|_| c.expanded()).map(option_id));
    let options = move || {
        combo.with(|c| {
            c.options
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let active = c.active == Some(i);
                    view! {
                        <li id=option_id(i) role="option" class="suggestions__option travel-search__option"
                            class:suggestions__option--active=active aria-selected=active.to_string()
                            data-kind=s.kind.clone() data-id=s.id.clone()
                            // Before the input's blur: the choice lands, the focus stays.
                            on:mousedown=move |ev| {
                                ev.prevent_default();
                                combo.update(|c| *c = std::mem::take(c).apply(ComboAction::Choose(Some(i))));
                            }>
                            <span class="travel-search__option-label">{s.label.clone()}</span>
                            <span class="suggestions__badge">{badge(s)}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };

    let value_of = |v: &Option<String>| v.clone().unwrap_or_default();
    let on_checkin = move |ev: leptos::ev::Event| {
        let v = non_empty(event_target_value(&ev));
        // The refused checkout is still in its field: it counts with the new checkin.
        let typed = refused.get_untracked().map(|(typed, _)| typed);
        refused.set(None);
        when.update(|s| {
            let out = s.checkout.clone().or(typed);
            set_checkin_checkout(s, v, out)
        });
    };
    let on_checkout = move |ev: leptos::ev::Event| {
        let v = non_empty(event_target_value(&ev));
        refused.set(None);
        when.update(|s| {
            let inn = s.checkin.clone();
            set_checkin_checkout(s, inn, v)
        });
    };
    let checkout_value = move || {
        refused
            .with(|r| r.as_ref().map(|(typed, _)| typed.clone()))
            .unwrap_or_else(|| when.with(|s| value_of(&s.checkout)))
    };
    const CHECKOUT_ERROR_ID: &str = "trv-checkout-error";
    let on_dates = move |ev: leptos::ev::Event| {
        let v = non_empty(event_target_value(&ev));
        when.update(|s| set_dates(s, v));
    };
    let on_city = move |ev: leptos::ev::Event| {
        let code = event_target_value(&ev);
        browser::set_cookie(&departure_cookie(&code));
        city.set(code);
    };

    let select = |name: &'static str,
                  id: &'static str,
                  any: String,
                  choices: Vec<Choice>,
                  chosen: String| {
        view! {
            <select id=id name=name class="travel-search__select">
                <option value="" selected=chosen.is_empty()>{any}</option>
                {choices
                    .into_iter()
                    .map(|c| {
                        let selected = c.value == chosen;
                        view! { <option value=c.value selected=selected>{c.label}</option> }
                    })
                    .collect_view()}
            </select>
        }
    };
    let initial_city = search.departure_city_code.clone();
    let city_options = departure_cities
        .into_iter()
        .map(|c| {
            let selected = c.value == initial_city;
            view! { <option value=c.value selected=selected>{c.label}</option> }
        })
        .collect_view();
    let hint_id = "trv-when-hint";

    view! {
        <form class="travel-search" action=RESULTS_PATH method="get" role="search"
            aria-label=ctx.t("travel.search.form.label") data-testid="travel-search"
            on:submit=move |_| browser::set_cookie(&departure_cookie(&city.get_untracked()))>
            <div class="travel-search__field travel-search__field--destination">
                <label for=INPUT_ID>{ctx.t("travel.search.destination")}</label>
                <div class="search-box__field">
                    <input id=INPUT_ID class="search-box__input" name="destinationText" type="text"
                        maxlength=MAX_TEXT_CHARS.to_string() autocomplete="off"
                        placeholder=ctx.t("travel.search.destination.placeholder")
                        value=search.destination_text.clone()
                        prop:value=move || combo.with(|c| c.text.clone())
                        role="combobox" aria-autocomplete="list" aria-controls=LIST_ID
                        aria-expanded=move || expanded().to_string()
                        aria-activedescendant=active_id
                        data-testid="travel-destination"
                        on:input=on_input on:keydown=on_keydown on:blur=close />
                    <input type="hidden" name="destinationId" data-testid="travel-destination-id"
                        value=move || combo.with(|c| c.chosen.clone().unwrap_or_default())
                        disabled=move || combo.with(|c| c.chosen.is_none()) />
                    <ul id=LIST_ID class="suggestions travel-search__suggestions" role="listbox"
                        aria-label=ctx.t("travel.search.suggestions.label")
                        hidden=move || !expanded() data-testid="travel-suggestions">
                        {options}
                    </ul>
                </div>
            </div>
            <div class="travel-search__field">
                <label for="trv-departure">{ctx.t("travel.search.departure_city")}</label>
                <select id="trv-departure" name="departureCityCode" class="travel-search__select"
                    prop:value=move || city.get() on:change=on_city data-testid="travel-departure">
                    <option value="" selected=initial_city.is_empty()>{ctx.t("travel.search.departure_city.any")}</option>
                    {city_options}
                </select>
            </div>
            <div class="travel-search__field">
                <label for="trv-trip-type">{ctx.t("travel.search.trip_type")}</label>
                {select("tripTypeId", "trv-trip-type", ctx.t("travel.search.trip_type.any"), trip_types, search.trip_type_id.clone())}
            </div>
            <fieldset class="travel-search__when" aria-describedby=hint_id>
                <legend>{ctx.t("travel.search.when")}</legend>
                <div class="travel-search__field">
                    <label for="trv-checkin">{ctx.t("travel.search.checkin")}</label>
                    <input id="trv-checkin" name="checkin" type="date" min=today.clone()
                        value=value_of(&search.checkin) prop:value=move || when.with(|s| value_of(&s.checkin))
                        on:change=on_checkin data-testid="travel-checkin" />
                </div>
                <div class="travel-search__field">
                    <label for="trv-checkout">{ctx.t("travel.search.checkout")}</label>
                    <input id="trv-checkout" name="checkout" type="date" min=today
                        value=checkout_value() prop:value=checkout_value
                        aria-invalid=move || refused.with(Option::is_some).then_some("true")
                        aria-describedby=move || refused.with(Option::is_some).then_some(CHECKOUT_ERROR_ID)
                        on:change=on_checkout data-testid="travel-checkout" />
                    {move || refused.get().map(|(_, message)| view! {
                        <p id=CHECKOUT_ERROR_ID class="error field__error" role="alert" data-testid="travel-search-error">{message}</p>
                    })}
                </div>
                <div class="travel-search__field">
                    <label for="trv-dates">{ctx.t("travel.search.dates")}</label>
                    <select id="trv-dates" name="dates" class="travel-search__select"
                        prop:value=move || when.with(|s| value_of(&s.dates))
                        on:change=on_dates data-testid="travel-dates">
                        <option value="" selected=search.dates.is_none()>{ctx.t("travel.search.dates.any")}</option>
                        {months
                            .into_iter()
                            .map(|m| {
                                let selected = search.dates.as_deref() == Some(m.value.as_str());
                                view! { <option value=m.value selected=selected>{m.label}</option> }
                            })
                            .collect_view()}
                    </select>
                </div>
                <div class="travel-search__field">
                    <label for="trv-flex">{ctx.t("travel.search.flex")}</label>
                    <select id="trv-flex" name="flex" class="travel-search__select" data-testid="travel-flex">
                        {crate::travel::ui::flex_options(&ctx, search.flex)}
                    </select>
                </div>
                <p id=hint_id class="travel-search__hint">{t("travel.search.when.hint")}</p>
            </fieldset>
            <button type="submit" class="button button--primary travel-search__submit" data-testid="travel-search-submit">
                {ctx.t("travel.search.submit")}
            </button>
        </form>
    }
}

/// The page's cookies, read and written by script (no `HtmlDocument` binding needed).
mod browser {
    #[cfg(feature = "hydrate")]
    fn document() -> Option<web_sys::Document> {
        web_sys::window().and_then(|w| w.document())
    }

    pub fn cookies() -> String {
        #[cfg(feature = "hydrate")]
        if let Some(doc) = document() {
            return js_sys::Reflect::get(&doc, &"cookie".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
        }
        String::new()
    }

    pub fn set_cookie(text: &str) {
        #[cfg(feature = "hydrate")]
        if let Some(doc) = document() {
            let _ = js_sys::Reflect::set(&doc, &"cookie".into(), &text.into());
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = text;
    }
}

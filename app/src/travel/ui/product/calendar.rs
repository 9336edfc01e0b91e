//! The configurator's price calendar: the `<travel-calendar>` React widget, and the same
//! days as a plain list of radio buttons (what shows without scripts, and an alternative
//! to the grid once they run).
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::CalendarDays;
use crate::travel::rules::Date;

/// A `YYYY-MM-DD` day in the site's date pattern (`DD/MM/YYYY`, `DD.MM.YYYY`, ...).
pub fn show_date(iso: &str) -> String {
    let pattern = RequestCtx::current().site().date_format;
    match Date::parse(iso) {
        Some(d) => {
            let s = d.to_string();
            pattern
                .replace("YYYY", &s[0..4])
                .replace("MM", &s[5..7])
                .replace("DD", &s[8..10])
        }
        None => iso.to_string(),
    }
}

/// The grid widget and the list. `on_pick` gets the chosen day; the widget's event
/// reaches it through the wrapper (the event bubbles out of the widget's shadow root).
#[component]
pub fn PriceCalendar(
    days: Signal<CalendarDays>,
    /// The same days as JSON, for the widget (kept as received: no serializer in the WASM).
    days_json: Signal<String>,
    selected: Signal<Option<String>>,
    loading: Signal<bool>,
    on_pick: Callback<String>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let wrapper = NodeRef::<leptos::html::Div>::new();
    #[cfg(feature = "hydrate")]
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = wrapper.get() else {
            return false;
        };
        listen_select(&el, on_pick);
        true
    });
    let month = move || {
        selected
            .get()
            .or_else(|| days.with(crate::travel::rules::lowest_day))
            .map(|d| d[..7].to_string())
            .unwrap_or_default()
    };
    let list = move || {
        let t = |k: &str| RequestCtx::current().t(k);
        days.with(|days| {
            days.iter()
            .map(|(date, day)| {
                let value = date.clone();
                let checked = {
                    let date = date.clone();
                    move || selected.get().as_deref() == Some(date.as_str())
                };
                let label = show_date(date);
                let price = RequestCtx::current().money(day.price);
                let out = day.is_out_of_stock;
                view! {
                    <li class="dates__day" class:dates__day--out=out class:dates__day--lowest=day.is_lowest>
                        <label>
                            <input type="radio" name="checkin" value=value.clone() disabled=out prop:checked=checked
                                on:change=move |_| on_pick.run(value.clone()) />
                            <span class="dates__date">{label}</span>" "
                            <span class="dates__price">{if out { t("travel.calendar.sold_out") } else { price }}</span>
                            {day.is_lowest.then(|| view! { " "<span class="badge">{t("travel.calendar.lowest")}</span> })}
                        </label>
                    </li>
                }
            })
            .collect_view()
        })
    };
    view! {
        // The widget's script loads as the calendar nears the viewport (`navigation.js`).
        <div class="trip__calendar" node_ref=wrapper aria-busy=move || loading.get().to_string()
            data-widget-visible="/widgets/travel-calendar.js">
            <travel-calendar
                days=move || days_json.get()
                selected=move || selected.get().unwrap_or_default()
                locale=site.locale
                currency=site.currency_code
                month=month
                data-testid="travel-calendar"
            ></travel-calendar>
            <details class="trip__dates">
                <summary>{ctx.t("travel.calendar.list")}</summary>
                <fieldset class="dates">
                    <legend class="visually-hidden">{ctx.t("travel.configurator.checkin")}</legend>
                    <ul class="dates__list" data-testid="travel-dates">{list}</ul>
                </fieldset>
            </details>
        </div>
    }
}

#[cfg(feature = "hydrate")]
fn listen_select(el: &web_sys::HtmlDivElement, on_pick: Callback<String>) {
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    let handler = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let date = js_sys::Reflect::get(&ev, &JsValue::from_str("detail"))
            .and_then(|d| js_sys::Reflect::get(&d, &JsValue::from_str("date")))
            .ok()
            .and_then(|v| v.as_string());
        if let Some(date) = date {
            on_pick.run(date);
        }
    });
    let _ = el.add_event_listener_with_callback(
        "travel-calendar-select",
        handler.as_ref().unchecked_ref(),
    );
    // The listener lives as long as the page's element.
    handler.forget();
}

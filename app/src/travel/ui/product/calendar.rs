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

/// The grid widget and the same days as radio buttons of the configurator form. The widget
/// (`name="checkin"`) checks the radio of the day picked and sends `change` from it, which
/// the enhancement script answers as for any change of the form.
#[component]
pub fn PriceCalendar(days: CalendarDays, selected: Option<String>) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::site::i18n::Widget::TravelCalendar.rendered();
    let ctx = RequestCtx::current();
    let site = ctx.site();
    let t = |k: &str| RequestCtx::current().t(k);
    let month = selected
        .clone()
        .or_else(|| crate::travel::rules::lowest_day(&days))
        .map(|d| d[..7].to_string())
        .unwrap_or_default();
    // The widget reads the calendar as the REST call returns it.
    let days_json = serde_json::to_string(&days).unwrap_or_else(|_| "{}".into());
    // No day to offer: said once, here (the widget would say it a second time).
    if days.is_empty() {
        return view! {
            <div class="trip__calendar">
                <p class="trip__empty" data-testid="travel-calendar-empty">{t("travel.calendar.empty")}</p>
            </div>
        }
        .into_any();
    }
    let list = days
        .iter()
        .map(|(date, day)| {
            let out = day.is_out_of_stock;
            let price = if out {
                t("travel.calendar.sold_out")
            } else {
                ctx.money(day.price)
            };
            view! {
                <li class="dates__day" class:dates__day--out=out class:dates__day--lowest=day.is_lowest>
                    <label>
                        <input type="radio" name="checkin" value=date.clone() disabled=out
                            checked=selected.as_deref() == Some(date.as_str()) />
                        <span class="dates__date">{show_date(date)}</span>" "
                        <span class="dates__price">{price}</span>
                        {day.is_lowest.then(|| view! { " "<span class="badge">{t("travel.calendar.lowest")}</span> })}
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        // The widget's script loads as the calendar nears the viewport (`pages/navigation.ts`).
        <div class="trip__calendar" data-widget-visible=crate::ui::assets::widget("travel-calendar")>
            <travel-calendar
                name="checkin"
                days=days_json
                selected=selected.clone().unwrap_or_default()
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
    .into_any()
}

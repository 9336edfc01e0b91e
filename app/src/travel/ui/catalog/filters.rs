//! The catalog's filter form (a plain GET form: checkboxes per facet value, the date
//! inputs, the flexible period) and the active filters with their remove links.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel_catalog::{Facet, OfferQuery};
use crate::travel::rules::{facet_title_key, month_label, Date, DATES_FACET};

/// A `YYYY-MM-DD` day in the site's date format (noon UTC, so no time zone moves it).
fn local_date(ctx: &RequestCtx, iso: &str) -> String {
    match Date::parse(iso) {
        Some(d) => ctx.date(
            Date {
                year: 1970,
                month: 1,
                day: 1,
            }
            .days_until(d)
                * 86_400
                + 43_200,
        ),
        None => iso.to_string(),
    }
}

fn month_text(ctx: &RequestCtx, month: &str) -> String {
    let lang = ctx.lang();
    month_label(month, |k| {
        crate::site::i18n::lookup(lang, k).map(String::from)
    })
    .unwrap_or_else(|| month.to_string())
}

#[component]
pub fn FilterForm(
    facets: Vec<Facet>,
    query: OfferQuery,
    action: String,
    reset: String,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let months = facets
        .iter()
        .find(|f| f.name == DATES_FACET)
        .map(|f| f.values.clone())
        .unwrap_or_default();
    let chosen_month = query.dates.clone().unwrap_or_default();
    let month_options = months
        .into_iter()
        .map(|m| {
            let label = format!("{} ({})", month_text(&ctx, &m.value), m.count);
            let selected = m.value == chosen_month;
            view! { <option value=m.value selected=selected>{label}</option> }
        })
        .collect_view();
    let groups = facets
        .into_iter()
        .filter(|f| f.name != DATES_FACET)
        .map(|f| {
            let options = f
                .values
                .iter()
                .map(|v| {
                    let id = format!("trv-f-{}-{}", f.name, crate::text::slug::slug(&v.value));
                    view! {
                        <li class="trv-filter__option">
                            <input type="checkbox" id=id.clone() name=f.name.clone() value=v.value.clone() checked=v.selected
                                data-testid=format!("filter-{}-{}", f.name, v.value) />
                            <label for=id>
                                {v.label.clone()}" "
                                <span class="trv-filter__count">{format!("({})", v.count)}</span>
                            </label>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="trv-filter" data-filter=f.name.clone() data-category=f.category.clone()>
                    <legend class="trv-filter__title">{ctx.t(&facet_title_key(&f.name))}</legend>
                    <ul class="trv-filter__options">{options}</ul>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <form method="get" action=action class="trv-filters" data-testid="travel-filters">
            <fieldset class="trv-filter trv-filter--dates" data-filter="dates" data-category="Dates">
                <legend class="trv-filter__title">{ctx.t("travel.filter.category.dates")}</legend>
                <div class="trv-filter__dates">
                    <label class="trv-filter__field">
                        <span>{ctx.t("travel.filter.checkin")}</span>
                        <input type="date" name="checkin" value=query.checkin.clone().unwrap_or_default() data-testid="filter-checkin" />
                    </label>
                    <label class="trv-filter__field">
                        <span>{ctx.t("travel.filter.checkout")}</span>
                        <input type="date" name="checkout" value=query.checkout.clone().unwrap_or_default() data-testid="filter-checkout" />
                    </label>
                </div>
                <label class="trv-filter__field">
                    <span>{ctx.t("travel.filter.flex")}</span>
                    <select name="flex" data-testid="filter-flex">
                        {crate::travel::ui::flex_options(&ctx, query.flex)}
                    </select>
                </label>
                <label class="trv-filter__field">
                    <span>{ctx.t("travel.filter.dates")}</span>
                    <select name="dates" data-testid="filter-dates">
                        <option value="">{ctx.t("travel.filter.dates.any")}</option>
                        {month_options}
                    </select>
                </label>
                <p class="trv-filter__hint">{ctx.t("travel.filter.dates.hint")}</p>
            </fieldset>
            {groups}
            <div class="trv-filters__actions">
                <button type="submit" class="button button--primary" data-testid="filters-apply">{ctx.t("travel.filter.apply")}</button>
                <a class="filter__reset" href=reset data-testid="filters-reset">{ctx.t("travel.filter.reset")}</a>
            </div>
        </form>
    }
}

/// The chosen filters, each a link to the state without it, and the reset link.
#[component]
pub fn ActiveFilters(
    links: Vec<(String, String, String)>,
    facets: Vec<Facet>,
    reset: String,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    if links.is_empty() {
        return ().into_any();
    }
    let items = links
        .into_iter()
        .map(|(name, value, href)| {
            let shown = match name.as_str() {
                "checkin" | "checkout" => local_date(&ctx, &value),
                DATES_FACET => month_text(&ctx, &value),
                _ => facets
                    .iter()
                    .find(|f| f.name == name)
                    .and_then(|f| f.values.iter().find(|v| v.value == value))
                    .map(|v| v.label.clone())
                    .unwrap_or_else(|| value.clone()),
            };
            let title_key = match name.as_str() {
                "checkin" | "checkout" => format!("travel.filter.{name}"),
                _ => facet_title_key(&name),
            };
            let text = ctx.t_with("travel.catalog.chip", &[("filter", &ctx.t(&title_key)), ("value", &shown)]);
            let label = ctx.t_with("travel.catalog.remove", &[("filter", &text)]);
            view! {
                <li>
                    <a class="trv-active__chip" href=href aria-label=label data-testid="remove-filter" data-filter=name>
                        {text}<span aria-hidden="true">" ×"</span>
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <nav class="trv-active" aria-label=ctx.t("travel.catalog.active")>
            <ul class="trv-active__list">
                {items}
                <li><a class="filter__reset" href=reset>{ctx.t("travel.filter.reset")}</a></li>
            </ul>
        </nav>
    }
    .into_any()
}

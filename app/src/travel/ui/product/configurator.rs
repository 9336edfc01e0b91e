//! The configurator (spec 001 §4–§5): package, departure city, duration, the price
//! calendar, the travellers and the benefits, with the price and what still blocks
//! booking. Server HTML: a GET form whose fields `travel::rules::form` reads back, so every
//! selection goes through the rules on the server. Without scripts the form is sent with
//! its "Update" button; the enhancement script (`data-enhance-auto`) sends it on each
//! change and swaps in the form the server answers. Why not an island: the rules and their views compiled to
//! WASM made the travel product the heaviest page (226 KB); as a form the page loads the
//! shared WASM only, and the configuration lives in the address (reload and share keep it).
use leptos::prelude::*;

use super::calendar::PriceCalendar;
use super::party::Party;
use crate::context::RequestCtx;
use crate::model::travel::{CalendarDays, Configurator as Flags, Participant, TravelProduct};
use crate::travel::rules::form::{duration_value, field, state_query};
use crate::travel::rules::StayLength;
use crate::travel::rules::{
    active_checkin, active_city, active_duration, booking_blocks, booking_total, checkout_date,
    checkout_query, party_value, quotation_price, AgeChange, BookingBlock, Configuration,
};

/// `action` is the page's path (the form comes back to it); `product_path` the product's
/// member address, which the checkout hangs from.
#[component]
pub fn ConfiguratorForm(
    product: TravelProduct,
    config: Configuration,
    days: CalendarDays,
    /// What this answer's age adjustment did to the travellers.
    age_changes: Vec<AgeChange>,
    action: String,
    product_path: String,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let t = |k: &str| RequestCtx::current().t(k);
    let package = config.package(&product);
    let city = package.and_then(|pk| active_city(pk, &config));
    let duration = package.and_then(|pk| active_duration(pk, &config));
    let checkin = active_checkin(&config, &days).map(str::to_string);
    let per_person = quotation_price(&product, &config, &days);
    let chosen: Vec<_> = package
        .map(|pk| {
            pk.configurator
                .benefits
                .iter()
                .filter(|b| config.benefits.contains(&b.id))
                .collect()
        })
        .unwrap_or_default();
    let profiles = package
        .map(|pk| pk.configurator.participants.profiles.as_slice())
        .unwrap_or_default();
    let total = booking_total(per_person, config.counts(), profiles, &chosen);
    let blocks = booking_blocks(&product, &config, &days);
    let shows = |flag: fn(&Flags) -> bool| package.is_some_and(|pk| flag(&pk.configurator));
    let stay_of = |d: &crate::model::travel::Duration| {
        duration_value(StayLength {
            days: d.day,
            nights: d.night,
        })
    };
    let shown_duration = duration.map(stay_of);

    // A field the page does not show as a picker still travels with the form.
    let hidden = |name: &'static str, value: Option<String>| {
        value.map(|value| view! { <input type="hidden" name=name value=value /> })
    };
    let packages = if product.packages.len() > 1 {
        let items = product
            .packages
            .iter()
            .map(|pk| Choice {
                kind: "radio",
                name: field::PACKAGE,
                value: pk.id.to_string(),
                label: pk.title.clone(),
                note: pk.is_out_of_stock.then(|| t("travel.calendar.sold_out")),
                out: pk.is_out_of_stock,
                checked: config.package_id == Some(pk.id),
            })
            .collect();
        Some(choices(
            "trip-packages",
            t("travel.configurator.package"),
            items,
        ))
        .into_any()
    } else {
        hidden(field::PACKAGE, config.package_id.map(|id| id.to_string())).into_any()
    };
    let cheapest = shows(|c| c.with_cheapest_toggle).then(|| {
        view! {
            <label class="config__cheapest">
                <input type="checkbox" name=field::CHEAPEST value="1" checked=config.cheapest data-testid="trip-cheapest" />
                " "{t("travel.configurator.cheapest")}
            </label>
        }
    });
    let cities = match package.map(|pk| &pk.configurator) {
        Some(conf) if conf.with_departure_cities && !conf.departure_cities.is_empty() => {
            let items = conf
                .departure_cities
                .iter()
                .map(|c| {
                    let note = if c.is_out_of_stock {
                        t("travel.calendar.sold_out")
                    } else {
                        ctx.t_with(
                            "travel.configurator.from",
                            &[("price", &ctx.money(c.price))],
                        )
                    };
                    Choice {
                        kind: "radio",
                        name: field::CITY,
                        value: c.id.to_string(),
                        label: c.value.clone(),
                        note: Some(note),
                        out: c.is_out_of_stock,
                        checked: city.map(|x| x.id) == Some(c.id),
                    }
                })
                .collect();
            Some(choices("trip-cities", t("travel.configurator.city"), items)).into_any()
        }
        _ => hidden(field::CITY, city.map(|c| c.id.to_string())).into_any(),
    };
    let durations = match (package, city) {
        (Some(pk), Some(c)) if pk.configurator.with_durations && !c.durations.is_empty() => {
            let items = c
                .durations
                .iter()
                .map(|d| Choice {
                    kind: "radio",
                    name: field::DURATION,
                    value: stay_of(d),
                    label: ctx.t_with(
                        "travel.configurator.stay",
                        &[
                            ("days", &d.day.to_string()),
                            ("nights", &d.night.to_string()),
                        ],
                    ),
                    note: None,
                    out: d.is_out_of_stock,
                    checked: duration.map(|x| x.id) == Some(d.id),
                })
                .collect();
            Some(choices(
                "trip-durations",
                t("travel.configurator.duration"),
                items,
            ))
            .into_any()
        }
        _ => hidden(field::DURATION, shown_duration.clone()).into_any(),
    };
    let calendar = if shows(|c| c.with_departure_dates) {
        view! {
            <section class="config__group config__group--calendar" aria-labelledby="trip-calendar-title">
                <h2 id="trip-calendar-title" class="config__title">{t("travel.configurator.checkin")}</h2>
                <PriceCalendar days=days.clone() selected=config.checkin.clone() />
            </section>
        }
        .into_any()
    } else {
        hidden(field::CHECKIN, config.checkin.clone()).into_any()
    };
    let party = shows(|c| c.with_participants).then(|| {
        let rules = package
            .map(|pk| pk.configurator.participants.clone())
            .unwrap_or_default();
        view! { <Party rules participants=config.participants.clone() checkin=checkin.clone() /> }
    });
    let benefits = package
        .map(|pk| &pk.configurator)
        .filter(|conf| conf.with_benefits && !conf.benefits.is_empty())
        .map(|conf| {
            let items = conf
                .benefits
                .iter()
                .map(|b| Choice {
                    kind: "checkbox",
                    name: field::BENEFITS,
                    value: b.id.to_string(),
                    label: b.label.clone(),
                    note: Some(format!("+{}", ctx.money(b.price))),
                    out: false,
                    checked: config.benefits.contains(&b.id),
                })
                .collect();
            choices("trip-benefits", t("travel.configurator.benefits"), items)
        });
    let dates = checkin.as_deref().map(|d| {
        let back = duration
            .and_then(|x| checkout_date(d, x.day))
            .unwrap_or_default();
        ctx.t_with(
            "travel.configurator.dates",
            &[
                ("checkin", &super::show_date(d)),
                ("checkout", &super::show_date(&back)),
            ],
        )
    });
    let book = if !ctx.is_member() {
        let back = crate::routes::login_redirect(&action);
        view! { <a class="button button--primary" href=back data-testid="trip-signin">{t("travel.configurator.signin")}</a> }.into_any()
    } else if blocks.is_empty() {
        let mut c = config.clone();
        c.pin_cheapest(&product);
        if c.checkin.is_none() {
            c.checkin = checkin.clone();
        }
        let href = format!("{product_path}/checkout?{}", checkout_query(&c));
        view! { <a class="button button--primary" href=href data-testid="trip-book">{t("travel.configurator.book")}</a> }.into_any()
    } else {
        view! {
            <button type="button" class="button button--primary" aria-disabled="true" aria-describedby="trip-blocks" data-testid="trip-book">
                {t("travel.configurator.book")}
            </button>
        }
        .into_any()
    };
    let block_list = (!blocks.is_empty()).then(|| {
        let items = blocks
            .into_iter()
            .map(|b| view! { <li data-field=b.field()>{block_text(b, &config.participants)}</li> })
            .collect_view();
        view! { <p class="config__blocked">{t("travel.configurator.blocked")}</p><ul class="config__blocks">{items}</ul> }
    });
    let age_notes = (!age_changes.is_empty()).then(|| {
        let items = age_changes
            .iter()
            .map(|c| view! { <li>{age_change_text(*c)}</li> })
            .collect_view();
        view! { <ul class="config__notes" data-testid="trip-age-changes">{items}</ul> }
    });
    let state_url = format!("{action}?{}", state_query(&config));
    let shown = |name: &str| format!("{}{name}", field::SHOWN);
    view! {
        <form class="config" method="get" action=action.clone() data-configurator="" data-state-url=state_url
            data-enhance="" data-enhance-auto="" data-enhance-region="configurator"
            aria-labelledby="trip-config-title" data-testid="trip-configurator">
            <h2 id="trip-config-title" class="config__heading">{t("travel.configurator.title")}</h2>
            // First in the form: the button Enter in a field presses. Without scripts it
            // sends the choices; with the enhancement script each change is sent at once.
            <button type="submit" class="button config__apply" data-enhance-apply="">{t("travel.configurator.apply")}</button>
            <input type="hidden" name=shown(field::PACKAGE) value=config.package_id.map(|id| id.to_string()).unwrap_or_default() />
            <input type="hidden" name=shown(field::CITY) value=city.map(|c| c.id.to_string()).unwrap_or_default() />
            <input type="hidden" name=shown(field::DURATION) value=shown_duration.unwrap_or_default() />
            <input type="hidden" name=shown(field::CHECKIN) value=config.checkin.clone().unwrap_or_default() />
            <input type="hidden" name=shown(field::CHEAPEST) value=if config.cheapest { "1" } else { "0" } />
            <input type="hidden" name=field::PARTY value=party_value(&config.participants) />
            {packages}
            {cheapest}
            {cities}
            {durations}
            {calendar}
            {party}
            {benefits}
            <div class="config__summary" data-enhance-announce="">
                {age_notes}
                <p class="config__dates" data-testid="trip-dates">{dates}</p>
                <p class="config__price">
                    <span>{t("travel.configurator.per_person")}</span>" "
                    <strong data-testid="trip-price">{ctx.money(per_person)}</strong>
                </p>
                <p class="config__total">
                    <span>{t("travel.configurator.total")}</span>" "
                    <strong data-testid="trip-total">{ctx.money(total)}</strong>
                </p>
                {book}
                <div id="trip-blocks" class="config__why" data-testid="trip-blocks">{block_list}</div>
            </div>
        </form>
        // Outside the form, which the script replaces: the summary is read out here.
        <p class="visually-hidden" role="status" data-config-status="" data-enhance-live=""></p>
    }
}

/// One option of a picker (package, city, duration, benefit).
struct Choice {
    kind: &'static str,
    name: &'static str,
    value: String,
    label: String,
    /// Shown after the label ("sold out", "from 499 €", "+25 €").
    note: Option<String>,
    /// Sold out: shown, not selectable.
    out: bool,
    checked: bool,
}

/// A picker: a titled group of radio buttons or checkboxes.
fn choices(testid: &'static str, legend: String, items: Vec<Choice>) -> impl IntoView {
    let items = items
        .into_iter()
        .map(|c| {
            view! {
                <li><label class="choice" class:choice--out=c.out>
                    <input type=c.kind name=c.name value=c.value disabled=c.out checked=c.checked />
                    <span>{c.label}</span>
                    {c.note.map(|n| view! { " "<span class="choice__note">{n}</span> })}
                </label></li>
            }
        })
        .collect_view();
    view! {
        <fieldset class="config__group" data-testid=testid>
            <legend>{legend}</legend>
            <ul class="choices">{items}</ul>
        </fieldset>
    }
}

/// What the age adjustment did to a traveller, named as the form names them ("Child 2").
fn age_change_text(change: AgeChange) -> String {
    use crate::model::travel::ParticipantType::{Adults, Babies, Children};
    let ctx = RequestCtx::current();
    let who = ctx.t_with(
        super::party::one_key(change.was),
        &[("n", &change.rank.to_string())],
    );
    let key = match change.now {
        Some(Adults) => "travel.party.now_adult",
        Some(Children) => "travel.party.now_child",
        Some(Babies) => "travel.party.now_baby",
        None => "travel.party.dropped",
    };
    ctx.t_with(key, &[("who", &who)])
}

/// The message of a block, naming the traveller or the minimum when it is about one.
pub fn block_text(block: BookingBlock, participants: &[Participant]) -> String {
    let (key, args) = block.message(participants);
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    RequestCtx::current().t_with(key, &args)
}

//! The configurator island (spec 001 §4–§5): package, departure city, duration, the price
//! calendar, the travellers and the benefits, with the price and what still blocks
//! booking. Every selection goes through `travel::rules::Configuration`; this file only
//! wires the controls to it.
use leptos::prelude::*;

use super::calendar::PriceCalendar;
use super::party::Party;
use crate::context::RequestCtx;
use crate::model::travel::{CalendarDays, Configurator, Package, TravelProduct};
use crate::travel::rules::{
    active_checkin, active_city, active_duration, booking_blocks, booking_total, checkout_date,
    checkout_query, quotation_price, BookingBlock, Configuration,
};

/// Runs `f` on the product and the selected package.
fn with_package<T>(
    product: StoredValue<TravelProduct>,
    config: RwSignal<Configuration>,
    f: impl FnOnce(&TravelProduct, Option<&Package>, &Configuration) -> T,
) -> T {
    product.with_value(|p| config.with(|c| f(p, c.package(p), c)))
}

/// `start` is [`super::tape::encode`]'s list: the product's packages, the starting
/// configuration and the calendar's JSON (not the whole product: see `tape.rs`).
#[island(lazy)]
pub fn Configurator(start: Vec<String>, product_path: String) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let super::tape::ConfiguratorStart {
        product,
        config: start,
        days_json: start_json,
    } = super::tape::decode(&start);
    let product = StoredValue::new(product);
    let config = RwSignal::new(start);
    let days = RwSignal::new(parse_days(&start_json).unwrap_or_default());
    let days_json = RwSignal::new(start_json);
    let loading = RwSignal::new(false);
    let days_failed = RwSignal::new(false);
    let t = |k: &str| RequestCtx::current().t(k);

    let duration_id = Memo::new(move |_| {
        with_package(product, config, |_, pk, c| {
            pk.and_then(|pk| active_duration(pk, c)).map(|d| d.id)
        })
    });
    // Another duration has another calendar; the first one came with the page.
    Effect::new(move |prev: Option<Option<i64>>| {
        let id = duration_id.get();
        if prev.is_some_and(|p| p != id) {
            load_days(id, days, days_json, loading, days_failed);
        }
        id
    });

    let checkin =
        Memo::new(move |_| config.with(|c| days.with(|d| active_checkin(c, d).map(String::from))));
    let per_person = Memo::new(move |_| {
        product.with_value(|p| config.with(|c| days.with(|d| quotation_price(p, c, d))))
    });
    let total = Memo::new(move |_| {
        let price = per_person.get();
        with_package(product, config, |_, pk, c| {
            let chosen: Vec<_> = pk
                .map(|pk| {
                    pk.configurator
                        .benefits
                        .iter()
                        .filter(|b| c.benefits.contains(&b.id))
                        .collect()
                })
                .unwrap_or_default();
            booking_total(price, c.counts(), &chosen)
        })
    });
    let blocks = Memo::new(move |_| {
        product.with_value(|p| config.with(|c| days.with(|d| booking_blocks(p, c, d))))
    });

    let pick_day = Callback::new(move |date: String| {
        config.update(|c| {
            product.with_value(|p| {
                c.pin_cheapest(p);
                let profiles = c
                    .package(p)
                    .map(|pk| pk.configurator.participants.profiles.clone())
                    .unwrap_or_default();
                c.select_checkin(date.clone());
                c.adjust_ages(&date, &profiles);
            })
        })
    });

    let packages = move || {
        product.with_value(|p| {
            (p.packages.len() > 1).then(|| {
                let items = p
                    .packages
                    .iter()
                    .map(|pk| {
                        let id = pk.id;
                        let out = pk.is_out_of_stock;
                        Choice {
                            kind: "radio",
                            name: "package",
                            value: id.to_string(),
                            label: pk.title.clone(),
                            note: out.then(|| t("travel.calendar.sold_out")),
                            out,
                            checked: Signal::derive(move || {
                                config.with(|c| c.package_id == Some(id))
                            }),
                            pick: Callback::new(move |_| {
                                config.update(|c| {
                                    product.with_value(|p| c.select_package(p, id));
                                })
                            }),
                        }
                    })
                    .collect();
                choices("trip-packages", t("travel.configurator.package"), items)
            })
        })
    };
    // Reads a flag of the selected package's configurator.
    let shows = move |flag: fn(&Configurator) -> bool| {
        with_package(product, config, |_, pk, _| {
            pk.is_some_and(|pk| flag(&pk.configurator))
        })
    };
    let cheapest = move || {
        shows(|c| c.with_cheapest_toggle).then(|| view! {
            <label class="config__cheapest">
                <input type="checkbox" data-testid="trip-cheapest"
                    prop:checked=move || config.with(|c| c.cheapest)
                    on:change=move |ev| { let on = event_target_checked(&ev); config.update(|c| c.set_cheapest(on)); } />
                " "{t("travel.configurator.cheapest")}
            </label>
        })
    };
    let cities = move || {
        let items = with_package(product, config, |_, pk, _| {
            let conf = &pk?.configurator;
            (conf.with_departure_cities && !conf.departure_cities.is_empty()).then(|| {
                conf.departure_cities
                    .iter()
                    .map(|city| {
                        let id = city.id;
                        let out = city.is_out_of_stock;
                        let ctx = RequestCtx::current();
                        let note = if out {
                            t("travel.calendar.sold_out")
                        } else {
                            ctx.t_with(
                                "travel.configurator.from",
                                &[("price", &ctx.money(city.price))],
                            )
                        };
                        Choice {
                            kind: "radio",
                            name: "city",
                            value: city.code.clone(),
                            label: city.value.clone(),
                            note: Some(note),
                            out,
                            checked: Signal::derive(move || {
                                with_package(product, config, |_, pk, c| {
                                    pk.and_then(|pk| active_city(pk, c)).map(|x| x.id) == Some(id)
                                })
                            }),
                            pick: Callback::new(move |_| config.update(|c| c.select_city(id))),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })?;
        Some(choices("trip-cities", t("travel.configurator.city"), items))
    };
    let durations = move || {
        let items = with_package(product, config, |_, pk, c| {
            let pk = pk?;
            let city = active_city(pk, c)?;
            (pk.configurator.with_durations && !city.durations.is_empty()).then(|| {
                city.durations
                    .iter()
                    .map(|d| {
                        let (day, night, id) = (d.day, d.night, d.id);
                        Choice {
                            kind: "radio",
                            name: "duration",
                            value: format!("{day}-{night}"),
                            label: RequestCtx::current().t_with(
                                "travel.configurator.stay",
                                &[("days", &day.to_string()), ("nights", &night.to_string())],
                            ),
                            note: None,
                            out: d.is_out_of_stock,
                            checked: Signal::derive(move || duration_id.get() == Some(id)),
                            pick: Callback::new(move |_| {
                                config.update(|c| c.select_duration(day, night))
                            }),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })?;
        Some(choices(
            "trip-durations",
            t("travel.configurator.duration"),
            items,
        ))
    };
    let calendar = move || {
        shows(|c| c.with_departure_dates).then(|| view! {
            <section class="config__group config__group--calendar" aria-labelledby="trip-calendar-title">
                <h2 id="trip-calendar-title" class="config__title">{t("travel.configurator.checkin")}</h2>
                <PriceCalendar days=days.into() days_json=days_json.into() selected=Signal::derive(move || config.with(|c| c.checkin.clone()))
                    loading=loading.into() on_pick=pick_day />
                {move || days_failed.get().then(|| view! {
                    <p class="error" role="alert">{t("travel.calendar.error")}" "
                        <button type="button" class="link-button" on:click=move |_| load_days(duration_id.get_untracked(), days, days_json, loading, days_failed)>{t("common.retry")}</button>
                    </p>
                })}
                {move || (!loading.get() && days.with(CalendarDays::is_empty)).then(|| view! {
                    <p class="trip__empty">{t("travel.calendar.empty")}</p>
                })}
            </section>
        })
    };
    let benefits = move || {
        let items = with_package(product, config, |_, pk, _| {
            let conf = &pk?.configurator;
            (conf.with_benefits && !conf.benefits.is_empty()).then(|| {
                conf.benefits
                    .iter()
                    .map(|b| {
                        let id = b.id;
                        Choice {
                            kind: "checkbox",
                            name: "benefits",
                            value: id.to_string(),
                            label: b.label.clone(),
                            note: Some(format!("+{}", RequestCtx::current().money(b.price))),
                            out: false,
                            checked: Signal::derive(move || {
                                config.with(|c| c.benefits.contains(&id))
                            }),
                            pick: Callback::new(move |_| config.update(|c| c.toggle_benefit(id))),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })?;
        Some(choices(
            "trip-benefits",
            t("travel.configurator.benefits"),
            items,
        ))
    };
    let party = move || {
        shows(|c| c.with_participants)
            .then(|| view! { <Party product config checkin=checkin.into() /> })
    };
    let summary = move || {
        let ctx = RequestCtx::current();
        let stay = with_package(product, config, |_, pk, c| {
            pk.and_then(|pk| active_duration(pk, c)).map(|d| d.day)
        });
        let dates = checkin.get().map(|d| {
            let back = stay.and_then(|n| checkout_date(&d, n)).unwrap_or_default();
            ctx.t_with(
                "travel.configurator.dates",
                &[
                    ("checkin", &super::show_date(&d)),
                    ("checkout", &super::show_date(&back)),
                ],
            )
        });
        view! {
            <p class="config__dates" data-testid="trip-dates">{dates}</p>
            <p class="config__price">
                <span>{ctx.t("travel.configurator.per_person")}</span>" "
                <strong data-testid="trip-price">{ctx.money(per_person.get())}</strong>
            </p>
            <p class="config__total">
                <span>{ctx.t("travel.configurator.total")}</span>" "
                <strong data-testid="trip-total">{ctx.money(total.get())}</strong>
            </p>
        }
    };
    let book = move || {
        let ctx = RequestCtx::current();
        let list = blocks.get();
        if !ctx.is_member() {
            let back = crate::routes::login_redirect(&product_path);
            return view! { <a class="button button--primary" href=back data-testid="trip-signin">{t("travel.configurator.signin")}</a> }.into_any();
        }
        if list.is_empty() {
            let mut c = config.get();
            product.with_value(|p| c.pin_cheapest(p));
            if c.checkin.is_none() {
                c.checkin = checkin.get();
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
        }
    };
    let block_list = move || {
        let list = blocks.get();
        (!list.is_empty()).then(|| {
            let items = list
                .into_iter()
                .map(|b| view! { <li data-field=b.field()>{block_text(b)}</li> })
                .collect_view();
            view! { <p class="config__blocked">{t("travel.configurator.blocked")}</p><ul class="config__blocks">{items}</ul> }
        })
    };
    view! {
        <section class="config" aria-labelledby="trip-config-title" data-testid="trip-configurator">
            <h2 id="trip-config-title" class="config__heading">{t("travel.configurator.title")}</h2>
            {packages}
            {cheapest}
            {cities}
            {durations}
            {calendar}
            {party}
            {benefits}
            <div class="config__summary">
                {summary}
                {book}
                <div id="trip-blocks" class="config__why" aria-live="polite" data-testid="trip-blocks">{block_list}</div>
            </div>
        </section>
    }
}

/// One option of a picker (package, city, duration, benefit). The four pickers share this
/// shape and [`choices`], so their markup is one piece of code in the WASM, not four.
struct Choice {
    kind: &'static str,
    name: &'static str,
    value: String,
    label: String,
    /// Shown after the label ("sold out", "from 499 €", "+25 €").
    note: Option<String>,
    /// Sold out: shown, not selectable.
    out: bool,
    checked: Signal<bool>,
    pick: Callback<()>,
}

/// A picker: a titled group of radio buttons or checkboxes.
fn choices(testid: &'static str, legend: String, items: Vec<Choice>) -> impl IntoView {
    let items = items
        .into_iter()
        .map(|c| {
            let (checked, pick) = (c.checked, c.pick);
            view! {
                <li><label class="choice" class:choice--out=c.out>
                    <input type=c.kind name=c.name value=c.value disabled=c.out
                        prop:checked=move || checked.get()
                        on:change=move |_| pick.run(()) />
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

/// The message of a block, naming the traveller or the minimum when it is about one.
pub fn block_text(block: BookingBlock) -> String {
    let args = block.message_args();
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    RequestCtx::current().t_with(block.message_key(), &args)
}

/// A calendar as the REST call (and the island's props) carry it.
fn parse_days(json: &str) -> Option<CalendarDays> {
    serde_json::from_str(json).ok()
}

/// Fetches the calendar of a duration (none: no days), keeping its JSON for the widget.
fn load_days(
    duration_id: Option<i64>,
    days: RwSignal<CalendarDays>,
    days_json: RwSignal<String>,
    loading: RwSignal<bool>,
    failed: RwSignal<bool>,
) {
    let Some(id) = duration_id else {
        days.set(CalendarDays::new());
        days_json.set("{}".into());
        return;
    };
    loading.set(true);
    failed.set(false);
    leptos::task::spawn_local(async move {
        // The REST call, not the server function: the browser build then carries no
        // server-function client for this island.
        let url = format!("/api/travel/v1/durations/{id}/dates");
        let reply = crate::client::call("GET", &url, None).await;
        match reply
            .ok()
            .and_then(|r| parse_days(&r.body).map(|d| (d, r.body)))
        {
            Some((d, json)) => {
                days.set(d);
                days_json.set(json);
            }
            None => {
                leptos::logging::warn!("Cannot fetch travel dates");
                failed.set(true);
            }
        }
        loading.set(false);
    });
}

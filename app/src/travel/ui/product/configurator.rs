//! The configurator island (spec 001 §4–§5): package, departure city, duration, the price
//! calendar, the travellers and the benefits, with the price and what still blocks
//! booking. Every selection goes through `travel::rules::Configuration`; this file only
//! wires the controls to it.
use leptos::prelude::*;

use super::calendar::PriceCalendar;
use super::party::Party;
use crate::context::RequestCtx;
use crate::model::travel::{CalendarDays, Package, TravelProduct};
use crate::travel::api::product::TravelProductLoad;
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

#[island(lazy)]
pub fn Configurator(load: TravelProductLoad, product_path: String) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let TravelProductLoad {
        product,
        config: start,
        days: start_days,
    } = load;
    let product = StoredValue::new(product);
    let config = RwSignal::new(start);
    let days = RwSignal::new(start_days);
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
            load_days(id, days, loading, days_failed);
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

    let configurator = move || {
        with_package(product, config, |_, pk, _| {
            pk.map(|pk| pk.configurator.clone())
        })
    };
    let packages = move || {
        product.with_value(|p| {
            (p.packages.len() > 1).then(|| {
                let items = p
                    .packages
                    .iter()
                    .map(|pk| {
                        let id = pk.id;
                        let out = pk.is_out_of_stock;
                        view! {
                            <li><label class="choice" class:choice--out=out>
                                <input type="radio" name="package" value=id.to_string() disabled=out
                                    prop:checked=move || config.with(|c| c.package_id == Some(id))
                                    on:change=move |_| config.update(|c| { product.with_value(|p| c.select_package(p, id)); }) />
                                <span>{pk.title.clone()}</span>
                                {out.then(|| view! { " "<span class="choice__note">{t("travel.calendar.sold_out")}</span> })}
                            </label></li>
                        }
                    })
                    .collect_view();
                view! {
                    <fieldset class="config__group" data-testid="trip-packages">
                        <legend>{t("travel.configurator.package")}</legend>
                        <ul class="choices">{items}</ul>
                    </fieldset>
                }
            })
        })
    };
    let cheapest = move || {
        configurator().filter(|c| c.with_cheapest_toggle).map(|_| view! {
            <label class="config__cheapest">
                <input type="checkbox" data-testid="trip-cheapest"
                    prop:checked=move || config.with(|c| c.cheapest)
                    on:change=move |ev| { let on = event_target_checked(&ev); config.update(|c| c.set_cheapest(on)); } />
                " "{t("travel.configurator.cheapest")}
            </label>
        })
    };
    let cities = move || {
        let conf = configurator()?;
        (conf.with_departure_cities && !conf.departure_cities.is_empty()).then(|| {
            let items = conf
                .departure_cities
                .into_iter()
                .map(|city| {
                    let id = city.id;
                    let out = city.is_out_of_stock;
                    let active = move || {
                        with_package(product, config, |_, pk, c| {
                            pk.and_then(|pk| active_city(pk, c)).map(|x| x.id) == Some(id)
                        })
                    };
                    view! {
                        <li><label class="choice" class:choice--out=out>
                            <input type="radio" name="city" value=city.code.clone() disabled=out prop:checked=active
                                on:change=move |_| config.update(|c| c.select_city(id)) />
                            <span>{city.value.clone()}</span>" "
                            <span class="choice__note">{if out { t("travel.calendar.sold_out") } else {
                                RequestCtx::current().t_with("travel.configurator.from", &[("price", &RequestCtx::current().money(city.price))])
                            }}</span>
                        </label></li>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="config__group" data-testid="trip-cities">
                    <legend>{t("travel.configurator.city")}</legend>
                    <ul class="choices">{items}</ul>
                </fieldset>
            }
        })
    };
    let durations = move || {
        let conf = configurator()?;
        let city = with_package(product, config, |_, pk, c| {
            pk.and_then(|pk| active_city(pk, c)).cloned()
        })?;
        (conf.with_durations && !city.durations.is_empty()).then(|| {
            let items = city
                .durations
                .into_iter()
                .map(|d| {
                    let (day, night, id) = (d.day, d.night, d.id);
                    let out = d.is_out_of_stock;
                    let label = RequestCtx::current().t_with(
                        "travel.configurator.stay",
                        &[("days", &day.to_string()), ("nights", &night.to_string())],
                    );
                    view! {
                        <li><label class="choice" class:choice--out=out>
                            <input type="radio" name="duration" value=format!("{day}-{night}") disabled=out
                                prop:checked=move || duration_id.get() == Some(id)
                                on:change=move |_| config.update(|c| c.select_duration(day, night)) />
                            <span>{label}</span>
                        </label></li>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="config__group" data-testid="trip-durations">
                    <legend>{t("travel.configurator.duration")}</legend>
                    <ul class="choices">{items}</ul>
                </fieldset>
            }
        })
    };
    let calendar = move || {
        configurator().filter(|c| c.with_departure_dates).map(|_| view! {
            <section class="config__group config__group--calendar" aria-labelledby="trip-calendar-title">
                <h2 id="trip-calendar-title" class="config__title">{t("travel.configurator.checkin")}</h2>
                <PriceCalendar days=days.into() selected=Signal::derive(move || config.with(|c| c.checkin.clone()))
                    loading=loading.into() on_pick=pick_day />
                {move || days_failed.get().then(|| view! {
                    <p class="error" role="alert">{t("travel.calendar.error")}" "
                        <button type="button" class="link-button" on:click=move |_| load_days(duration_id.get_untracked(), days, loading, days_failed)>{t("common.retry")}</button>
                    </p>
                })}
                {move || (!loading.get() && days.with(CalendarDays::is_empty)).then(|| view! {
                    <p class="trip__empty">{t("travel.calendar.empty")}</p>
                })}
            </section>
        })
    };
    let benefits = move || {
        let conf = configurator()?;
        (conf.with_benefits && !conf.benefits.is_empty()).then(|| {
            let items = conf
                .benefits
                .into_iter()
                .map(|b| {
                    let id = b.id;
                    let price = RequestCtx::current().money(b.price);
                    view! {
                        <li><label class="choice">
                            <input type="checkbox" name="benefits" value=id.to_string()
                                prop:checked=move || config.with(|c| c.benefits.contains(&id))
                                on:change=move |_| config.update(|c| c.toggle_benefit(id)) />
                            <span>{b.label.clone()}</span>" "<span class="choice__note">{format!("+{price}")}</span>
                        </label></li>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="config__group" data-testid="trip-benefits">
                    <legend>{t("travel.configurator.benefits")}</legend>
                    <ul class="choices">{items}</ul>
                </fieldset>
            }
        })
    };
    let party = move || {
        configurator()
            .filter(|c| c.with_participants)
            .map(|c| view! { <Party rules=c.participants config checkin=checkin.into() /> })
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

/// The message of a block, naming the traveller or the minimum when it is about one.
pub fn block_text(block: BookingBlock) -> String {
    let args = block.message_args();
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    RequestCtx::current().t_with(block.message_key(), &args)
}

/// Fetches the calendar of a duration (none: no days).
fn load_days(
    duration_id: Option<i64>,
    days: RwSignal<CalendarDays>,
    loading: RwSignal<bool>,
    failed: RwSignal<bool>,
) {
    let Some(id) = duration_id else {
        days.set(CalendarDays::new());
        return;
    };
    loading.set(true);
    failed.set(false);
    leptos::task::spawn_local(async move {
        // The REST call, not the server function: the browser build then carries no
        // server-function client for this island.
        let url = format!("/api/travel/v1/durations/{id}/dates");
        match crate::client::call("GET", &url, None)
            .await
            .map(|r| r.json::<CalendarDays>())
        {
            Ok(Some(d)) => days.set(d),
            Ok(None) | Err(_) => {
                leptos::logging::warn!("Cannot fetch travel dates");
                failed.set(true);
            }
        }
        loading.set(false);
    });
}

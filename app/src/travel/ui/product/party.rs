//! The travellers in the configurator: a counter per profile (adults, children, babies) as
//! the rules table allows, and a birthday for each child and baby, bounded by their age
//! window on the travel date.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::{ParticipantProfile, ParticipantRules, ParticipantType, TravelProduct};
use crate::travel::rules::{birthday_bounds, can_add, can_remove, Configuration};

fn type_key(kind: ParticipantType) -> &'static str {
    match kind {
        ParticipantType::Adults => "travel.party.adults",
        ParticipantType::Children => "travel.party.children",
        ParticipantType::Babies => "travel.party.babies",
    }
}

fn one_key(kind: ParticipantType) -> &'static str {
    match kind {
        ParticipantType::Adults => "travel.party.adult_n",
        ParticipantType::Children => "travel.party.child_n",
        ParticipantType::Babies => "travel.party.baby_n",
    }
}

/// Runs `f` on the party rules of the configuration's package (none: no rules). Read from
/// the product rather than copied, so the island carries no code to clone the rules table.
fn with_rules<T>(
    product: StoredValue<TravelProduct>,
    c: &Configuration,
    f: impl FnOnce(&ParticipantRules) -> T,
) -> T {
    product.with_value(|p| match c.package(p) {
        Some(pk) => f(&pk.configurator.participants),
        None => f(&ParticipantRules::default()),
    })
}

#[component]
pub fn Party(
    product: StoredValue<TravelProduct>,
    config: RwSignal<Configuration>,
    checkin: Signal<Option<String>>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let profiles: Vec<ParticipantProfile> = config.with_untracked(|c| {
        with_rules(product, c, |r| {
            if r.profiles.is_empty() {
                vec![ParticipantProfile {
                    kind: ParticipantType::Adults,
                    min_age: 18,
                    max_age: 120,
                }]
            } else {
                r.profiles.clone()
            }
        })
    });
    let counters = profiles
        .iter()
        .map(|profile| {
            let kind = profile.kind;
            let ctx = RequestCtx::current();
            let name = ctx.t(type_key(kind));
            let ages = ctx.t_with(
                "travel.party.ages",
                &[("min", &profile.min_age.to_string()), ("max", &profile.max_age.to_string())],
            );
            let count = move || config.with(|c| c.counts().get(kind));
            let addable = move || config.with(|c| with_rules(product, c, |r| can_add(r, c.counts(), kind)));
            let removable =
                move || config.with(|c| with_rules(product, c, |r| can_remove(r, c.counts(), kind)));
            let add_label = ctx.t_with("travel.party.add", &[("type", &name)]);
            let remove_label = ctx.t_with("travel.party.remove", &[("type", &name)]);
            let testid = format!("party-{}", type_key(kind).rsplit('.').next().unwrap_or(""));
            view! {
                <li class="party__row" data-testid=testid>
                    <span class="party__name">{name}" "<span class="party__ages">{ages}</span></span>
                    <span class="party__counter">
                        <button type="button" class="party__step" aria-label=remove_label
                            disabled=move || !removable()
                            on:click=move |_| config.update(|c| { product.with_value(|p| c.package(p).map(|pk| c.remove_participant(&pk.configurator.participants, kind))); })>"−"</button>
                        <output class="party__count" aria-live="polite">{count}</output>
                        <button type="button" class="party__step" aria-label=add_label
                            disabled=move || !addable()
                            on:click=move |_| config.update(|c| { product.with_value(|p| c.package(p).map(|pk| c.add_participant(&pk.configurator.participants, kind))); })>"+"</button>
                    </span>
                </li>
            }
        })
        .collect_view();
    let profiles = StoredValue::new(profiles);
    let birthdays = move || {
        let participants = config.with(|c| c.participants.clone());
        let mut seen = [0usize; 3];
        participants
            .into_iter()
            .enumerate()
            .filter(|(_, p)| p.kind != ParticipantType::Adults)
            .map(|(index, p)| {
                let ctx = RequestCtx::current();
                let slot = &mut seen[p.kind as usize];
                *slot += 1;
                let label = ctx.t_with(one_key(p.kind), &[("n", &slot.to_string())]);
                let id = format!("trip-birthday-{index}");
                let bounds = checkin.get().and_then(|d| {
                    profiles.with_value(|ps| {
                        ps.iter().find(|x| x.kind == p.kind).and_then(|x| birthday_bounds(x, &d))
                    })
                });
                let (min, max) = bounds.unzip();
                view! {
                    <li class="party__birthday">
                        <label for=id.clone()>{ctx.t_with("travel.party.birthday", &[("who", &label)])}</label>
                        <input id=id type="date" min=min max=max required=true
                            data-testid="party-birthday"
                            prop:value=p.birthday.clone().unwrap_or_default()
                            on:change=move |ev| {
                                let value = event_target_value(&ev);
                                config.update(|c| {
                                    c.set_birthday(index, (!value.is_empty()).then_some(value));
                                    if let Some(d) = checkin.get_untracked() {
                                        let ps = profiles.get_value();
                                        c.adjust_ages(&d, &ps);
                                    }
                                });
                            } />
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <fieldset class="config__group party" data-testid="trip-party">
            <legend>{ctx.t("travel.party.title")}</legend>
            <ul class="party__rows">{counters}</ul>
            <ul class="party__birthdays">{birthdays}</ul>
        </fieldset>
    }
}

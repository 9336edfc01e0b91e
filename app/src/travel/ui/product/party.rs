//! The travellers in the configurator: a counter per profile (adults, children, babies) as
//! the rules table allows, and a birthday for each child and baby, bounded by their age
//! window on the travel date. Server HTML inside the configurator form.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::model::travel::{Participant, ParticipantProfile, ParticipantRules, ParticipantType};
use crate::travel::rules::form::{field, step_value};
use crate::travel::rules::{birthday_bounds, can_add, can_remove, PartyCounts};

fn type_key(kind: ParticipantType) -> &'static str {
    match kind {
        ParticipantType::Adults => "travel.party.adults",
        ParticipantType::Children => "travel.party.children",
        ParticipantType::Babies => "travel.party.babies",
    }
}

pub(super) use crate::travel::rules::traveller_label_key as one_key;

/// The counters (their steps are submit buttons of the configurator form) and a birthday
/// field per child and baby, bounded by the age window on `checkin`.
#[component]
pub fn Party(
    rules: ParticipantRules,
    participants: Vec<Participant>,
    checkin: Option<String>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    let counts = PartyCounts::of(&participants);
    let profiles: Vec<ParticipantProfile> = if rules.profiles.is_empty() {
        vec![ParticipantProfile {
            kind: ParticipantType::Adults,
            min_age: 18,
            max_age: 120,
            price_percent: None,
        }]
    } else {
        rules.profiles.clone()
    };
    let counters = profiles
        .iter()
        .map(|profile| {
            let kind = profile.kind;
            let name = ctx.t(type_key(kind));
            let ages = ctx.t_with(
                "travel.party.ages",
                &[("min", &profile.min_age.to_string()), ("max", &profile.max_age.to_string())],
            );
            let add_label = ctx.t_with("travel.party.add", &[("type", &name)]);
            let remove_label = ctx.t_with("travel.party.remove", &[("type", &name)]);
            let testid = format!("party-{}", type_key(kind).rsplit('.').next().unwrap_or(""));
            view! {
                <li class="party__row" data-testid=testid>
                    <span class="party__name">{name}" "<span class="party__ages">{ages}</span></span>
                    <span class="party__counter">
                        <button type="submit" name=field::STEP value=step_value(false, kind) class="party__step"
                            aria-label=remove_label disabled=!can_remove(&rules, counts, kind)>"−"</button>
                        <output class="party__count">{counts.get(kind)}</output>
                        <button type="submit" name=field::STEP value=step_value(true, kind) class="party__step"
                            aria-label=add_label disabled=!can_add(&rules, counts, kind)>"+"</button>
                    </span>
                </li>
            }
        })
        .collect_view();
    let mut seen = [0usize; 3];
    let birthdays = participants
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind != ParticipantType::Adults)
        .map(|(index, p)| {
            let slot = &mut seen[p.kind as usize];
            *slot += 1;
            let label = ctx.t_with(one_key(p.kind), &[("n", &slot.to_string())]);
            let id = format!("trip-birthday-{index}");
            let bounds = checkin.as_deref().and_then(|d| {
                profiles
                    .iter()
                    .find(|x| x.kind == p.kind)
                    .and_then(|x| birthday_bounds(x, d))
            });
            let (min, max) = bounds.unzip();
            view! {
                <li class="party__birthday">
                    <label for=id.clone()>{ctx.t_with("travel.party.birthday", &[("who", &label)])}</label>
                    <input id=id type="date" name=format!("{}{index}", field::BIRTHDAY) min=min max=max required=true
                        data-testid="party-birthday" value=p.birthday.clone().unwrap_or_default() />
                </li>
            }
        })
        .collect_view();
    view! {
        <fieldset class="config__group party" data-testid="trip-party">
            <legend>{ctx.t("travel.party.title")}</legend>
            <ul class="party__rows">{counters}</ul>
            <ul class="party__birthdays">{birthdays}</ul>
        </fieldset>
    }
}

//! The checkout form island: each traveller's name and birthday, the member's address
//! (chosen among their saved ones in the server-rendered children, read when paying),
//! the card; then places are held (`POST /api/travel/v1/checkout` with the `addressId`)
//! and paid (`.../bookings/{id}/pay`). The rules that check the form are the server's
//! (`travel::rules::checkout_problems`), run here first so most mistakes need no call. A
//! technical failure leads to the travel error page with the product as its source.
use leptos::prelude::*;

use crate::client::{call, CallError};
use crate::context::RequestCtx;
use crate::travel::api::product::CheckoutLoad;
use crate::travel::rules::{birthday_bounds, checkout_problems, Traveller};

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Editing,
    Sending,
    /// Paid: the order's id.
    Done(i64),
}

/// One labelled text input bound to a field of the form, with its error.
#[component]
fn TextField(
    id: String,
    label: String,
    value: Signal<String>,
    on_input: Callback<String>,
    error: Signal<Option<String>>,
    #[prop(optional)] kind: Option<&'static str>,
    #[prop(optional)] autocomplete: Option<&'static str>,
    #[prop(optional)] min: Option<String>,
    #[prop(optional)] max: Option<String>,
) -> impl IntoView {
    let err_id = format!("{id}-error");
    let described = err_id.clone();
    view! {
        <p class="field">
            <label for=id.clone()>{label}</label>
            // No `name`: a form sent natively, before the island runs, must not carry the
            // card or the travellers into the address (see `checkout/mod.rs`).
            <input id=id.clone() type=kind.unwrap_or("text") autocomplete=autocomplete min=min max=max
                required=true maxlength="80"
                aria-invalid=move || error.get().is_some().then_some("true")
                aria-describedby=move || error.get().is_some().then(|| described.clone())
                prop:value=move || value.get()
                on:input=move |ev| on_input.run(event_target_value(&ev)) />
            {move || error.get().map(|e| view! { <span class="field__error" id=err_id.clone()>{e}</span> })}
        </p>
    }
}

/// What the form shows after the member sends it: the checks' messages
/// (`checkout_problems`), the calls' answers (`TravelError::message_key`, its blocks'),
/// the booking done.
const SHOWN_LATER: [&str; 19] = [
    "travel.checkout.fix",
    "travel.checkout.invalid_name",
    "travel.checkout.missing_birthday",
    "travel.checkout.birthday_out_of_range",
    "travel.checkout.paying",
    "travel.checkout.booked",
    "orders.number",
    "travel.checkout.see_order",
    "page.myorders",
    "travel.error.not_found",
    "travel.error.blocked",
    "travel.error.invalid",
    "travel.error.unknown_address",
    "travel.error.sold_out",
    "travel.error.no_booking",
    "travel.error.expired",
    "travel.error.declined",
    "travel.error.invalid_card",
    "travel.block.*",
];

/// `children`: the server-rendered address step (`address::ui::checkout::DeliveryChoice`).
#[island(lazy)]
pub fn CheckoutForm(load: CheckoutLoad, children: Children) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    crate::site::i18n::shown_later(
        SHOWN_LATER
            .into_iter()
            .chain(crate::client::EDGE_ERROR_KEYS),
    );
    let ctx = RequestCtx::current();
    let load = StoredValue::new(load);
    let travellers = RwSignal::new(load.with_value(|l| {
        l.participants
            .iter()
            .map(|p| Traveller {
                birthday: p.birthday.clone().unwrap_or_default(),
                ..Traveller::default()
            })
            .collect::<Vec<_>>()
    }));
    let card = RwSignal::new(String::new());
    let problems = RwSignal::new(Vec::<(String, String)>::new());
    let step = RwSignal::new(Step::Editing);
    let message = RwSignal::new(None::<String>);
    let booking_id = RwSignal::new(None::<i64>);
    let error_of = move |field: String| {
        Signal::derive(move || {
            problems.with(|ps| {
                ps.iter()
                    .find(|(f, _)| *f == field)
                    .map(|(_, k)| RequestCtx::current().t(k))
            })
        })
    };

    let traveller_fields = load.with_value(|l| {
        let mut seen = [0usize; 3];
        l.participants
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ctx = RequestCtx::current();
                seen[p.kind as usize] += 1;
                let who_key = crate::travel::rules::traveller_label_key(p.kind);
                let who = ctx.t_with(who_key, &[("n", &seen[p.kind as usize].to_string())]);
                let bounds = l
                    .profiles
                    .iter()
                    .find(|x| x.kind == p.kind)
                    .and_then(|x| birthday_bounds(x, &l.checkin));
                let (min, max) = bounds.unzip();
                let get = move |f: fn(&Traveller) -> &String| {
                    Signal::derive(move || travellers.with(|t| t.get(i).map(|x| f(x).clone()).unwrap_or_default()))
                };
                let set = move |f: fn(&mut Traveller) -> &mut String| {
                    Callback::new(move |v: String| travellers.update(|t| if let Some(x) = t.get_mut(i) { *f(x) = v; }))
                };
                view! {
                    <fieldset class="trip-checkout__traveller" data-testid="traveller">
                        <legend>{who}</legend>
                        <TextField id=format!("travellers-{i}-first") label=ctx.t("travel.checkout.first_name")
                            value=get(|t| &t.first_name) on_input=set(|t| &mut t.first_name)
                            error=error_of(format!("travellers.{i}.firstName")) autocomplete="given-name" />
                        <TextField id=format!("travellers-{i}-last") label=ctx.t("travel.checkout.last_name")
                            value=get(|t| &t.last_name) on_input=set(|t| &mut t.last_name)
                            error=error_of(format!("travellers.{i}.lastName")) autocomplete="family-name" />
                        <TextField id=format!("travellers-{i}-birthday") label=ctx.t("travel.checkout.birthday")
                            value=get(|t| &t.birthday) on_input=set(|t| &mut t.birthday) kind="date"
                            error=error_of(format!("travellers.{i}.birthday")) min=min.unwrap_or_default() max=max.unwrap_or_default() />
                    </fieldset>
                }
            })
            .collect_view()
    });

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if step.get_untracked() != Step::Editing {
            return;
        }
        message.set(None);
        let (participants, checkin, profiles, product_path) = load.with_value(|l| {
            (
                l.participants.clone(),
                l.checkin.clone(),
                l.profiles.clone(),
                format!("/t/p/{}/{}", l.campaign_id, l.product_id),
            )
        });
        let found = checkout_problems(
            &participants,
            &travellers.get_untracked(),
            &checkin,
            &profiles,
        );
        problems.set(
            found
                .iter()
                .map(|p| (p.field.clone(), p.key.to_string()))
                .collect(),
        );
        if !found.is_empty() {
            message.set(Some(RequestCtx::current().t("travel.checkout.fix")));
            return;
        }
        let request = load.with_value(|l| {
            serde_json::json!({
                "campaignId": l.campaign_id, "productId": l.product_id, "packageId": l.package_id,
                "departureCityId": l.city_id, "days": l.days, "nights": l.nights, "checkin": l.checkin,
                "participants": l.participants,
                "benefits": l.benefits.iter().map(|b| b.0).collect::<Vec<_>>(),
                "travellers": travellers.get_untracked(),
                "addressId": crate::address::ui::checkout::chosen_address(),
            })
        });
        step.set(Step::Sending);
        leptos::task::spawn_local(async move {
            let outcome = pay(booking_id, request.to_string(), card.get_untracked()).await;
            match outcome {
                Ok(order_id) => step.set(Step::Done(order_id)),
                Err(Failure::Fields(fields)) => {
                    // A block outside the form (the address book emptied meanwhile, a
                    // departure changed) says itself; traveller fields are marked.
                    let key = fields
                        .iter()
                        .find(|(f, _)| !f.starts_with("travellers."))
                        .map_or("travel.checkout.fix", |(_, k)| k.as_str());
                    message.set(Some(RequestCtx::current().t(key)));
                    problems.set(fields);
                    step.set(Step::Editing);
                }
                Err(Failure::Message(key)) => {
                    message.set(Some(RequestCtx::current().t(&key)));
                    step.set(Step::Editing);
                }
                Err(Failure::SignIn) => {
                    crate::client::navigate(&crate::routes::login_redirect(&format!(
                        "{product_path}/checkout"
                    )));
                }
                Err(Failure::Technical) => {
                    crate::client::navigate(&format!(
                        "/t/error?source={}",
                        crate::routes::encode_query_value(&product_path)
                    ));
                }
            }
        });
    };

    let total = load.with_value(|l| ctx.money(l.total));
    let address_step = crate::site::i18n::page::island_children(children);
    view! {
        {move || match step.get() {
            Step::Done(order_id) => view! {
                <section class="trip-checkout__done" role="status" data-testid="trip-booked">
                    <h2>{RequestCtx::current().t("travel.checkout.booked")}</h2>
                    <p>{RequestCtx::current().t_with("orders.number", &[("order", &order_id.to_string())])}</p>
                    <a class="button button--primary" href=format!("/my-orders/travel/{order_id}")>{RequestCtx::current().t("travel.checkout.see_order")}</a>
                    " "<a href="/my-orders">{RequestCtx::current().t("page.myorders")}</a>
                </section>
            }.into_any(),
            _ => ().into_any(),
        }}
        <form class="trip-checkout__form" novalidate=true on:submit=submit data-testid="trip-checkout-form"
            class:hidden=move || matches!(step.get(), Step::Done(_))>
            <section aria-labelledby="trip-travellers-title">
                <h2 id="trip-travellers-title">{ctx.t("travel.checkout.travellers")}</h2>
                {traveller_fields}
            </section>
            {address_step}
            <section aria-labelledby="trip-payment-title">
                <h2 id="trip-payment-title">{ctx.t("travel.checkout.payment")}</h2>
                <TextField id="card".into() label=ctx.t("travel.checkout.card") value=card.into()
                    on_input=Callback::new(move |v| card.set(v)) error=Signal::derive(|| None) autocomplete="cc-number" />
                <p class="hint">{ctx.t("travel.checkout.sandbox")}</p>
            </section>
            <div class="trip-checkout__pay">
                {move || message.get().map(|m| view! { <p class="error" role="alert" data-testid="trip-checkout-error">{m}</p> })}
                <button type="submit" class="button button--primary" data-testid="trip-pay"
                    aria-busy=move || (step.get() == Step::Sending).to_string()>
                    {move || if step.get() == Step::Sending { RequestCtx::current().t("travel.checkout.paying") } else {
                        RequestCtx::current().t_with("travel.checkout.pay", &[("total", &total)]) }}
                </button>
            </div>
        </form>
    }
}

enum Failure {
    Fields(Vec<(String, String)>),
    Message(String),
    SignIn,
    Technical,
}

fn failure(e: CallError) -> Failure {
    match e {
        CallError::Unauthorized => Failure::SignIn,
        CallError::Status(400, body) => match body.field_errors {
            Some(f) if !f.is_empty() => {
                Failure::Fields(f.into_iter().map(|f| (f.field, f.message_key)).collect())
            }
            _ => Failure::Message(body.error_description),
        },
        CallError::Status(402 | 404 | 409, body) if !body.error_description.is_empty() => {
            Failure::Message(body.error_description)
        }
        _ => Failure::Technical,
    }
}

/// Holds the places once (the booking id is kept, so a declined card is retried on the
/// same hold), then pays. Gives the order's id.
async fn pay(
    booking_id: RwSignal<Option<i64>>,
    request: String,
    card: String,
) -> Result<i64, Failure> {
    let id = match booking_id.get_untracked() {
        Some(id) => id,
        None => {
            let reply = call("POST", "/api/travel/v1/checkout", Some(request))
                .await
                .map_err(failure)?;
            let id = reply
                .json::<serde_json::Value>()
                .and_then(|b| b["id"].as_i64())
                .ok_or(Failure::Technical)?;
            booking_id.set(Some(id));
            id
        }
    };
    let body = serde_json::json!({ "card": card }).to_string();
    match call(
        "POST",
        &format!("/api/travel/v1/bookings/{id}/pay"),
        Some(body),
    )
    .await
    {
        Ok(reply) => reply
            .json::<serde_json::Value>()
            .and_then(|b| b["orderId"].as_i64())
            .ok_or(Failure::Technical),
        Err(e) => {
            // An expired hold is gone: the next try holds places again.
            if matches!(&e, CallError::Status(409, _)) {
                booking_id.set(None);
            }
            Err(failure(e))
        }
    }
}

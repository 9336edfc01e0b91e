//! The cart page: held lines with the hold countdown and its notices, removal, vouchers
//! (apply, remove, print), the loyalty item, recovery after expiry, and the checkout:
//! freeze (cart hash) → pay with the sandbox card → order, or the waiting line when
//! checkouts are at capacity.
// Over 400 lines: one page whose view closures share its signals; the pieces are not reused.
use leptos::prelude::*;
use serde_json::{json, Value};

use crate::cart::rules::{
    reduce_basket, reduce_cart, reduce_suspend, BasketAction, BasketState, CartAction, CartCode,
    CartState, SuspendState, LOYALTY_PASS, LOYALTY_PREMIUM,
};
use crate::cart::ui::{cart_call, clock, state_notice, CART, PIPE};

/// The call that adds Premium or the delivery pass (spec 000 §7).
const LOYALTY_ITEM: &str = "/api/cartproxy/v3/loyalty-item";
use crate::context::RequestCtx;
use crate::model::cart::{Cart, WaitingLine};
use crate::onboarding::rules::{current_version, PopinType};
use crate::ui::SeoMeta;

#[derive(Clone, Debug, PartialEq)]
enum Checkout {
    Idle,
    /// Frozen for payment with this hash.
    Frozen(String),
    Paying(String),
    Waiting {
        hash: String,
        line: WaitingLine,
    },
    Paid(i64),
}

fn t(key: &str) -> String {
    RequestCtx::current().t(key)
}

/// What the cart shows once the browser has loaded it (the server renders its loading
/// state only), after a click, or from its calls' answers: shipped with the page.
const SHOWN_LATER: [&str; 56] = [
    "common.retry",
    "cart.recovery.text",
    "cart.suspended.text",
    "cart.recovery.recover",
    "cart.recovery.cancel",
    "cart.expired",
    "cart.empty",
    "favourites.browse",
    "cart.line.option",
    "cart.line.quantity",
    "cart.remove",
    "cart.timer",
    "cart.expire_soon",
    "cart.suspend",
    "cart.clear",
    "cart.vouchers",
    "cart.voucher.label",
    "cart.voucher.apply",
    "cart.voucher.print",
    "cart.voucher.print_open",
    "cart.voucher.print_error",
    "cart.voucher.remove_error",
    "cart.voucher.automatic",
    "cart.loyalty.add",
    "cart.loyalty.add_pass",
    "cart.loyalty.added",
    "cart.recovery.keep",
    "cart.subtotal",
    "cart.discount",
    "cart.shipping",
    "cart.loyalty",
    "cart.total",
    "cart.paid.title",
    "cart.paid.text",
    "cart.paid.orders",
    "cart.paid.vouchers",
    "cart.paid.deals",
    "cart.waiting.title",
    "cart.waiting.position",
    "cart.waiting.hint",
    "cart.checkout",
    "cart.frozen",
    "cart.card.label",
    "cart.card.hint",
    "wallet.cards.save_at_checkout",
    "cart.pay",
    "cart.checkout_cancel",
    // The terms acceptance the checkout offers in place (its sentence links the terms).
    "auth.cgv",
    "auth.cgv.required",
    "content.consent.cgv_link",
    "content.new_tab",
    "cart.terms.changed",
    // The loyalty items' labels, and the cart's error answers (`CartError::message_key`).
    "cart.loyalty.premium",
    "cart.loyalty.pass",
    "cart.errors.*",
    "address.checkout.required",
];

fn cart_hash(reply: &crate::client::Reply) -> Option<String> {
    reply
        .json::<Value>()?
        .get("cartHash")?
        .as_str()
        .map(str::to_string)
}

fn order_id(v: &Value) -> Option<i64> {
    v.get("orderId")
        .or_else(|| v.get("order").and_then(|o| o.get("id")))
        .or_else(|| v.get("id"))
        .and_then(Value::as_i64)
}

/// The page: its head tags from the server, its body an island (everything on it reacts
/// to the cart the browser loads) around the server-rendered delivery address step.
#[component]
pub fn CartPage(path: String) -> impl IntoView {
    let title = RequestCtx::current().t("page.cart");
    view! {
        <SeoMeta title=title.clone() description=title path />
        <CartView>
            <crate::address::ui::checkout::DeliveryChoice />
        </CartView>
    }
}

#[island(lazy)]
pub(crate) fn CartView(children: Children) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    crate::site::i18n::shown_later(
        SHOWN_LATER
            .into_iter()
            .chain(crate::client::EDGE_ERROR_KEYS),
    );
    let ctx = RequestCtx::current();
    let cart = RwSignal::new(None::<Cart>);
    let load_error = RwSignal::new(None::<String>);
    let basket = RwSignal::new(BasketState::default());
    let remaining = RwSignal::new(0i64);
    let busy = RwSignal::new(false);
    let notice = RwSignal::new(None::<String>);
    // Spec 000 §4's cart flags, for the loyalty add's confirmation (newLoyalty).
    let cart_state = RwSignal::new(CartState::default());
    let checkout = RwSignal::new(Checkout::Idle);
    let card = RwSignal::new(String::new());
    // "Save this card": the provider keeps a token for the member's wallet.
    let save_card = RwSignal::new(false);
    let code = RwSignal::new(String::new());
    let suspend = RwSignal::new(SuspendState::default());
    // What went wrong with the checkout, shown by its button or the card field (the page's
    // top is out of sight at that point).
    let checkout_notice = RwSignal::new(None::<String>);
    let pay_error = RwSignal::new(None::<String>);
    // The terms changed since the member accepted them (or "Later" was chosen on their
    // popin): the checkout asks for them in place.
    let terms_needed = RwSignal::new(false);
    let terms_ticked = RwSignal::new(false);
    let terms_error = RwSignal::new(false);
    // What is being paid is vouchers only (rose deals): the confirmation leads to them, as
    // there is no parcel to wait for.
    let paid_vouchers = RwSignal::new(false);
    let confirmation = NodeRef::<leptos::html::H2>::new();
    // Recovery lines the member unticked: left out when the rest is held again.
    let dismissed = RwSignal::new(Vec::<String>::new());

    let refresh = move || {
        leptos::task::spawn_local(async move {
            match cart_call("GET", CART, None).await {
                Ok(reply) => {
                    let c = reply.json::<Cart>().unwrap_or_default();
                    basket.update(|b| {
                        *b = reduce_basket(
                            b,
                            &BasketAction::Refresh {
                                remaining_time: c.remaining_time,
                                expired: c.has_notify_basket_expired,
                            },
                        )
                    });
                    remaining.set(c.remaining_time);
                    if c.status == "frozen" {
                        if let Some(h) = c.cart_hash.clone() {
                            if checkout.get_untracked() == Checkout::Idle {
                                checkout.set(Checkout::Frozen(h));
                            }
                        }
                    } else if matches!(checkout.get_untracked(), Checkout::Frozen(_)) {
                        checkout.set(Checkout::Idle);
                    }
                    crate::ui::cart_count::CartCount::show(&c);
                    cart.set(Some(c));
                    load_error.set(None);
                }
                Err(e) => load_error.set(Some(e.message_key())),
            }
        });
    };
    // Runs one cart call, shows its error, then reloads the cart (spec §4: most cart
    // actions re-fetch the cart afterwards).
    let act = move |method: &'static str, url: String, body: Option<Value>| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        notice.set(None);
        let loyalty_add = url == LOYALTY_ITEM;
        cart_state.update(|st| {
            *st = reduce_cart(
                st,
                &CartAction::Request {
                    params: body.clone(),
                },
            )
        });
        leptos::task::spawn_local(async move {
            let failure = match cart_call(method, &url, body).await {
                Ok(reply) => state_notice(&reply),
                Err(e) => Some(e.message_key()),
            };
            notice.set(failure.clone());
            let done = match failure {
                Some(error) => CartAction::Failure { error },
                None if loyalty_add => CartAction::AddLoyaltySuccess,
                None => CartAction::Success,
            };
            cart_state.update(|st| *st = reduce_cart(st, &done));
            busy.set(false);
            refresh();
        });
    };

    Effect::new(move |_| refresh());
    // The hold countdown: one tick a second; at zero the cart is fetched again so the
    // expiry (and the returned stock) shows.
    Effect::new(move |_| {
        let handle = set_interval_with_handle(
            move || {
                let left = remaining.get_untracked();
                if left > 0 {
                    remaining.set(left - 1);
                    basket.update(|b| {
                        *b = reduce_basket(
                            b,
                            &BasketAction::Refresh {
                                remaining_time: left - 1,
                                expired: false,
                            },
                        )
                    });
                    if left == 1 {
                        refresh();
                    }
                }
            },
            std::time::Duration::from_secs(1),
        );
        on_cleanup(move || {
            if let Ok(h) = handle {
                h.clear();
            }
        });
    });

    let freeze = move |_| {
        if terms_needed.get_untracked() && !terms_ticked.get_untracked() {
            terms_error.set(true);
            return;
        }
        busy.set(true);
        notice.set(None);
        checkout_notice.set(None);
        leptos::task::spawn_local(async move {
            if terms_needed.get_untracked() {
                let version = current_version(PopinType::TermsAndConditions).unwrap_or(1);
                let url = format!(
                    "/api/popins/v1/{}/{version}",
                    PopinType::TermsAndConditions as i64
                );
                if let Err(e) = cart_call("POST", &url, Some(json!({ "accepted": true }))).await {
                    checkout_notice.set(Some(e.message_key()));
                    busy.set(false);
                    return;
                }
                terms_needed.set(false);
                terms_error.set(false);
            }
            match cart_call("GET", PIPE, None).await {
                Ok(reply) if reply.status == CartCode::OnboardingRedirect.status() => {
                    terms_needed.set(true);
                }
                Ok(reply) if state_notice(&reply).is_some() => {
                    checkout_notice.set(state_notice(&reply))
                }
                Ok(reply) => match cart_hash(&reply) {
                    Some(hash) => {
                        pay_error.set(None);
                        checkout.set(Checkout::Frozen(hash))
                    }
                    None => checkout_notice.set(Some("errors.general_retry.notification".into())),
                },
                Err(e) => checkout_notice.set(Some(e.message_key())),
            }
            busy.set(false);
            refresh();
        });
    };
    let pay_with = move |hash: String, ticket: Option<String>| {
        paid_vouchers.set(cart.with_untracked(|c| {
            c.as_ref()
                .is_some_and(|c| !crate::cart::rules::needs_delivery(&c.items))
        }));
        checkout.set(Checkout::Paying(hash.clone()));
        notice.set(None);
        let body = json!({
            "cartHash": hash,
            "generateDeeplinkReturnUrl": false,
            "card": card.get_untracked(),
            "saveCard": save_card.get_untracked(),
            "waitingLineTicket": ticket,
            "addressId": crate::address::ui::checkout::chosen_address(),
        });
        leptos::task::spawn_local(async move {
            match cart_call("POST", &format!("{PIPE}/pay"), Some(body)).await {
                Ok(reply) if reply.status == 202 => {
                    let line = reply.json::<Value>().and_then(|v| {
                        serde_json::from_value::<WaitingLine>(
                            v.get("waitingLine").cloned().unwrap_or(v),
                        )
                        .ok()
                    });
                    match line {
                        Some(line) => checkout.set(Checkout::Waiting { hash, line }),
                        None => {
                            notice.set(Some("errors.general_retry.notification".into()));
                            checkout.set(Checkout::Frozen(hash));
                        }
                    }
                }
                Ok(reply) => {
                    let id = reply
                        .json::<Value>()
                        .as_ref()
                        .and_then(order_id)
                        .unwrap_or(0);
                    checkout.set(Checkout::Paid(id));
                    pay_error.set(None);
                    refresh();
                }
                Err(e) => {
                    // The error stays by the card field. A declined card opens the cart
                    // again (nothing charged, still held): it is frozen again so the form
                    // stays as it was, the number typed kept; an invalid card left it frozen.
                    pay_error.set(Some(e.message_key()));
                    match cart_call("GET", PIPE, None)
                        .await
                        .ok()
                        .as_ref()
                        .and_then(cart_hash)
                    {
                        Some(hash) => checkout.set(Checkout::Frozen(hash)),
                        None => checkout.set(Checkout::Idle),
                    }
                    refresh();
                }
            }
        });
    };
    // The waiting line advances on its own: poll until it is the member's turn, then pay.
    Effect::new(move |_| {
        if let Checkout::Waiting { hash, line } = checkout.get() {
            let delay = std::time::Duration::from_secs(line.retry_after.clamp(1, 10) as u64);
            let handle = set_timeout_with_handle(
                move || {
                    leptos::task::spawn_local(async move {
                        let url = format!("/api/catalog/v1/waiting-line/{}", line.ticket);
                        match cart_call("GET", &url, None)
                            .await
                            .map(|r| r.json::<WaitingLine>())
                        {
                            Ok(Some(next)) if next.ready || next.position == 0 => {
                                pay_with(hash, Some(next.ticket))
                            }
                            Ok(Some(next)) => checkout.set(Checkout::Waiting { hash, line: next }),
                            // The place lapsed (410: a tab in the background asks too
                            // seldom): paying again takes a new one, or pays at once.
                            Err(_) => pay_with(hash, None),
                            Ok(None) => checkout.set(Checkout::Waiting { hash, line }),
                        }
                    });
                },
                delay,
            );
            on_cleanup(move || {
                if let Ok(h) = handle {
                    h.clear();
                }
            });
        }
    });

    let lines = move || {
        cart.get()
            .map(|c| {
                let cart_type = c.cart_type.clone().unwrap_or_else(|| "fs".into());
                let frozen = c.status == "frozen";
                c.items
                    .into_iter()
                    .map(|line| {
                        let ctx = RequestCtx::current();
                        let body = json!({ "product_id": line.product_id, "cart_type": cart_type });
                        view! {
                            <li class="cart-line" data-testid="cart-line" data-product-id=line.product_id.clone()>
                                <img src=format!("{}?w=179", line.image) alt="" width="72" height="72" />
                                <div class="cart-line__body">
                                    <a href=format!("/product/{}/{}", line.sale_id, line.item_id)>{line.name.clone()}</a>
                                    // A voucher has no size.
                                    <p class="cart-line__meta">{if line.is_digital {
                                        ctx.t_with("cart.line.quantity", &[("quantity", &line.quantity.to_string())])
                                    } else {
                                        ctx.t_with("cart.line.option", &[("option", &line.option_label), ("quantity", &line.quantity.to_string())])
                                    }}</p>
                                </div>
                                <p class="cart-line__price">{ctx.money(line.total)}</p>
                                <button type="button" class="link-button" data-testid="cart-remove" disabled=frozen
                                    on:click=move |_| act("DELETE", format!("{CART}/item"), Some(body.clone()))>
                                    {ctx.t("cart.remove")}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()
            })
    };

    let body = move || {
        if let Some(key) = load_error.get() {
            return view! { <p class="error" role="alert">{t(&key)}" "<button type="button" class="link-button" on:click=move |_| refresh()>{t("common.retry")}</button></p> }.into_any();
        }
        let Some(c) = cart.get() else {
            return view! { <p class="loading" aria-busy="true">{t("common.loading")}</p> }
                .into_any();
        };
        let ctx = RequestCtx::current();
        // Each line is kept unless the member unticks it (spec 000 §4: recover sends the
        // dismissed products, which are not held again).
        let recovery = (!c.recovery.is_empty()).then(|| view! {
            <div class="cart-recovery" data-testid="cart-recovery">
                <p>{t(if c.has_suspended_order { "cart.suspended.text" } else { "cart.recovery.text" })}</p>
                <p class="cart-recovery__hint">{t("cart.recovery.keep")}</p>
                <ul>{c.recovery.iter().map(|r| {
                    let id = r.product_id.clone();
                    view! { <li><label class="check">
                        <input type="checkbox" checked data-testid="cart-recovery-keep"
                            prop:checked=move || !dismissed.with(|d| d.contains(&id))
                            on:change={
                                let id = r.product_id.clone();
                                move |_| dismissed.update(|d| if let Some(i) = d.iter().position(|x| *x == id) { d.remove(i); } else { d.push(id.clone()); })
                            } />
                        {format!(" {} · {} × {}", r.name, r.option_label, r.quantity)}
                    </label></li> }
                }).collect_view()}</ul>
                <button type="button" class="button button--primary" data-testid="cart-recover"
                    on:click=move |_| act("POST", format!("{PIPE}/recover"), Some(json!({ "dismissedProducts": dismissed.get_untracked() })))>{t("cart.recovery.recover")}</button>
                <button type="button" class="link-button" on:click=move |_| act("POST", format!("{PIPE}/cancel-recovery"), Some(json!({}))) >{t("cart.recovery.cancel")}</button>
            </div>
        });
        if c.items.is_empty() {
            return view! {
                {recovery}
                <div class="cart-empty" data-testid="cart-empty">
                    <p>{t(if basket.get().has_notify_basket_expired { "cart.expired" } else { "cart.empty" })}</p>
                    <a class="button button--primary" href="/">{t("favourites.browse")}</a>
                </div>
            }.into_any();
        }
        let frozen = c.status == "frozen";
        let totals = c.totals.clone();
        let delivered = crate::cart::rules::needs_delivery(&c.items);
        let vouchers = c
            .vouchers
            .iter()
            .map(|v| {
                let id = v.voucher_id;
                // An automatic campaign's discount is the site's, not the member's to take off.
                if v.automatic {
                    return view! {
                        <li class="cart-voucher" data-testid="cart-voucher">
                            <span>{v.code.clone()}</span>
                            <span>{format!("-{}", ctx.money(v.amount))}</span>
                            <span class="cart-voucher-note">{t("cart.voucher.automatic")}</span>
                        </li>
                    }
                    .into_any();
                }
                view! {
                    <li class="cart-voucher" data-testid="cart-voucher">
                        <span>{v.code.clone()}</span>
                        <span>{format!("-{}", ctx.money(v.amount))}</span>
                        <button type="button" class="link-button" data-testid="voucher-remove"
                            on:click=move |_| {
                                basket.update(|b| *b = reduce_basket(b, &BasketAction::RemoveVoucherPending));
                                leptos::task::spawn_local(async move {
                                    let ok = cart_call("DELETE", &format!("{CART}/vouchers/{id}"), None).await.is_ok();
                                    basket.update(|b| *b = reduce_basket(b, if ok { &BasketAction::RemoveVoucherSuccess } else { &BasketAction::RemoveVoucherFailure }));
                                    refresh();
                                });
                            }>{t("cart.remove")}</button>
                    </li>
                }
                .into_any()
            })
            .collect_view();
        let has_vouchers = !c.vouchers.is_empty();
        let loyalty = match c.loyalty.clone() {
            Some(l) => view! {
                <p class="cart-loyalty" data-testid="cart-loyalty">
                    {t(&l.label_key)}" · "{ctx.money(l.price)}" "
                    <button type="button" class="link-button" on:click=move |_| act("DELETE", format!("{PIPE}/item"), Some(json!({ "productId": l.product_id, "quantity": 1 })))>{t("cart.remove")}</button>
                </p>
                {move || cart_state.with(|st| st.new_loyalty).then(|| view! {
                    <p class="account-notice" role="status" data-testid="loyalty-added">{t("cart.loyalty.added")}</p>
                })}
            }.into_any(),
            // Premium or the delivery pass (spec 000 §4, loyalty types 1 and 2), each with
            // the price the cart will add.
            None => [(LOYALTY_PREMIUM, "cart.loyalty.add", "loyalty-add"), (LOYALTY_PASS, "cart.loyalty.add_pass", "loyalty-add-pass")]
                .into_iter()
                .map(|(id, key, testid)| {
                    let price = crate::cart::rules::loyalty_product(id).map(|(p, _)| p).unwrap_or_default();
                    view! {
                        <p class="cart-loyalty-offer">
                            <button type="button" class="link-button" data-testid=testid
                                on:click=move |_| act("POST", LOYALTY_ITEM.into(), Some(json!({ "productId": id, "quantity": 1 })))>
                                {format!("{} · {}", t(key), ctx.money(price))}
                            </button>
                        </p>
                    }
                })
                .collect_view()
                .into_any(),
        };
        view! {
            {recovery}
            <div class="cart-timer" class:cart-timer--soon=move || basket.get().has_notify_basket_expire_soon data-testid="cart-timer" role="timer">
                {move || RequestCtx::current().t_with("cart.timer", &[("time", &clock(remaining.get()))])}
            </div>
            {move || basket.get().has_notify_basket_expire_soon.then(|| view! { <p class="cart-warning" role="alert" data-testid="cart-expire-soon">{t("cart.expire_soon")}</p> })}
            <ul class="cart-lines">{lines}</ul>
            <button type="button" class="link-button" data-testid="cart-suspend" disabled=frozen
                on:click=move |_| {
                    suspend.update(|s| *s = reduce_suspend(s, None));
                    leptos::task::spawn_local(async move {
                        let outcome = cart_call("POST", &format!("{CART}/suspend"), Some(json!({}))).await;
                        suspend.update(|s| *s = reduce_suspend(s, Some(outcome.as_ref().map(|_| true).map_err(|_| ()))));
                        match outcome {
                            // Spec 000 §4: a suspended basket goes on to the ongoing deals.
                            Ok(_) => crate::client::navigate("/rosedeals/ongoing"),
                            Err(e) => {
                                notice.set(Some(e.message_key()));
                                refresh();
                            }
                        }
                    });
                }>{t("cart.suspend")}</button>
            " · "
            <button type="button" class="link-button" data-testid="cart-clear" disabled=frozen on:click=move |_| act("DELETE", CART.into(), None)>{t("cart.clear")}</button>
            <section class="cart-vouchers" aria-label=t("cart.vouchers")>
                <ul>{vouchers}</ul>
                <form class="cart-voucher-form" on:submit=move |ev| {
                    ev.prevent_default();
                    let value = code.get_untracked().trim().to_string();
                    if value.is_empty() { return; }
                    code.set(String::new());
                    act("POST", format!("{CART}/vouchers"), Some(json!({ "code": value })));
                }>
                    <label>{t("cart.voucher.label")}
                        <input type="text" name="code" autocomplete="off" data-testid="voucher-code" prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit" class="button" data-testid="voucher-apply">{t("cart.voucher.apply")}</button>
                </form>
                {has_vouchers.then(|| view! {
                    <button type="button" class="link-button" data-testid="voucher-print" on:click=move |_| {
                        basket.update(|b| *b = reduce_basket(b, &BasketAction::PrintPending));
                        leptos::task::spawn_local(async move {
                            let url = cart_call("POST", &format!("{CART}/vouchers/print"), Some(json!({})))
                                .await
                                .ok()
                                .and_then(|r| r.json::<Value>())
                                .and_then(|v| v.get("printUrl").and_then(Value::as_str).map(str::to_string));
                            let printed = url.is_some();
                            basket.update(|b| *b = reduce_basket(b, &match url {
                                Some(print_url) => BasketAction::PrintSuccess { print_url },
                                None => BasketAction::PrintFailure,
                            }));
                            // Spec 000 §4: printing reloads the basket (and with it the
                            // header's count), so a voucher ended meanwhile leaves the
                            // basket the member is about to pay, not only the printout.
                            if printed {
                                refresh();
                            }
                        });
                    }>{t("cart.voucher.print")}</button>
                })}
                {move || basket.get().print_url.map(|u| view! { <a href=u target="_blank" rel="noopener" data-testid="voucher-print-link">{t("cart.voucher.print_open")}</a> })}
                {move || basket.get().print_error.then(|| view! { <p class="error" role="alert">{t("cart.voucher.print_error")}</p> })}
                {move || basket.get().is_remove_error.then(|| view! { <p class="error" role="alert">{t("cart.voucher.remove_error")}</p> })}
            </section>
            {loyalty}
            <dl class="cart-totals" data-testid="cart-totals">
                <dt>{t("cart.subtotal")}</dt><dd>{ctx.money(totals.subtotal)}</dd>
                {(totals.discount > 0).then(|| view! { <dt>{t("cart.discount")}</dt><dd>{format!("-{}", ctx.money(totals.discount))}</dd> })}
                {delivered.then(|| view! { <dt>{t("cart.shipping")}</dt><dd data-testid="cart-shipping">{ctx.money(totals.shipping - totals.shipping_discount)}</dd> })}
                {(totals.loyalty > 0).then(|| view! { <dt>{t("cart.loyalty")}</dt><dd>{ctx.money(totals.loyalty)}</dd> })}
                <dt class="cart-totals__total">{t("cart.total")}</dt><dd class="cart-totals__total" data-testid="cart-total">{ctx.money(totals.total)}</dd>
            </dl>
        }.into_any()
    };

    let status = move || {
        match checkout.get() {
Checkout::Paid(id) => {
            let vouchers = paid_vouchers.get_untracked();
            let (text, link, href) = if vouchers {
                ("cart.paid.vouchers", "cart.paid.deals", "/rosedeals/ongoing")
            } else {
                ("cart.paid.text", "cart.paid.orders", "/my-orders")
            };
            view! {
                <div class="cart-done" data-testid="order-confirmed">
                    <h2 tabindex="-1" node_ref=confirmation>{t("cart.paid.title")}</h2>
                    <p data-testid="order-confirmed-text">{RequestCtx::current().t_with(text, &[("order", &id.to_string())])}</p>
                    <a class="button button--primary" href=href data-testid="order-confirmed-next">{t(link)}</a>
                </div>
            }.into_any()
        }
        Checkout::Waiting { line, .. } => view! {
                <div class="waiting-line" data-testid="waiting-line" aria-live="polite">
                    <h2>{t("cart.waiting.title")}</h2>
                    <p>{RequestCtx::current().t_with("cart.waiting.position", &[("position", &line.position.to_string())])}</p>
                    <p class="loading">{t("cart.waiting.hint")}</p>
                </div>
            }.into_any(),
        _ => ().into_any(),
    }
    };
    let checkout_block = move || {
        match checkout.get() {
                Checkout::Idle => view! {
                    {move || terms_needed.get().then(|| {
                        let ctx = RequestCtx::current();
                        view! {
                            <div class="cart-terms" data-testid="cart-terms">
                                <p>{t("cart.terms.changed")}</p>
                                <label class="auth__check">
                                    <input type="checkbox" name="cgv" value="1" data-testid="cart-terms-accept"
                                        aria-invalid=move || terms_error.get().to_string()
                                        aria-describedby=move || terms_error.get().then_some("cart-terms-error")
                                        prop:checked=move || terms_ticked.get()
                                        on:change=move |ev| { terms_ticked.set(event_target_checked(&ev)); terms_error.set(false); } />
                                    {crate::auth::ui::consent::consent_label(&ctx, "auth.cgv", "content.consent.cgv_link", crate::auth::ui::consent::CGV_PATH)}
                                </label>
                                {move || terms_error.get().then(|| view! { <p class="error" id="cart-terms-error" role="alert" data-testid="cart-terms-error">{t("auth.cgv.required")}</p> })}
                            </div>
                        }
                    })}
                    {move || checkout_notice.get().map(|key| view! { <p class="error" role="alert" data-testid="checkout-notice">{t(&key)}</p> })}
                    <button type="button" class="button button--primary cart-checkout" data-testid="checkout" disabled=move || busy.get() on:click=freeze>{t("cart.checkout")}</button>
                }.into_any(),
                Checkout::Frozen(hash) | Checkout::Paying(hash) => {
                    let paying = matches!(checkout.get_untracked(), Checkout::Paying(_));
                    let pay_hash = hash.clone();
                    view! {
                        <form class="pay-form" data-testid="pay-form" on:submit=move |ev| { ev.prevent_default(); pay_with(pay_hash.clone(), None); }>
                            <p class="pay-form__frozen">{t("cart.frozen")}</p>
                            <label>{t("cart.card.label")}
                                <input type="text" name="card" inputmode="numeric" autocomplete="cc-number" required data-testid="card-number"
                                    aria-invalid=move || pay_error.with(Option::is_some).to_string()
                                    aria-describedby=move || if pay_error.with(Option::is_some) { "card-error card-hint" } else { "card-hint" }
                                    placeholder="4242 4242 4242 4242" prop:value=move || card.get() on:input=move |ev| card.set(event_target_value(&ev)) />
                            </label>
                            {move || pay_error.get().map(|key| view! { <p class="error" id="card-error" role="alert" data-testid="pay-error">{t(&key)}</p> })}
                            <p class="pay-form__hint" id="card-hint">{t("cart.card.hint")}</p>
                            <label class="pay-form__save"><input type="checkbox" name="saveCard" data-testid="save-card"
                                prop:checked=move || save_card.get() on:change=move |ev| save_card.set(event_target_checked(&ev)) />
                                {t("wallet.cards.save_at_checkout")}</label>
                            <button type="submit" class="button button--primary" data-testid="pay" disabled=paying aria-busy=paying.to_string()>
                                {if paying { t("common.loading") } else { t("cart.pay") }}
                            </button>
                            <button type="button" class="link-button" data-testid="checkout-cancel" disabled=paying
                                on:click=move |_| { checkout.set(Checkout::Idle); act("POST", format!("{PIPE}/cancel-order"), Some(json!({}))); }>{t("cart.checkout_cancel")}</button>
                        </form>
                    }.into_any()
                }
                _ => ().into_any(),
            }
    };
    // Only a change of state re-renders these, not every cart refresh: a card number
    // being typed survives the refresh that follows freezing.
    let has_items =
        Memo::new(move |_| cart.with(|c| c.as_ref().is_some_and(|c| !c.items.is_empty())));
    // The delivery step is for carts that send a parcel (not rose deals only).
    let needs_delivery = Memo::new(move |_| {
        cart.with(|c| {
            c.as_ref()
                .is_some_and(|c| crate::cart::rules::needs_delivery(&c.items))
        })
    });
    let done =
        Memo::new(move |_| matches!(checkout.get(), Checkout::Paid(_) | Checkout::Waiting { .. }));
    // The confirmation replaces the form the member was at, further down: it is brought
    // into view and focused, so it is seen and read out.
    Effect::new(move |_| {
        if matches!(checkout.get(), Checkout::Paid(_)) {
            request_animation_frame(move || {
                if let Some(h) = confirmation.get_untracked() {
                    let _ = h.focus();
                }
            });
        }
    });
    let title = ctx.t("page.cart");
    // Server-rendered (the island only shows or hides it): shown while there is something
    // to pay for.
    let delivery = crate::site::i18n::page::island_children(children);
    view! {
        <section class="cart-page" data-testid="cart-page">
            <h1>{title}</h1>
            {move || notice.get().map(|key| view! { <p class="error" role="alert" data-testid="cart-notice">{t(&key)}</p> })}
            {status}
            <div hidden=move || done.get()>
                {body}
                <div class="cart-delivery" data-testid="cart-delivery" hidden=move || !needs_delivery.get()>{delivery}</div>
                {move || has_items.get().then(checkout_block)}
            </div>
        </section>
    }
}

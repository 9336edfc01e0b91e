//! The order detail's after-sale actions (issue #14): the invoice download, the returns
//! form of a delivered order and, for a marketplace order, the help form to write to the
//! seller. The two forms are lazy islands posting to the REST calls; without scripts they
//! post to `/postsales/orders/{id}/aftersale` (server/src/forms/aftersale.rs), which
//! redirects back here with `?aftersale_notice=` or `?aftersale_error=`.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use crate::client::{self, CallError};
use crate::context::RequestCtx;
use crate::model::cart::Order;
use crate::orders::invoice::invoiceable;
use crate::orders::marketplace::{self, reduce_help, HelpAction, HelpForm};
use crate::orders::returns::model::{
    invoice_url, InvoiceRef, ReturnReasonView, ReturnSubReasonView,
};
use crate::orders::returns::rules::{
    self, error_key, reduce_returns_form, returnable, ReturnsFormAction, ReturnsFormState,
};

/// The no-script target of both forms.
pub fn form_action(order_id: i64) -> String {
    format!("/postsales/orders/{order_id}/aftersale")
}

/// Keys a redirect may show: a link cannot make the page say anything else.
pub fn known_message(key: &str) -> Option<&'static str> {
    const NOTICES: [&str; 2] = ["aftersale.returns.success", "aftersale.marketplace.sent"];
    NOTICES
        .iter()
        .chain(ERROR_KEYS.iter())
        .copied()
        .find(|k| *k == key)
}

const ERROR_KEYS: [&str; 11] = [
    "aftersale.errors.order_not_delivered",
    "aftersale.errors.invalid_quantity",
    "aftersale.errors.no_products",
    "aftersale.errors.unknown_product",
    "aftersale.errors.return_already_requested",
    "aftersale.errors.invalid_reason",
    "aftersale.errors.invalid_comment",
    "aftersale.errors.invalid_message",
    "aftersale.errors.not_marketplace_order",
    "aftersale.errors.order_not_invoiceable",
    "aftersale.errors.process_failure",
];

/// One order line the returns form offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReturnLine {
    pub product_id: String,
    pub name: String,
    pub quantity: i64,
}

fn reason_views(lang: &str, marketplace_contact: bool) -> Vec<ReturnReasonView> {
    let tr = |k: &str| crate::site::i18n::t(lang, k);
    if marketplace_contact {
        return marketplace::CONTACT_REASONS
            .iter()
            .map(|(id, key)| ReturnReasonView {
                label_key: (*key).into(),
                label: tr(key),
                value: (*id).into(),
                sub_reasons: None,
            })
            .collect();
    }
    rules::REASONS
        .iter()
        .map(|r| ReturnReasonView {
            label_key: r.label_key.into(),
            label: tr(r.label_key),
            value: r.id.into(),
            sub_reasons: (!r.sub_reasons.is_empty()).then(|| {
                r.sub_reasons
                    .iter()
                    .map(|(id, key)| ReturnSubReasonView {
                        label_key: (*key).into(),
                        label: tr(key),
                        value: (*id).into(),
                    })
                    .collect()
            }),
        })
        .collect()
}

#[component]
pub fn AfterSaleActions(order: Order) -> impl IntoView {
    let ctx = RequestCtx::current();
    let lang = crate::site::i18n::lang_of(ctx.site().locale);
    let query = use_query_map().get_untracked();
    let notice = query
        .get("aftersale_notice")
        .and_then(|k| known_message(&k));
    let error = query.get("aftersale_error").and_then(|k| known_message(&k));
    let back = format!("/my-orders/{}/{}", order.cart_type, order.id);
    let is_marketplace = marketplace::is_marketplace(&order.cart_type);
    let invoice = (invoiceable(&order.status) && !is_marketplace).then(|| {
        view! {
            <p class="aftersale__invoice">
                <a class="button" href=invoice_url(order.id) download="" data-testid="invoice-download">
                    {ctx.t("aftersale.invoice.download")}
                </a>
            </p>
        }
    });
    let lines: Vec<ReturnLine> = order
        .items
        .iter()
        .map(|i| ReturnLine {
            product_id: i.product_id.clone(),
            name: if i.option_label.is_empty() {
                i.name.clone()
            } else {
                format!("{} · {}", i.name, i.option_label)
            },
            quantity: i.quantity,
        })
        .collect();
    let returns = if order.cart_type == "travel" {
        None
    } else if returnable(&order.status) {
        Some(
            view! {
                <ReturnsForm order_id=order.id lines reasons=reason_views(lang, false)
                    marketplace=is_marketplace xsrf=ctx.xsrf.clone() back=back.clone() />
            }
            .into_any(),
        )
    } else {
        Some(
            view! { <p class="aftersale__note" data-testid="returns-not-yet">{ctx.t("aftersale.returns.not_yet")}</p> }
                .into_any(),
        )
    };
    let help = is_marketplace.then(|| {
        view! {
            <MarketplaceHelp order_id=order.id reasons=reason_views(lang, true)
                invoice=invoiceable(&order.status) xsrf=ctx.xsrf.clone() />
        }
    });
    view! {
        <div class="aftersale" data-testid="aftersale">
            <p class="account-notice" data-testid="aftersale-notice" role="status" aria-live="polite" hidden=notice.is_none()>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="aftersale-error" role="alert" hidden=error.is_none()>
                {error.map(|k| ctx.t(k))}
            </p>
            {invoice}
            {help}
            {returns}
        </div>
    }
}

/// The error code of a refused call, for the form states of spec 001 §4 (`None`: no answer).
fn refusal_code(e: &CallError) -> Option<String> {
    match e {
        CallError::Status(_, body) if !body.error_code.is_empty() => Some(body.error_code.clone()),
        _ => None,
    }
}

/// The returns form: lines and quantities, reason and sub-reason, comment; sent to the
/// returns call (or the marketplace return call), then the page reloads with the order's
/// new status and the success notice.
#[island(lazy)]
pub fn ReturnsForm(
    order_id: i64,
    lines: Vec<ReturnLine>,
    reasons: Vec<ReturnReasonView>,
    marketplace: bool,
    xsrf: String,
    back: String,
) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let t = |k: &str| RequestCtx::current().t(k);
    let state = RwSignal::new(ReturnsFormState::default());
    let quantities: Vec<RwSignal<i64>> = lines.iter().map(|_| RwSignal::new(0)).collect();
    let reason = RwSignal::new(String::new());
    let sub_reason = RwSignal::new(String::new());
    let comment = RwSignal::new(String::new());
    let reasons = StoredValue::new(reasons);
    let ids: Vec<String> = lines.iter().map(|l| l.product_id.clone()).collect();
    let qs = quantities.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if state.get_untracked().loading {
            return;
        }
        let products: Vec<serde_json::Value> = ids
            .iter()
            .zip(qs.iter())
            .filter(|(_, q)| q.get_untracked() > 0)
            .map(|(id, q)| serde_json::json!({ "productId": id, "quantity": q.get_untracked() }))
            .collect();
        let (url, body) = if marketplace {
            (
                format!("/api/postsale/v1/marketplace/orders/{order_id}/return"),
                serde_json::json!({ "products": products, "reasonId": reason.get_untracked() }),
            )
        } else {
            let sub = sub_reason.get_untracked();
            let text = comment.get_untracked();
            (
                format!("/api/postsale/v1/orders/{order_id}/returns"),
                serde_json::json!({
                    "products": products,
                    "reasonId": reason.get_untracked(),
                    "subReasonId": (!sub.is_empty()).then_some(sub),
                    "comment": (!text.trim().is_empty()).then_some(text),
                }),
            )
        };
        state.update(|s| *s = reduce_returns_form(s, &ReturnsFormAction::Pending));
        let back = back.clone();
        leptos::task::spawn_local(async move {
            let result = client::call("POST", &url, Some(body.to_string())).await;
            let action = match &result {
                Ok(_) => ReturnsFormAction::Fulfilled { error_code: None },
                Err(CallError::Unauthorized) => {
                    client::to_sign_in();
                    return;
                }
                Err(e) => match refusal_code(e) {
                    Some(code) => ReturnsFormAction::Fulfilled {
                        error_code: Some(code),
                    },
                    None => ReturnsFormAction::Rejected,
                },
            };
            state.update(|s| *s = reduce_returns_form(s, &action));
            if rules::succeeded(&state.get_untracked()) {
                client::navigate(&format!(
                    "{back}?aftersale_notice=aftersale.returns.success"
                ));
            }
        });
    };
    let rows = lines
        .iter()
        .zip(quantities)
        .map(|(line, q)| {
            let id = format!("return-qty-{order_id}-{}", line.product_id);
            let label = RequestCtx::current()
                .t_with("aftersale.returns.quantity", &[("name", &line.name)]);
            view! {
                <p class="aftersale__line">
                    <label for=id.clone()>{label}</label>
                    <input id=id type="number" inputmode="numeric" min="0" max=line.quantity.to_string() value="0"
                        name=format!("qty_{}", line.product_id) data-testid="return-quantity"
                        on:input=move |ev| q.set(event_target_value(&ev).trim().parse().unwrap_or(0)) />
                </p>
            }
        })
        .collect_view();
    let sub_options = move || {
        let chosen = reason.get();
        reasons.with_value(|rs| {
            rs.iter()
                .find(|r| r.value == chosen)
                .and_then(|r| r.sub_reasons.clone())
                .unwrap_or_default()
        })
    };
    let reason_id = format!("return-reason-{order_id}");
    let sub_id = format!("return-sub-{order_id}");
    let comment_id = format!("return-comment-{order_id}");
    view! {
        <form class="aftersale__form" method="post" action=form_action(order_id) data-testid="returns-form"
            on:submit=submit aria-labelledby=format!("returns-title-{order_id}")>
            <h3 id=format!("returns-title-{order_id}")>{t("aftersale.returns.title")}</h3>
            <p>{t("aftersale.returns.intro")}</p>
            <input type="hidden" name="_xsrf" value=xsrf />
            <input type="hidden" name="action" value=if marketplace { "marketplace_return" } else { "return" } />
            {rows}
            <p class="aftersale__field">
                <label for=reason_id.clone()>{t("aftersale.returns.reason_label")}</label>
                <select id=reason_id name="reasonId" required data-testid="return-reason"
                    on:change=move |ev| { reason.set(event_target_value(&ev)); sub_reason.set(String::new()); }>
                    <option value="">{t("aftersale.returns.choose")}</option>
                    {reasons.with_value(|rs| rs.iter().map(|r| view! { <option value=r.value.clone()>{r.label.clone()}</option> }).collect_view())}
                </select>
            </p>
            {move || {
                let subs = sub_options();
                (!subs.is_empty() && !marketplace).then(|| view! {
                    <p class="aftersale__field">
                        <label for=sub_id.clone()>{t("aftersale.returns.sub_reason_label")}</label>
                        <select id=sub_id.clone() name="subReasonId" data-testid="return-sub-reason"
                            on:change=move |ev| sub_reason.set(event_target_value(&ev))>
                            <option value="">{t("aftersale.returns.choose")}</option>
                            {subs.into_iter().map(|s| view! { <option value=s.value>{s.label}</option> }).collect_view()}
                        </select>
                    </p>
                })
            }}
            {(!marketplace).then(|| view! {
                <p class="aftersale__field">
                    <label for=comment_id.clone()>{t("aftersale.returns.comment")}</label>
                    <textarea id=comment_id name="comment" maxlength="1000" rows="3"
                        on:input=move |ev| comment.set(event_target_value(&ev))></textarea>
                </p>
            })}
            <p>
                <button type="submit" class="button button--primary" data-testid="return-send"
                    disabled=move || state.get().loading aria-busy=move || state.get().loading.to_string()>
                    {move || if state.get().loading { t("aftersale.returns.sending") } else { t("aftersale.returns.send") }}
                </button>
            </p>
            {move || {
                let s = state.get();
                if rules::succeeded(&s) {
                    Some(view! { <p class="account-notice" role="status" data-testid="return-success">{t("aftersale.returns.success")}</p> }.into_any())
                } else {
                    s.error_code.map(|code| view! {
                        <p class="error" role="alert" data-testid="return-error" data-code=code.clone()>{t(&error_key(&code))}</p>
                    }.into_any())
                }
            }}
        </form>
    }
}

/// The marketplace help form (spec 001 §3, §4): a message to the seller under a reason,
/// and the invoice on request.
#[island(lazy)]
pub fn MarketplaceHelp(
    order_id: i64,
    reasons: Vec<ReturnReasonView>,
    invoice: bool,
    xsrf: String,
) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let t = |k: &str| RequestCtx::current().t(k);
    let form = RwSignal::new(HelpForm {
        order_id,
        ..HelpForm::default()
    });
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let invoice_number = RwSignal::new(None::<String>);
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let f = form.get_untracked();
        let body = serde_json::json!({
            "message": f.message,
            "reasonId": f.reason_id.clone().unwrap_or_default(),
        });
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let url = format!("/api/postsale/v1/marketplace/orders/{order_id}/contact");
            match client::call("POST", &url, Some(body.to_string())).await {
                Ok(_) => form.update(|s| *s = reduce_help(s, &HelpAction::MessageSent)),
                Err(CallError::Unauthorized) => client::to_sign_in(),
                Err(e) => error.set(Some(error_key(
                    &refusal_code(&e).unwrap_or_else(|| rules::PROCESS_FAILURE.into()),
                ))),
            }
            busy.set(false);
        });
    };
    let fetch_invoice = move |_| {
        leptos::task::spawn_local(async move {
            let url = invoice_url(order_id);
            match client::call("POST", &url, None).await {
                Ok(reply) => {
                    if let Some(r) = reply.json::<InvoiceRef>() {
                        invoice_number.set(Some(r.invoice_number));
                    }
                    form.update(|s| *s = reduce_help(s, &HelpAction::InvoiceFetched));
                }
                Err(CallError::Unauthorized) => client::to_sign_in(),
                Err(e) => error.set(Some(error_key(
                    &refusal_code(&e).unwrap_or_else(|| rules::PROCESS_FAILURE.into()),
                ))),
            }
        });
    };
    let reason_id = format!("mp-reason-{order_id}");
    let message_id = format!("mp-message-{order_id}");
    view! {
        <section class="aftersale__marketplace" data-testid="marketplace-help" aria-labelledby=format!("mp-title-{order_id}")>
            <h3 id=format!("mp-title-{order_id}")>{t("aftersale.marketplace.title")}</h3>
            <p>{t("aftersale.marketplace.intro")}</p>
            {invoice.then(|| view! {
                <p class="aftersale__invoice">
                    <a class="button" href=invoice_url(order_id) download="" data-testid="invoice-download"
                        on:click=fetch_invoice>{t("aftersale.invoice.download")}</a>
                    {move || form.get().open_invoice.then(|| invoice_number.get().map(|n| view! {
                        " "<span data-testid="invoice-number">{RequestCtx::current().t_with("aftersale.invoice.number_is", &[("number", &n)])}</span>
                    }))}
                </p>
            })}
            <form method="post" action=form_action(order_id) on:submit=send data-testid="marketplace-contact">
                <input type="hidden" name="_xsrf" value=xsrf />
                <input type="hidden" name="action" value="contact" />
                <p class="aftersale__field">
                    <label for=reason_id.clone()>{t("aftersale.marketplace.reason_label")}</label>
                    <select id=reason_id name="reasonId" required data-testid="marketplace-reason"
                        on:change=move |ev| form.update(|s| *s = reduce_help(s, &HelpAction::SelectReason(event_target_value(&ev))))>
                        <option value="">{t("aftersale.returns.choose")}</option>
                        {reasons.into_iter().map(|r| view! { <option value=r.value>{r.label}</option> }).collect_view()}
                    </select>
                </p>
                <p class="aftersale__field">
                    <label for=message_id.clone()>{t("aftersale.marketplace.message")}</label>
                    <textarea id=message_id name="message" required maxlength="2000" rows="4" data-testid="marketplace-message"
                        prop:value=move || form.get().message
                        on:input=move |ev| form.update(|s| *s = reduce_help(s, &HelpAction::SetMessage(event_target_value(&ev))))></textarea>
                </p>
                <p>
                    <button type="submit" class="button button--primary" data-testid="marketplace-send"
                        disabled=move || busy.get()>{t("aftersale.marketplace.send")}</button>
                </p>
                {move || form.get().message_has_been_sent.then(|| view! {
                    <p class="account-notice" role="status" data-testid="marketplace-sent">{t("aftersale.marketplace.sent")}</p>
                })}
                {move || error.get().map(|k| view! { <p class="error" role="alert" data-testid="marketplace-error">{t(&k)}</p> })}
            </form>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_keys_come_back_from_a_redirect() {
        assert_eq!(
            known_message("aftersale.returns.success"),
            Some("aftersale.returns.success")
        );
        assert_eq!(
            known_message("aftersale.errors.invalid_quantity"),
            Some("aftersale.errors.invalid_quantity")
        );
        assert_eq!(known_message("aftersale.errors.made_up"), None);
        assert_eq!(known_message("<script>"), None);
    }
}

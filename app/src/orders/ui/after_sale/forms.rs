//! The returns form and the marketplace help form of the order detail, as server HTML:
//! they post without scripts, and the enhancement script sends them in place. An error of
//! the form comes back beside its fields (`return-error` / `marketplace-error`, with the
//! spec's code), the fields marked to keep what the member typed.
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::{form_action, FormError};
use crate::context::RequestCtx;
use crate::orders::returns::model::{invoice_url, ReturnReasonView};

fn t(key: &str) -> String {
    RequestCtx::current().t(key)
}

/// One order line the returns form offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReturnLine {
    pub product_id: String,
    pub name: String,
    pub quantity: i64,
}

/// The returns form: lines and quantities, reason and sub-reason (grouped by reason; with
/// scripts only the chosen reason's are offered), comment. Shop orders go to the returns call,
/// marketplace orders to the marketplace return call.
#[component]
pub fn ReturnsForm(
    order_id: i64,
    lines: Vec<ReturnLine>,
    reasons: Vec<ReturnReasonView>,
    marketplace: bool,
    xsrf: String,
    error: Option<FormError>,
) -> impl IntoView {
    let keep = error.is_some().then_some("");
    let rows = lines
        .iter()
        .map(|line| {
            let id = format!("return-qty-{order_id}-{}", line.product_id);
            let label = RequestCtx::current()
                .t_with("aftersale.returns.quantity", &[("name", &line.name)]);
            view! {
                <p class="aftersale__line">
                    <label for=id.clone()>{label}</label>
                    <input id=id type="number" inputmode="numeric" min="0" max=line.quantity.to_string() value="0"
                        name=format!("qty_{}", line.product_id) data-enhance-keep=keep
                        data-testid="return-quantity" />
                </p>
            }
        })
        .collect_view();
    let reason_id = format!("return-reason-{order_id}");
    let sub_id = format!("return-sub-{order_id}");
    let comment_id = format!("return-comment-{order_id}");
    let title_id = format!("returns-title-{order_id}");
    let options = reasons
        .iter()
        .map(|r| view! { <option value=r.value.clone()>{r.label.clone()}</option> })
        .collect_view();
    let groups = reasons
        .iter()
        .filter_map(|r| {
            let subs = r.sub_reasons.clone()?;
            Some(view! {
                <optgroup label=r.label.clone() data-when=r.value.clone()>
                    {subs.into_iter().map(|s| view! { <option value=s.value>{s.label}</option> }).collect_view()}
                </optgroup>
            })
        })
        .collect_view();
    view! {
        <form class="aftersale__form" method="post" action=form_action(order_id, if marketplace { "marketplace_return" } else { "return" }) data-testid="returns-form"
            data-enhance="" aria-labelledby=title_id>
            <h3 id=title_id.clone()>{t("aftersale.returns.title")}</h3>
            <p>{t("aftersale.returns.intro")}</p>
            <input type="hidden" name="_xsrf" value=xsrf />
            {rows}
            <p class="aftersale__field">
                <label for=reason_id.clone()>{t("aftersale.returns.reason_label")}</label>
                <select id=reason_id name="reasonId" required data-testid="return-reason" data-enhance-keep=keep>
                    <option value="">{t("aftersale.returns.choose")}</option>
                    {options}
                </select>
            </p>
            {(!marketplace).then(|| view! {
                <p class="aftersale__field" data-field="">
                    <label for=sub_id.clone()>{t("aftersale.returns.sub_reason_label")}</label>
                    <select id=sub_id.clone() name="subReasonId" data-testid="return-sub-reason" data-depends-on="reasonId"
                        data-enhance-keep=keep>
                        <option value="">{t("aftersale.returns.choose")}</option>
                        {groups}
                    </select>
                </p>
                <p class="aftersale__field">
                    <label for=comment_id.clone()>{t("aftersale.returns.comment")}</label>
                    <textarea id=comment_id name="comment" maxlength="1000" rows="3" data-enhance-keep=keep></textarea>
                </p>
            })}
            <p>
                <button type="submit" class="button button--primary" data-testid="return-send">
                    {t("aftersale.returns.send")}
                </button>
            </p>
            {error.map(|e| view! {
                <p class="error" role="alert" data-testid="return-error" data-code=e.code data-enhance-focus="">{t(e.key)}</p>
            })}
        </form>
    }
}

/// The marketplace help form (spec 001 §3, §4): a message to the seller under a reason,
/// and the invoice on request (a form: its number is given, then shown with the download).
#[component]
pub fn MarketplaceHelp(
    order_id: i64,
    reasons: Vec<ReturnReasonView>,
    invoice: bool,
    /// The number the invoice request gave (`openInvoice`).
    invoice_number: Option<String>,
    xsrf: String,
    /// The message was sent (the redirect's notice).
    sent: bool,
    error: Option<FormError>,
) -> impl IntoView {
    let keep = error.is_some().then_some("");
    let reason_id = format!("mp-reason-{order_id}");
    let message_id = format!("mp-message-{order_id}");
    let title_id = format!("mp-title-{order_id}");
    view! {
        <section class="aftersale__marketplace" data-testid="marketplace-help" aria-labelledby=title_id>
            <h3 id=title_id.clone()>{t("aftersale.marketplace.title")}</h3>
            <p>{t("aftersale.marketplace.intro")}</p>
            {invoice.then(|| match invoice_number {
                Some(number) => view! {
                    <p class="aftersale__invoice">
                        <span data-testid="invoice-number" data-enhance-focus="">
                            {RequestCtx::current().t_with("aftersale.invoice.number_is", &[("number", &number)])}
                        </span>
                        " "
                        <a class="button" href=invoice_url(order_id) download="" data-testid="invoice-download">
                            {t("aftersale.invoice.download")}
                        </a>
                    </p>
                }.into_any(),
                None => view! {
                    <form class="aftersale__invoice" method="post" action=form_action(order_id, "invoice") data-enhance=""
                        data-testid="invoice-request-form">
                        <input type="hidden" name="_xsrf" value=xsrf.clone() />
                        <button type="submit" class="button" data-testid="invoice-request">{t("aftersale.invoice.request")}</button>
                    </form>
                }.into_any(),
            })}
            <form method="post" action=form_action(order_id, "contact") data-testid="marketplace-contact" data-enhance="">
                <input type="hidden" name="_xsrf" value=xsrf />
                <p class="aftersale__field">
                    <label for=reason_id.clone()>{t("aftersale.marketplace.reason_label")}</label>
                    <select id=reason_id name="reasonId" required data-testid="marketplace-reason" data-enhance-keep=keep>
                        <option value="">{t("aftersale.returns.choose")}</option>
                        {reasons.into_iter().map(|r| view! { <option value=r.value>{r.label}</option> }).collect_view()}
                    </select>
                </p>
                <p class="aftersale__field">
                    <label for=message_id.clone()>{t("aftersale.marketplace.message")}</label>
                    <textarea id=message_id name="message" required maxlength="2000" rows="4" data-testid="marketplace-message"
                        data-enhance-keep=keep></textarea>
                </p>
                <p>
                    <button type="submit" class="button button--primary" data-testid="marketplace-send">{t("aftersale.marketplace.send")}</button>
                </p>
                <p class="account-notice" role="status" data-testid="marketplace-sent" hidden=!sent
                    data-enhance-focus=sent.then_some("")>{t("aftersale.marketplace.sent")}</p>
                {error.map(|e| view! {
                    <p class="error" role="alert" data-testid="marketplace-error" data-code=e.code data-enhance-focus="">{t(e.key)}</p>
                })}
            </form>
        </section>
    }
}

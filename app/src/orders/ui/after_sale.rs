//! The order detail's after-sale actions (issue #14): the invoice download, the returns
//! form of a delivered order and, for a marketplace order, the help form to write to the
//! seller. Server forms (no island, issue #10): they post to `/postsales/orders/{id}/aftersale`
//! (server/src/forms/aftersale.rs), which redirects back here with `?aftersale_notice=` or
//! `?aftersale_error=`. `/js/aftersale.js` sends them to the REST calls in place instead and
//! shows the form states of spec 001 §4 as `orders::returns::rules` and
//! `orders::marketplace` say (their cases are shared with the script's tests:
//! `app/tests/vectors/aftersale.json`).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::after_sale_forms::{MarketplaceHelp, ReturnLine, ReturnsForm};
use crate::context::RequestCtx;
use crate::model::cart::Order;
use crate::orders::invoice::invoiceable;
use crate::orders::marketplace;
use crate::orders::returns::model::{invoice_url, ReturnReasonView, ReturnSubReasonView};
use crate::orders::returns::rules::{self, may_request, ReturnsFormAction};

pub const SCRIPT: &str = "/js/aftersale.js";

/// The no-script target of the forms.
pub fn form_action(order_id: i64) -> String {
    format!("/postsales/orders/{order_id}/aftersale")
}

const NOTICES: [&str; 2] = ["aftersale.returns.success", "aftersale.marketplace.sent"];

const ERROR_KEYS: [&str; 12] = [
    "aftersale.errors.order_not_delivered",
    "aftersale.errors.return_window_closed",
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

/// What reopening an order may answer without scripts (the cart's messages).
const REOPEN_KEYS: [&str; 3] = [
    "cart.errors.reopen",
    "cart.errors.frozen",
    "cart.errors.unexpected",
];

/// Keys a redirect may show: a link cannot make the page say anything else.
pub fn known_message(key: &str) -> Option<&'static str> {
    NOTICES
        .iter()
        .chain(ERROR_KEYS.iter())
        .chain(REOPEN_KEYS.iter())
        .copied()
        .find(|k| *k == key)
}

/// The texts the page script shows (its only wording), as JSON for `data-messages`.
fn messages(ctx: &RequestCtx) -> String {
    let keys = NOTICES.iter().chain(ERROR_KEYS.iter()).copied().chain([
        "aftersale.returns.send",
        "aftersale.returns.sending",
        "aftersale.invoice.number_is",
    ]);
    let map: serde_json::Map<String, serde_json::Value> = keys
        .map(|k| (k.to_string(), serde_json::Value::String(ctx.t(k))))
        .collect();
    serde_json::Value::Object(map).to_string()
}

/// What an answer of the returns calls does to the form (spec 001 §4): a success fulfils it,
/// a refusal with an error code fulfils it keeping the code, anything else (no answer,
/// no code) rejects it. `None`: the session is gone (401), the member signs in again.
/// `status` 0 is no answer at all. `/js/aftersale.js` has the same rule (shared vectors).
pub fn answer_action(status: u16, error_code: Option<&str>) -> Option<ReturnsFormAction> {
    match status {
        200..=299 => Some(ReturnsFormAction::Fulfilled { error_code: None }),
        401 => None,
        _ => Some(match error_code.filter(|c| !c.is_empty()) {
            Some(code) => ReturnsFormAction::Fulfilled {
                error_code: Some(code.to_string()),
            },
            None => ReturnsFormAction::Rejected,
        }),
    }
}

pub(super) fn reason_views(lang: &str, marketplace_contact: bool) -> Vec<ReturnReasonView> {
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

/// `delivered`: the order's timeline has a delivery (a return needs one, as the returns
/// call checks with `rules::may_request`).
#[component]
pub fn AfterSaleActions(order: Order, delivered: bool) -> impl IntoView {
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
    } else if may_request(&order.status, delivered).is_ok() {
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
        <div class="aftersale" data-testid="aftersale" data-aftersale=order.id data-messages=messages(&ctx)>
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
        <script src=SCRIPT defer></script>
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
        assert_eq!(
            known_message("cart.errors.reopen"),
            Some("cart.errors.reopen")
        );
        assert_eq!(known_message("aftersale.errors.made_up"), None);
        assert_eq!(known_message("cart.errors.whatever"), None);
        assert_eq!(known_message("<script>"), None);
    }

    #[test]
    fn answers_become_form_actions() {
        assert_eq!(
            answer_action(201, None),
            Some(ReturnsFormAction::Fulfilled { error_code: None })
        );
        assert_eq!(answer_action(401, Some("unauthorized")), None);
        assert_eq!(
            answer_action(400, Some("no_products")),
            Some(ReturnsFormAction::Fulfilled {
                error_code: Some("no_products".into())
            })
        );
        assert_eq!(
            answer_action(500, Some("")),
            Some(ReturnsFormAction::Rejected)
        );
        assert_eq!(answer_action(0, None), Some(ReturnsFormAction::Rejected));
    }
}

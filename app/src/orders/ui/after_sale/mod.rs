//! The order detail's after-sale actions: the invoice download, the returns
//! form of a delivered order and, for a marketplace order, the help form to write to the
//! seller. Server forms: they post to `/postsales/orders/{id}/aftersale/<action>`
//! (server/src/forms/aftersale.rs), which redirects back here with `?aftersale_notice=` or
//! `?aftersale_error=` and `aftersale_form=` (the form the error belongs to, which shows it
//! beside its fields, data-code = the spec's error code). The enhancement script sends them
//! in place and keeps what the member typed when the answer is an error.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

mod forms;

use crate::context::RequestCtx;
use crate::model::cart::Order;
use crate::orders::invoice::invoiceable;
use crate::orders::marketplace;
use crate::orders::returns::model::{invoice_url, ReturnReasonView, ReturnSubReasonView};
use crate::orders::returns::rules::{self, may_request};
use forms::{MarketplaceHelp, ReturnLine, ReturnsForm};

/// The target of one of the order's after-sale forms (`server/src/forms/aftersale.rs`: one
/// route per action: `return`, `marketplace_return`, `contact`, `reopen`).
pub fn form_action(order_id: i64, action: &str) -> String {
    format!("/postsales/orders/{order_id}/aftersale/{action}")
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

/// The error a form's redirect brought back, for that form: its spec error code and key.
pub(super) struct FormError {
    pub code: String,
    pub key: &'static str,
}

/// The code of an after-sale error key (`aftersale.errors.no_products` → `no_products`).
fn error_code(key: &'static str) -> String {
    key.rsplit('.').next().unwrap_or(key).to_string()
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
    // An error of the returns or the seller's form shows in that form, not at the top.
    let in_form = query.get("aftersale_form").filter(|_| error.is_some());
    let form_error = |form: &str| {
        (in_form.as_deref() == Some(form)).then(|| FormError {
            code: error.map(error_code).unwrap_or_default(),
            key: error.unwrap_or_default(),
        })
    };
    let returns_error = form_error("returns");
    let contact_error = form_error("contact");
    let error = error.filter(|_| in_form.is_none());
    let sent = notice == Some("aftersale.marketplace.sent");
    let notice = notice.filter(|_| !sent);
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
    // Bookings and vouchers are not sent back (rose deals are refunded by their own form).
    let returns = if matches!(
        order.cart_type.as_str(),
        "travel" | crate::rosedeals::rules::CART_TYPE
    ) {
        None
    } else if may_request(&order.status, delivered).is_ok() {
        Some(
            view! {
                <ReturnsForm order_id=order.id lines reasons=reason_views(lang, false)
                    marketplace=is_marketplace xsrf=ctx.xsrf.clone() error=returns_error />
            }
            .into_any(),
        )
    } else {
        Some(
            view! { <p class="aftersale__note" data-testid="returns-not-yet">{ctx.t("aftersale.returns.not_yet")}</p> }
                .into_any(),
        )
    };
    // Once a return is asked for, what to do with the parcel (shop orders: a marketplace
    // seller sends their own instructions).
    let instructions = (order.status == "return_requested" && !is_marketplace)
        .then(|| view! { <ReturnInstructions order_id=order.id /> });
    // The number the invoice form's redirect gives (`?aftersale_invoice=`).
    let invoice_number = query
        .get("aftersale_invoice")
        .filter(|n| crate::orders::invoice::vat::is_invoice_number(n));
    let help = is_marketplace.then(|| {
        view! {
            <MarketplaceHelp order_id=order.id reasons=reason_views(lang, true)
                invoice=invoiceable(&order.status) invoice_number xsrf=ctx.xsrf.clone() sent error=contact_error />
        }
    });
    view! {
        <div class="aftersale" data-testid="aftersale" data-aftersale=order.id>
            <p class="account-notice" data-testid="aftersale-notice" role="status" aria-live="polite" hidden=notice.is_none()
                data-enhance-focus=notice.map(|_| "")>
                {notice.map(|k| ctx.t(k))}
            </p>
            <p class="account-notice account-notice--error" data-testid="aftersale-error" role="alert" hidden=error.is_none()
                data-enhance-focus=error.map(|_| "")>
                {error.map(|k| ctx.t(k))}
            </p>
            {invoice}
            {help}
            {instructions}
            {returns}
        </div>
    }
}

/// The steps of sending a return back: pack, mark the parcel with the order number, post
/// it to the returns warehouse within the window, then the refund.
#[component]
fn ReturnInstructions(order_id: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let order = order_id.to_string();
    let days = rules::SEND_BACK_DAYS.to_string();
    view! {
        <section class="aftersale__instructions" aria-labelledby=format!("return-how-{order_id}") data-testid="return-instructions">
            <h3 id=format!("return-how-{order_id}")>{ctx.t("aftersale.instructions.title")}</h3>
            <ol>
                <li>{ctx.t("aftersale.instructions.pack")}</li>
                <li>{ctx.t_with("aftersale.instructions.mark", &[("order", &order)])}</li>
                <li>
                    {ctx.t_with("aftersale.instructions.send", &[("days", &days)])}
                    <address data-testid="return-address">
                        {ctx.t_with("aftersale.instructions.addressee", &[("brand", brand)])}<br />
                        {rules::RETURN_ADDRESS.iter().map(|line| view! { {*line}<br /> }).collect_view()}
                    </address>
                </li>
                <li>{ctx.t("aftersale.instructions.refund")}</li>
            </ol>
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
        assert_eq!(
            known_message("cart.errors.reopen"),
            Some("cart.errors.reopen")
        );
        assert_eq!(known_message("aftersale.errors.made_up"), None);
        assert_eq!(known_message("cart.errors.whatever"), None);
        assert_eq!(known_message("<script>"), None);
    }
}

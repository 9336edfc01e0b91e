//! The order detail's after-sale forms without scripts (Post/Redirect/Get), one route per
//! action: a return request (shop or marketplace), a message to a marketplace seller, a
//! marketplace order's invoice, and reopening a recent order into the cart. The same service calls as the REST calls; back
//! to the order with `?aftersale_notice=` or `?aftersale_error=` (keys the page knows, see
//! `app::orders::ui::after_sale`) with `aftersale_form=` (the form it shows in), or on to
//! the cart once an order is reopened.
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;

use app::model::error::WireError;
use app::orders::returns::error::AfterSaleError;
use app::orders::returns::model::{MarketplaceContactRequest, ReturnProduct, ReturnRequest};
use app::orders::returns::rules::MARKETPLACE_DEFAULT_REASON;
use app::orders::returns::service::{self as returns, Channel};
use app::platform::session::SessionMember;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::middleware;
use crate::state::AppCtx;
use crate::web::extract::Path;

const ORDERS: &str = "/my-orders";

pub fn router() -> Router<Arc<AppCtx>> {
    let at = |action: &str| format!("/postsales/orders/{{id}}/aftersale/{action}");
    Router::new()
        .route(&at("return"), post(shop_return))
        .route(&at("marketplace_return"), post(marketplace_return))
        .route(&at("contact"), post(contact))
        .route(&at("reopen"), post(reopen))
        .route(&at("invoice"), post(invoice))
}

/// The fields as sent: a return's quantities come as `qty_<product id>`, which a struct
/// cannot name.
type Pairs = Vec<(String, String)>;

fn field<'a>(pairs: &'a [(String, String)], name: &str) -> &'a str {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

/// The member and their order's page; a form for an order that is not theirs (or no order
/// at all) leads to their orders.
async fn order_page(
    form: &XsrfForm<Pairs>,
    raw_id: &str,
) -> Result<(SessionMember, i64, String), Response> {
    let Some(m) = form.member().cloned() else {
        return Err(form.sign_in_first(ORDERS));
    };
    let Ok(order_id) = raw_id.parse::<i64>() else {
        return Err(middleware::redirect(ORDERS));
    };
    match app::orders::service::page_of(&form.app.state.db, m.member_id, order_id).await {
        Ok(page) => Ok((m, order_id, page)),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "cannot read the order of an after-sale form");
            }
            Err(middleware::redirect(ORDERS))
        }
    }
}

/// Back to the order with the notice, or with the error in the form it belongs to.
fn answered(page: &str, form_name: &str, result: Result<&str, AfterSaleError>) -> FormOutcome {
    match result {
        Ok(key) => FormOutcome::to(format!("{page}?aftersale_notice={key}")),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "after-sale form failed");
            }
            let key = match e {
                AfterSaleError::Storage(_) | AfterSaleError::Unreadable => {
                    "aftersale.errors.process_failure"
                }
                ref other => other.message_key(),
            };
            FormOutcome::to(format!(
                "{page}?aftersale_error={key}&aftersale_form={form_name}"
            ))
        }
    }
}

async fn shop_return(Path(id): Path<String>, form: XsrfForm<Pairs>) -> Response {
    request_return(id, form, Channel::Shop).await
}

async fn marketplace_return(Path(id): Path<String>, form: XsrfForm<Pairs>) -> Response {
    request_return(id, form, Channel::Marketplace).await
}

async fn request_return(raw_id: String, form: XsrfForm<Pairs>, channel: Channel) -> Response {
    let (m, order_id, page) = match order_page(&form, &raw_id).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let pairs = &form.fields;
    let products: Vec<ReturnProduct> = pairs
        .iter()
        .filter_map(|(k, v)| {
            let id = k.strip_prefix("qty_")?;
            let quantity = v.trim().parse::<i64>().ok().filter(|q| *q != 0)?;
            Some(ReturnProduct {
                product_id: serde_json::Value::String(id.to_string()),
                quantity,
            })
        })
        .collect();
    let text = |name: &str| {
        let v = field(pairs, name).trim();
        (!v.is_empty()).then(|| v.to_string())
    };
    let req = ReturnRequest {
        products,
        reason_id: text("reasonId").unwrap_or_else(|| {
            if channel == Channel::Marketplace {
                MARKETPLACE_DEFAULT_REASON.into()
            } else {
                String::new()
            }
        }),
        sub_reason_id: text("subReasonId"),
        comment: text("comment"),
    };
    let now = app::platform::state::now();
    let result = returns::request(
        &form.app.state.db,
        m.member_id,
        order_id,
        &req,
        channel,
        now,
    )
    .await
    .map(|_| "aftersale.returns.success");
    form.answer(answered(&page, "returns", result))
}

async fn contact(Path(id): Path<String>, form: XsrfForm<Pairs>) -> Response {
    let (m, order_id, page) = match order_page(&form, &id).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let req = MarketplaceContactRequest {
        message: field(&form.fields, "message").to_string(),
        reason_id: field(&form.fields, "reasonId").to_string(),
    };
    let now = app::platform::state::now();
    let db = &form.app.state.db;
    let result = app::orders::marketplace::service::contact(db, m.member_id, order_id, &req, now)
        .await
        .map(|_| "aftersale.marketplace.sent");
    form.answer(answered(&page, "contact", result))
}

async fn reopen(Path(id): Path<String>, form: XsrfForm<Pairs>) -> Response {
    let (m, order_id, page) = match order_page(&form, &id).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let member = app::cart::service::Member {
        id: m.member_id,
        site_id: i64::from(m.site_id),
    };
    let now = app::platform::state::now();
    let outcome = match form.app.cart.reopen(member, order_id, now).await {
        // As the button did with scripts: the cart, in the site the session is on.
        Ok(()) => FormOutcome::away("/cart"),
        Err(e) => {
            if let app::cart::error::CartFailure::Db(cause) = &e {
                tracing::error!(error = %cause, "cannot reopen order");
            }
            let key = app::orders::ui::after_sale::known_message(e.message_key())
                .unwrap_or("cart.errors.unexpected");
            FormOutcome::to(format!("{page}?aftersale_error={key}"))
        }
    };
    form.answer(outcome)
}

/// A marketplace order's invoice: its number is given (once) and the page shows it with the
/// download (`?aftersale_invoice=<number>`).
async fn invoice(Path(id): Path<String>, form: XsrfForm<Pairs>) -> Response {
    let (m, order_id, page) = match order_page(&form, &id).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let now = app::platform::state::now();
    let db = &form.app.state.db;
    let outcome = match app::orders::invoice::service::issue(db, m.member_id, order_id, now).await {
        Ok(number) => FormOutcome::to(format!("{page}?aftersale_invoice={number}")),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "invoice request failed");
            }
            let key = app::orders::ui::after_sale::known_message(e.message_key())
                .unwrap_or("aftersale.errors.process_failure");
            FormOutcome::to(format!("{page}?aftersale_error={key}"))
        }
    };
    form.answer(outcome)
}

//! The order detail's after-sale forms without scripts (Post/Redirect/Get): a return
//! request (shop or marketplace), a message to a marketplace seller, and reopening a recent
//! order into the cart. The same service calls as the REST calls; back to the order with
//! `?aftersale_notice=` or `?aftersale_error=` (keys the page knows, see
//! `app::orders::ui::after_sale`) with `aftersale_form=` (the form it shows in), or on to
//! the cart once an order is reopened.
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;

use app::context::RequestCtx;
use app::model::error::WireError;
use app::orders::returns::error::AfterSaleError;
use app::orders::returns::model::{MarketplaceContactRequest, ReturnProduct, ReturnRequest};
use app::orders::returns::rules::MARKETPLACE_DEFAULT_REASON;
use app::orders::returns::service::{self as returns, Channel};

use super::check_xsrf;
use super::outcome::see_other;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::extract::Path;
use crate::web::session::site_suffix;

fn field<'a>(pairs: &'a [(String, String)], name: &str) -> &'a str {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

pub async fn aftersale_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Path(raw_id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(order_id) = raw_id.parse::<i64>() else {
        return middleware::redirect("/my-orders");
    };
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap_or_default();
    if let Err(refused) = check_xsrf(&app, &session, &headers, field(&pairs, "_xsrf")) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect("/my-orders"));
    };
    let db = &app.state.db;
    let now = app::platform::state::now();
    let cart_type: Option<String> =
        sqlx::query_scalar("SELECT cart_type FROM orders WHERE id = $1 AND member_id = $2")
            .bind(order_id)
            .bind(m.member_id)
            .fetch_optional(&db.pool)
            .await
            .ok()
            .flatten();
    let Some(cart_type) = cart_type else {
        return middleware::redirect("/my-orders");
    };
    let page = format!("/my-orders/{cart_type}/{order_id}");
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
        let v = field(&pairs, name).trim();
        (!v.is_empty()).then(|| v.to_string())
    };
    let suffix = site_suffix(&ctx, ctx.site_id);
    if field(&pairs, "action") == "reopen" {
        let member = app::cart::service::Member {
            id: m.member_id,
            site_id: i64::from(m.site_id),
        };
        return match app.cart.reopen(member, order_id, now).await {
            // As the button did with scripts: the cart, in the site the session is on.
            Ok(()) => see_other("/cart"),
            Err(e) => {
                if let app::cart::error::CartFailure::Db(cause) = &e {
                    tracing::error!(error = %cause, "cannot reopen order");
                }
                let key = app::orders::ui::after_sale::known_message(e.message_key())
                    .unwrap_or("cart.errors.unexpected");
                see_other(&format!("{page}?aftersale_error={key}{suffix}"))
            }
        };
    }
    let result: Result<&'static str, AfterSaleError> = match field(&pairs, "action") {
        "return" | "marketplace_return" => {
            let channel = if field(&pairs, "action") == "return" {
                Channel::Shop
            } else {
                Channel::Marketplace
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
            returns::request(db, m.member_id, order_id, &req, channel, now)
                .await
                .map(|_| "aftersale.returns.success")
        }
        "contact" => {
            let req = MarketplaceContactRequest {
                message: field(&pairs, "message").to_string(),
                reason_id: field(&pairs, "reasonId").to_string(),
            };
            app::orders::marketplace::service::contact(db, m.member_id, order_id, &req, now)
                .await
                .map(|_| "aftersale.marketplace.sent")
        }
        _ => Err(AfterSaleError::Unreadable),
    };
    match result {
        Ok(key) => see_other(&format!("{page}?aftersale_notice={key}{suffix}")),
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
            let form = if field(&pairs, "action") == "contact" {
                "contact"
            } else {
                "returns"
            };
            see_other(&format!(
                "{page}?aftersale_error={key}&aftersale_form={form}{suffix}"
            ))
        }
    }
}

//! Cart, voucher, loyalty, checkout and waiting-line calls at the spec's paths (spec 000 §7
//! "Cart"). The cart answers with the codes of spec §8 (260 expired, 261 frozen, ...) and
//! the standard error body.
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::cart::service::{AddLine, AddOptions, Member};
use app::cart::waiting::Admission;
use app::model::cart::*;
use app::model::error::ErrorBody;

use super::error::{ApiError, LogAs};
use super::extract::CartMember;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(get_cart, empty_cart))
        .routes(routes!(add_items))
        .routes(routes!(add_item, remove_item))
        .routes(routes!(suspended, suspend))
        .routes(routes!(apply_voucher))
        .routes(routes!(print_vouchers))
        .routes(routes!(remove_voucher))
        .routes(routes!(cart_hash))
        .routes(routes!(pay))
        .routes(routes!(cancel_order))
        .routes(routes!(recover))
        .routes(routes!(cancel_recovery))
        .routes(routes!(remove_loyalty))
        .routes(routes!(add_loyalty))
        .routes(routes!(waiting_line))
        // The page behind `printUrl`: HTML for the browser, not part of the API document.
        .route("/vouchers/print/{token}", axum::routing::get(print_page))
}

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A JSON body; an empty one is the default request (the spec's clients send none).
fn parse<T: serde::de::DeserializeOwned + Default>(body: &Bytes) -> Result<T, CartError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body).map_err(|_| CartError::BadRequest)
}

fn cart_type(t: &Option<String>) -> Result<String, CartError> {
    let t = t.as_deref().unwrap_or(rules::DEFAULT_CART_TYPE);
    if rules::is_cart_type(t) {
        Ok(t.to_string())
    } else {
        Err(CartError::BadRequest)
    }
}

fn options(ctx: &Option<CartContext>) -> AddOptions {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.chars().take(64).collect()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    AddOptions {
        origin: ctx
            .as_ref()
            .and_then(|c| c.origin.as_ref())
            .map(|o| o.chars().take(64).collect()),
        bundle_id: ctx
            .as_ref()
            .and_then(|c| c.bundle_id.as_ref())
            .and_then(text),
    }
}

/// The cart after a successful change (204 when there is nothing at all to show).
async fn cart_answer(app: &AppCtx, m: Member, code: StatusCode) -> Result<Response, ApiError> {
    let cart = app
        .cart
        .view(m, app::state::now())
        .await
        .log_as("Unavailable Order Pipe")?;
    Ok(with_code(code, &cart))
}

fn is_blank(cart: &Cart) -> bool {
    cart.items.is_empty()
        && cart.loyalty.is_none()
        && cart.vouchers.is_empty()
        && cart.recovery.is_empty()
}

fn with_code(code: StatusCode, cart: &Cart) -> Response {
    if code == StatusCode::OK && is_blank(cart) {
        return StatusCode::NO_CONTENT.into_response();
    }
    (code, Json(cart)).into_response()
}

// ------------------------------------------------------------------ /api/cartproxy/v1

/// The member's cart; 260 when holds expired since the last look (the cart is shown as it
/// is now, with the error body's fields).
#[utoipa::path(get, path = "/api/cartproxy/v1", tag = "cart",
    responses((status = 200, body = Cart), (status = 204, description = "empty"),
        (status = 260, body = ExpiredCart), (status = 401, body = ErrorBody)))]
async fn get_cart(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Response, ApiError> {
    let (cart, expired) = app
        .cart
        .cart(m, app::state::now())
        .await
        .log_as("Unavailable Order Pipe")?;
    if !expired {
        return Ok(with_code(StatusCode::OK, &cart));
    }
    let e = CartError::Expired;
    let body = ExpiredCart {
        cart,
        error_code: e.error_code().into(),
        error_description: e.message_key().into(),
    };
    Ok((status(e.code().status()), Json(body)).into_response())
}

async fn add_lines(
    app: &AppCtx,
    m: Member,
    lines: Vec<AddLine>,
    cart_type: &str,
    opts: &AddOptions,
) -> Result<Response, ApiError> {
    app.cart
        .add(m, &lines, cart_type, opts, app::state::now())
        .await
        .log_as("cannot add to cart")?;
    cart_answer(app, m, StatusCode::CREATED).await
}

/// Adds several products at once (at most 50 lines).
#[utoipa::path(post, path = "/api/cartproxy/v1/items", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = ItemsRequest,
    responses((status = 201, body = Cart), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn add_items(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ItemsRequest = parse(&body)?;
    let t = cart_type(&req.cart_type)?;
    if req.products_quantity.is_empty() || req.products_quantity.len() > 50 {
        return Err(CartError::BadRequest.into());
    }
    let mut lines = Vec::new();
    for p in &req.products_quantity {
        match (
            rules::parse_id(&p.product_id),
            rules::parse_quantity(Some(&p.quantity)),
        ) {
            (Some(option_id), Some(quantity)) => lines.push(AddLine {
                option_id,
                quantity,
            }),
            _ => return Err(CartError::BadRequest.into()),
        }
    }
    add_lines(&app, m, lines, &t, &options(&req.context)).await
}

/// Adds a product (held for the member), or reopens a recent order into the cart.
#[utoipa::path(post, path = "/api/cartproxy/v1/item", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = ItemRequest,
    responses((status = 201, body = Cart), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 261, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn add_item(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ItemRequest = parse(&body)?;
    let t = cart_type(&req.cart_type)?;
    let now = app::state::now();
    if let Some(order) = &req.order_to_reopen {
        let order_id = rules::parse_id(order).ok_or(CartError::BadRequest)?;
        app.cart
            .reopen(m, order_id, now)
            .await
            .log_as("cannot reopen order")?;
        if req.product_id.is_none() {
            return cart_answer(&app, m, StatusCode::CREATED).await;
        }
    }
    let (Some(option_id), Some(quantity)) = (
        req.product_id.as_ref().and_then(rules::parse_id),
        rules::parse_quantity(req.quantity.as_ref()),
    ) else {
        return Err(CartError::BadRequest.into());
    };
    let line = AddLine {
        option_id,
        quantity,
    };
    add_lines(&app, m, vec![line], &t, &options(&req.context)).await
}

/// Removes a product from the cart (its units go back to the sale).
#[utoipa::path(delete, path = "/api/cartproxy/v1/item", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = RemoveItemRequest,
    responses((status = 200, body = Cart), (status = 204, description = "now empty"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn remove_item(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: RemoveItemRequest = parse(&body)?;
    cart_type(&req.cart_type)?;
    let option_id = req
        .product_id
        .as_ref()
        .and_then(rules::parse_id)
        .ok_or(CartError::BadRequest)?;
    app.cart
        .remove(m, option_id, app::state::now())
        .await
        .log_as("cannot remove from cart")?;
    cart_answer(&app, m, StatusCode::OK).await
}

/// Empties the cart.
#[utoipa::path(delete, path = "/api/cartproxy/v1", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 204, description = "emptied"), (status = 401, body = ErrorBody)))]
async fn empty_cart(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<StatusCode, ApiError> {
    app.cart
        .empty(m, app::state::now())
        .await
        .log_as("cannot empty the cart")?;
    Ok(StatusCode::NO_CONTENT)
}

/// Whether the member has a suspended basket.
#[utoipa::path(get, path = "/api/cartproxy/v1/suspend", tag = "cart",
    responses((status = 200, body = SuspendState), (status = 401, body = ErrorBody)))]
async fn suspended(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Json<SuspendState>, ApiError> {
    let has_suspended_order = app
        .cart
        .has_suspended(m)
        .await
        .log_as("suspended-order check failed")?;
    Ok(Json(SuspendState {
        has_suspended_order,
    }))
}

/// Suspends the basket to recover it later.
#[utoipa::path(post, path = "/api/cartproxy/v1/suspend", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = SuspendState), (status = 401, body = ErrorBody)))]
async fn suspend(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Json<SuspendState>, ApiError> {
    app.cart
        .suspend(m, app::state::now())
        .await
        .log_as("suspend failed")?;
    Ok(Json(SuspendState {
        has_suspended_order: true,
    }))
}

// ------------------------------------------------------------------ vouchers

/// Applies a voucher code.
#[utoipa::path(post, path = "/api/cartproxy/v1/vouchers", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = VoucherRequest,
    responses((status = 201, body = Cart), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn apply_voucher(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: VoucherRequest = parse(&body)?;
    app.cart
        .apply_voucher(m, &req.code, app::state::now())
        .await
        .log_as("cannot apply voucher")?;
    cart_answer(&app, m, StatusCode::CREATED).await
}

/// Removes a voucher from the cart.
#[utoipa::path(delete, path = "/api/cartproxy/v1/vouchers/{voucherId}", tag = "cart",
    params(("voucherId" = String, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = Cart), (status = 204, description = "now empty"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn remove_voucher(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Path(voucher_id): Path<String>,
) -> Result<Response, ApiError> {
    let id = rules::parse_id(&Value::String(voucher_id)).ok_or(CartError::BadRequest)?;
    let removed = app
        .cart
        .remove_voucher(m, id)
        .await
        .log_as("Basket voucher removal failed")?;
    if !removed {
        return Err(CartError::VoucherUnknown.into());
    }
    cart_answer(&app, m, StatusCode::OK).await
}

/// A link to a printable page of the cart's vouchers.
#[utoipa::path(post, path = "/api/cartproxy/v1/vouchers/print", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = PrintUrl), (status = 401, body = ErrorBody)))]
async fn print_vouchers(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Json<PrintUrl>, ApiError> {
    let print_url = app
        .cart
        .print_vouchers(m, app::state::now())
        .await
        .log_as("Print vouchers failed")?;
    Ok(Json(PrintUrl { print_url }))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The printable voucher page behind `printUrl`.
async fn print_page(
    State(app): State<Arc<AppCtx>>,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let found = app
        .cart
        .printable(&token, app::state::now())
        .await
        .log_as("Print vouchers failed")?;
    let Some(vouchers) = found else {
        let page = Html("<!DOCTYPE html><title>404</title><p>Not found</p>".to_string());
        return Ok((StatusCode::NOT_FOUND, page).into_response());
    };
    let mut rows = String::new();
    for v in &vouchers {
        let value = if v.discount_type == "PERCENT" {
            format!("{} %", v.value)
        } else {
            format!("{}.{:02} €", v.value / 100, v.value % 100)
        };
        rows.push_str(&format!(
            "<li class=\"voucher\"><strong>{}</strong> — {} ({})</li>",
            escape(&v.code),
            value,
            escape(&v.scope.to_lowercase())
        ));
    }
    let html = format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>Rosace — vouchers</title>\
         <style>body{{font-family:sans-serif;margin:2rem}}.voucher{{border:2px dashed #c2185b;padding:1rem;margin:.5rem 0;list-style:none}}</style>\
         </head><body onload=\"window.print()\"><h1>Rosace</h1><ul>{rows}</ul></body></html>"
    );
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response())
}

// ------------------------------------------------------------------ orderpiper (checkout)

/// Freezes the cart for payment and gives its hash (204 when the cart is empty).
#[utoipa::path(get, path = "/api/cartproxy/orderpiper/cart/v3", tag = "checkout",
    responses((status = 200, body = FrozenCart), (status = 204, description = "empty cart"),
        (status = 401, body = ErrorBody)))]
async fn cart_hash(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Response, ApiError> {
    let now = app::state::now();
    const WHAT: &str = "Unavailable Order Pipe";
    let Some(hash) = app.cart.freeze(m, now).await.log_as(WHAT)? else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let cart = app.cart.view(m, now).await.log_as(WHAT)?;
    Ok(Json(FrozenCart {
        cart_hash: hash,
        cart,
    })
    .into_response())
}

/// Pays the frozen cart (sandbox cards: see the README); 202 with a waiting-line ticket
/// when too many payments are in flight.
#[utoipa::path(post, path = "/api/cartproxy/orderpiper/cart/v3/pay", tag = "checkout",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = PayRequest,
    responses((status = 200, body = Payment), (status = 202, body = Queued),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 412, body = ErrorBody)))]
async fn pay(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: PayRequest = parse(&body)?;
    if req.cart_hash.is_empty() {
        return Err(CartError::BadRequest.into());
    }
    let _permit = match app
        .cart
        .waiting
        .admit(m.id, req.waiting_line_ticket.as_deref())
    {
        Admission::Admitted(p) => p,
        Admission::Queued(line) => {
            let retry = line.retry_after.to_string();
            let body = Queued { waiting_line: line };
            return Ok((
                StatusCode::ACCEPTED,
                [(header::RETRY_AFTER, retry)],
                Json(body),
            )
                .into_response());
        }
    };
    let order = app
        .cart
        .pay(m, &req.cart_hash, req.card.as_deref(), app::state::now())
        .await
        .log_as("Unavailable Order Pipe")?;
    Ok(Json(Payment {
        order_id: order.id,
        status: order.status.clone(),
        order,
    })
    .into_response())
}

/// Gives up the payment: the cart is no longer frozen.
#[utoipa::path(post, path = "/api/cartproxy/orderpiper/cart/v3/cancel-order", tag = "checkout",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = Cart), (status = 204, description = "empty cart"),
        (status = 401, body = ErrorBody)))]
async fn cancel_order(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Response, ApiError> {
    app.cart
        .defrost(m, app::state::now())
        .await
        .log_as("cancel order failed")?;
    cart_answer(&app, m, StatusCode::OK).await
}

/// Brings the suspended basket back, except the dismissed products.
#[utoipa::path(post, path = "/api/cartproxy/orderpiper/cart/v3/recover", tag = "checkout",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = RecoverRequest,
    responses((status = 200, body = RecoveredCart), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn recover(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Json<RecoveredCart>, ApiError> {
    let req: RecoverRequest = parse(&body)?;
    let dismissed = req
        .dismissed_products
        .iter()
        .map(|d| rules::parse_id(d).ok_or(CartError::BadRequest))
        .collect::<Result<Vec<_>, _>>()?;
    let now = app::state::now();
    const WHAT: &str = "recover failed";
    let unavailable = app.cart.recover(m, &dismissed, now).await.log_as(WHAT)?;
    let cart = app.cart.view(m, now).await.log_as(WHAT)?;
    Ok(Json(RecoveredCart {
        cart,
        unavailable_products: unavailable.iter().map(|id| id.to_string()).collect(),
    }))
}

/// Drops the suspended basket.
#[utoipa::path(post, path = "/api/cartproxy/orderpiper/cart/v3/cancel-recovery", tag = "checkout",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = Cart), (status = 204, description = "empty cart"),
        (status = 401, body = ErrorBody)))]
async fn cancel_recovery(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Response, ApiError> {
    app.cart
        .cancel_recovery(m)
        .await
        .log_as("cancel recovery failed")?;
    cart_answer(&app, m, StatusCode::OK).await
}

async fn loyalty(app: &AppCtx, m: Member, body: &Bytes, on: bool) -> Result<Response, ApiError> {
    let req: LoyaltyRequest = parse(body)?;
    // The quantity of a loyalty item is always 1, whatever the request says.
    let product_id = req
        .product_id
        .as_ref()
        .and_then(rules::parse_id)
        .ok_or(CartError::BadRequest)?;
    app.cart
        .loyalty(m, product_id, on, app::state::now())
        .await
        .log_as("loyalty item failed")?;
    let code = if on {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    cart_answer(app, m, code).await
}

/// Adds the loyalty item (quantity 1).
#[utoipa::path(post, path = "/api/cartproxy/v3/loyalty-item", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = LoyaltyRequest,
    responses((status = 201, body = Cart), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn add_loyalty(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    loyalty(&app, m, &body, true).await
}

/// Removes the loyalty item.
#[utoipa::path(delete, path = "/api/cartproxy/orderpiper/cart/v3/item", tag = "checkout",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = LoyaltyRequest,
    responses((status = 200, body = Cart), (status = 204, description = "empty cart"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn remove_loyalty(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Result<Response, ApiError> {
    loyalty(&app, m, &body, false).await
}

// ------------------------------------------------------------------ waiting line

/// A waiting-line ticket's position (410 when unknown or lapsed: pay again for a new one).
#[utoipa::path(get, path = "/api/catalog/v1/waiting-line/{ticket}", tag = "checkout",
    params(("ticket" = String, Path)),
    responses((status = 200, body = WaitingLine), (status = 410, body = ErrorBody)))]
async fn waiting_line(
    State(app): State<Arc<AppCtx>>,
    Path(ticket): Path<String>,
) -> Result<Json<WaitingLine>, ApiError> {
    app.cart
        .waiting
        .status(&ticket)
        .map(Json)
        .ok_or(ApiError::Wire {
            status: StatusCode::GONE,
            body: ErrorBody::new("ticket_unknown", "errors.not_found"),
            cause: None,
            what: "",
        })
}

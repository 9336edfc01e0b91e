//! Cart, checkout, voucher, loyalty, order and waiting-line calls at the spec's paths
//! (spec 000 §7 "Cart"). Thin: parse, call `app::cart::service`, answer with the codes of
//! spec §8 and the body `{error_code, error_description}` (a translation key).
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use app::cart::rules::{self, CartError};
use app::cart::waiting::Admission;
use app::cart::{
    error::CartFailure,
    service::{AddLine, AddOptions, Member},
};
use app::model::cart::*;

use crate::middleware::SessionInfo;
use crate::AppCtx;

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn error_body(e: CartError) -> Value {
    json!({ "error_code": e.error_code(), "error_description": e.message_key() })
}

pub fn error(e: CartError) -> Response {
    (status(e.code().status()), Json(error_body(e))).into_response()
}

fn fail(f: CartFailure, what: &str) -> Response {
    match f {
        CartFailure::Cart(e) => error(e),
        CartFailure::Db(e) => {
            tracing::error!(error = %e, "{what}");
            error(CartError::Unexpected)
        }
    }
}

/// The signed-in member of a cart call; anyone else gets 401 with the cart error body.
pub struct CartMember(Member);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for CartMember {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Response> {
        parts
            .extensions
            .get::<SessionInfo>()
            .and_then(|s| s.member.as_ref())
            .map(|m| {
                CartMember(Member {
                    id: m.member_id,
                    site_id: i64::from(m.site_id),
                })
            })
            .ok_or_else(|| error(CartError::Unauthorized))
    }
}

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

/// The cart answer of a successful call (204 when there is nothing at all to show).
async fn cart_answer(app: &AppCtx, m: Member, code: StatusCode) -> Response {
    match app.cart.view(m, app::platform::state::now()).await {
        Ok(cart) => with_code(code, &cart),
        Err(f) => fail(f, "Unavailable Order Pipe"),
    }
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

pub async fn get_cart(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.cart(m, app::platform::state::now()).await {
        Ok((cart, true)) => {
            let mut body = serde_json::to_value(&cart).unwrap_or_default();
            if let (Some(obj), Value::Object(err)) =
                (body.as_object_mut(), error_body(CartError::Expired))
            {
                obj.extend(err);
            }
            (status(260), Json(body)).into_response()
        }
        Ok((cart, false)) => with_code(StatusCode::OK, &cart),
        Err(f) => fail(f, "Unavailable Order Pipe"),
    }
}

async fn add_lines(
    app: &AppCtx,
    m: Member,
    lines: Vec<AddLine>,
    cart_type: &str,
    opts: &AddOptions,
) -> Response {
    match app
        .cart
        .add(m, &lines, cart_type, opts, app::platform::state::now())
        .await
    {
        Ok(()) => cart_answer(app, m, StatusCode::CREATED).await,
        Err(f) => fail(f, "cannot add to cart"),
    }
}

pub async fn add_items(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: ItemsRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let t = match cart_type(&req.cart_type) {
        Ok(t) => t,
        Err(e) => return error(e),
    };
    if req.products_quantity.is_empty() || req.products_quantity.len() > 50 {
        return error(CartError::BadRequest);
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
            _ => return error(CartError::BadRequest),
        }
    }
    add_lines(&app, m, lines, &t, &options(&req.context)).await
}

pub async fn add_item(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: ItemRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let t = match cart_type(&req.cart_type) {
        Ok(t) => t,
        Err(e) => return error(e),
    };
    let now = app::platform::state::now();
    if let Some(order) = &req.order_to_reopen {
        let Some(order_id) = rules::parse_id(order) else {
            return error(CartError::BadRequest);
        };
        if let Err(f) = app.cart.reopen(m, order_id, now).await {
            return fail(f, "cannot reopen order");
        }
        if req.product_id.is_none() {
            return cart_answer(&app, m, StatusCode::CREATED).await;
        }
    }
    let (Some(option_id), Some(quantity)) = (
        req.product_id.as_ref().and_then(rules::parse_id),
        rules::parse_quantity(req.quantity.as_ref()),
    ) else {
        return error(CartError::BadRequest);
    };
    add_lines(
        &app,
        m,
        vec![AddLine {
            option_id,
            quantity,
        }],
        &t,
        &options(&req.context),
    )
    .await
}

pub async fn remove_item(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: RemoveItemRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    if let Err(e) = cart_type(&req.cart_type) {
        return error(e);
    }
    let Some(option_id) = req.product_id.as_ref().and_then(rules::parse_id) else {
        return error(CartError::BadRequest);
    };
    match app
        .cart
        .remove(m, option_id, app::platform::state::now())
        .await
    {
        Ok(()) => cart_answer(&app, m, StatusCode::OK).await,
        Err(f) => fail(f, "cannot remove from cart"),
    }
}

pub async fn empty_cart(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.empty(m, app::platform::state::now()).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(f) => fail(f, "cannot empty the cart"),
    }
}

pub async fn suspended(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.has_suspended(m).await {
        Ok(s) => Json(json!({ "hasSuspendedOrder": s })).into_response(),
        Err(f) => fail(f, "suspended-order check failed"),
    }
}

pub async fn suspend(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.suspend(m, app::platform::state::now()).await {
        Ok(()) => Json(json!({ "hasSuspendedOrder": true })).into_response(),
        Err(f) => fail(f, "suspend failed"),
    }
}

// ------------------------------------------------------------------ vouchers

pub async fn apply_voucher(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: VoucherRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    match app
        .cart
        .apply_voucher(m, &req.code, app::platform::state::now())
        .await
    {
        Ok(_) => cart_answer(&app, m, StatusCode::CREATED).await,
        Err(f) => fail(f, "cannot apply voucher"),
    }
}

pub async fn remove_voucher(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Path(voucher_id): Path<String>,
) -> Response {
    let Some(id) = rules::parse_id(&Value::String(voucher_id)) else {
        return error(CartError::BadRequest);
    };
    match app.cart.remove_voucher(m, id).await {
        Ok(true) => cart_answer(&app, m, StatusCode::OK).await,
        Ok(false) => error(CartError::VoucherUnknown),
        Err(f) => fail(f, "Basket voucher removal failed"),
    }
}

pub async fn print_vouchers(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app
        .cart
        .print_vouchers(m, app::platform::state::now())
        .await
    {
        Ok(url) => Json(json!({ "printUrl": url })).into_response(),
        Err(f) => fail(f, "Print vouchers failed"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The printable voucher page behind `printUrl`.
pub async fn print_page(State(app): State<Arc<AppCtx>>, Path(token): Path<String>) -> Response {
    let vouchers = match app
        .cart
        .printable(&token, app::platform::state::now())
        .await
    {
        Ok(Some(v)) => v,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                Html("<!DOCTYPE html><title>404</title><p>Not found</p>".to_string()),
            )
                .into_response()
        }
        Err(f) => return fail(f, "Print vouchers failed"),
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
    ([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

// ------------------------------------------------------------------ orderpiper (checkout)

pub async fn cart_hash(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    let now = app::platform::state::now();
    match app.cart.freeze(m, now).await {
        Ok(None) => StatusCode::NO_CONTENT.into_response(),
        Ok(Some(hash)) => match app.cart.view(m, now).await {
            Ok(cart) => Json(json!({ "cartHash": hash, "cart": cart })).into_response(),
            Err(f) => fail(f, "Unavailable Order Pipe"),
        },
        Err(f) => fail(f, "Unavailable Order Pipe"),
    }
}

pub async fn pay(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: PayRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    if req.cart_hash.is_empty() {
        return error(CartError::BadRequest);
    }
    let _permit = match app
        .cart
        .waiting
        .admit(m.id, req.waiting_line_ticket.as_deref())
    {
        Admission::Admitted(p) => p,
        Admission::Queued(line) => {
            let retry = line.retry_after.to_string();
            return (
                StatusCode::ACCEPTED,
                [(header::RETRY_AFTER, retry)],
                Json(json!({ "waitingLine": line })),
            )
                .into_response();
        }
    };
    match app
        .cart
        .pay(
            m,
            &req.cart_hash,
            req.card.as_deref(),
            app::platform::state::now(),
        )
        .await
    {
        Ok(order) => Json(json!({ "orderId": order.id, "status": order.status, "order": order }))
            .into_response(),
        Err(f) => fail(f, "Unavailable Order Pipe"),
    }
}

pub async fn cancel_order(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.defrost(m, app::platform::state::now()).await {
        Ok(()) => cart_answer(&app, m, StatusCode::OK).await,
        Err(f) => fail(f, "cancel order failed"),
    }
}

pub async fn recover(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    let req: RecoverRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let mut dismissed = Vec::new();
    for d in &req.dismissed_products {
        match rules::parse_id(d) {
            Some(id) => dismissed.push(id),
            None => return error(CartError::BadRequest),
        }
    }
    let now = app::platform::state::now();
    match app.cart.recover(m, &dismissed, now).await {
        Ok(unavailable) => match app.cart.view(m, now).await {
            Ok(cart) => {
                let mut body = serde_json::to_value(&cart).unwrap_or_default();
                body["unavailableProducts"] = json!(unavailable
                    .iter()
                    .map(|id| id.to_string())
                    .collect::<Vec<_>>());
                Json(body).into_response()
            }
            Err(f) => fail(f, "recover failed"),
        },
        Err(f) => fail(f, "recover failed"),
    }
}

pub async fn cancel_recovery(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Response {
    match app.cart.cancel_recovery(m).await {
        Ok(()) => cart_answer(&app, m, StatusCode::OK).await,
        Err(f) => fail(f, "cancel recovery failed"),
    }
}

async fn loyalty(app: &AppCtx, m: Member, body: &Bytes, on: bool) -> Response {
    let req: LoyaltyRequest = match parse(body) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    // The quantity of a loyalty item is always 1, whatever the request says.
    let Some(product_id) = req.product_id.as_ref().and_then(rules::parse_id) else {
        return error(CartError::BadRequest);
    };
    match app
        .cart
        .loyalty(m, product_id, on, app::platform::state::now())
        .await
    {
        Ok(()) => {
            cart_answer(
                app,
                m,
                if on {
                    StatusCode::CREATED
                } else {
                    StatusCode::OK
                },
            )
            .await
        }
        Err(f) => fail(f, "loyalty item failed"),
    }
}

pub async fn add_loyalty(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    loyalty(&app, m, &body, true).await
}

pub async fn remove_loyalty(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    body: Bytes,
) -> Response {
    loyalty(&app, m, &body, false).await
}

// ------------------------------------------------------------------ waiting line, orders

pub async fn waiting_line(State(app): State<Arc<AppCtx>>, Path(ticket): Path<String>) -> Response {
    match app.cart.waiting.status(&ticket) {
        Some(line) => Json(line).into_response(),
        // Unknown or lapsed ticket: the member pays again and gets a new one.
        None => (
            StatusCode::GONE,
            Json(
                json!({ "error_code": "ticket_unknown", "error_description": "errors.not_found" }),
            ),
        )
            .into_response(),
    }
}

pub async fn orders(State(app): State<Arc<AppCtx>>, CartMember(m): CartMember) -> Response {
    match app.cart.orders(m).await {
        Ok(list) => Json(json!({ "orders": list })).into_response(),
        Err(f) => fail(f, "cannot list orders"),
    }
}

pub async fn order(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Path(id): Path<String>,
) -> Response {
    let Some(id) = rules::parse_id(&Value::String(id)) else {
        return error(CartError::BadRequest);
    };
    match app.cart.order(m, id).await {
        Ok(Some(o)) => Json(o).into_response(),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            Json(json!({ "error_code": "not_found", "error_description": "errors.not_found" })),
        )
            .into_response(),
        Err(f) => fail(f, "cannot read order"),
    }
}

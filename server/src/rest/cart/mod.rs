//! Cart, voucher, loyalty, checkout and waiting-line calls at the spec's paths (spec 000 §7
//! "Cart"). The cart answers with the codes of spec §8 (260 expired, 261 frozen, ...) and
//! the standard error body. The helpers here are shared by the three routers.
mod basket;
mod checkout;
mod vouchers;

use std::sync::Arc;

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;

use app::cart::rules::{self, CartError};
use app::cart::service::{AddOptions, Member};
use app::model::cart::*;

use super::error::{ApiError, LogAs};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .merge(basket::router())
        .merge(vouchers::router())
        .merge(checkout::router())
}

pub(super) fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A JSON body; an empty one is the default request (the spec's clients send none).
pub(super) fn parse<T: serde::de::DeserializeOwned + Default>(
    body: &Bytes,
) -> Result<T, CartError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body).map_err(|_| CartError::BadRequest)
}

pub(super) fn cart_type(t: &Option<String>) -> Result<String, CartError> {
    let t = t.as_deref().unwrap_or(rules::DEFAULT_CART_TYPE);
    if rules::is_cart_type(t) {
        Ok(t.to_string())
    } else {
        Err(CartError::BadRequest)
    }
}

pub(super) fn options(ctx: &Option<CartContext>) -> AddOptions {
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
pub(super) async fn cart_answer(
    app: &AppCtx,
    m: Member,
    code: StatusCode,
) -> Result<Response, ApiError> {
    let cart = app
        .cart
        .view(m, app::platform::state::now())
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

pub(super) fn with_code(code: StatusCode, cart: &Cart) -> Response {
    if code == StatusCode::OK && is_blank(cart) {
        return StatusCode::NO_CONTENT.into_response();
    }
    (code, Json(cart)).into_response()
}

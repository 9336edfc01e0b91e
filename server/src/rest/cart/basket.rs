//! The basket: add, remove, empty, suspend.
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::cart::service::{AddLine, AddOptions, Member};
use app::model::cart::*;
use app::model::error::ErrorBody;

use super::{cart_answer, cart_type, options, parse, status, with_code};
use crate::rest::error::{ApiError, LogAs};
use crate::rest::extract::CartMember;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(get_cart, empty_cart))
        .routes(routes!(add_items))
        .routes(routes!(add_item, remove_item))
        .routes(routes!(suspended, suspend))
}

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
        .cart(m, app::platform::state::now())
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
    let cart = app
        .cart
        .add(m, &lines, cart_type, opts, app::platform::state::now())
        .await
        .log_as("cannot add to cart")?;
    match cart {
        Some(cart) => Ok(with_code(StatusCode::CREATED, &cart)),
        None => cart_answer(app, m, StatusCode::CREATED).await,
    }
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
    let now = app::platform::state::now();
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
        .remove(m, option_id, app::platform::state::now())
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
        .empty(m, app::platform::state::now())
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

/// Suspends the basket to recover it later (261 while it is frozen for payment, 412 when
/// there is nothing to suspend).
#[utoipa::path(post, path = "/api/cartproxy/v1/suspend", tag = "cart",
    params(("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = SuspendState), (status = 261, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 412, body = ErrorBody)))]
async fn suspend(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Json<SuspendState>, ApiError> {
    app.cart
        .suspend(m, app::platform::state::now())
        .await
        .log_as("suspend failed")?;
    Ok(Json(SuspendState {
        has_suspended_order: true,
    }))
}

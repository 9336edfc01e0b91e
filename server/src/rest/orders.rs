//! The member's orders (spec 001 §7 "Post-sales": orders).
use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::model::cart::{Order, Orders};
use app::model::error::ErrorBody;

use super::error::{ApiError, LogAs, OrNotFound};
use super::extract::{CartMember, Path};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(orders))
        .routes(routes!(order))
}

/// The member's orders, newest first.
#[utoipa::path(get, path = "/api/orders/v1/orders", tag = "orders",
    responses((status = 200, body = Orders), (status = 401, body = ErrorBody)))]
async fn orders(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Json<Orders>, ApiError> {
    let orders = app.cart.orders(m).await.log_as("cannot list orders")?;
    Ok(Json(Orders { orders }))
}

/// One of the member's orders (404 for anyone else's).
#[utoipa::path(get, path = "/api/orders/v1/orders/{id}", tag = "orders",
    params(("id" = String, Path)),
    responses((status = 200, body = Order), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn order(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Path(id): Path<String>,
) -> Result<Json<Order>, ApiError> {
    let id = rules::parse_id(&Value::String(id)).ok_or(CartError::BadRequest)?;
    app.cart
        .order(m, id)
        .await
        .log_as("cannot read order")?
        .or_not_found()
        .map(Json)
}

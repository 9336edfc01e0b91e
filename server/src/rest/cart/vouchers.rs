//! Vouchers (apply, remove, print) and the loyalty item.
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::cart::service::Member;
use app::model::cart::*;
use app::model::error::ErrorBody;

use super::{cart_answer, parse};
use crate::rest::error::{ApiError, LogAs};
use crate::rest::extract::{CartMember, Path};
use crate::rest::print;
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(apply_voucher))
        .routes(routes!(print_vouchers))
        .routes(routes!(remove_voucher))
        .routes(routes!(remove_loyalty))
        .routes(routes!(add_loyalty))
        // The page behind `printUrl`: HTML for the browser, not part of the API document.
        .route("/vouchers/print/{token}", axum::routing::get(print_page))
}

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
        .apply_voucher(m, &req.code, app::platform::state::now())
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
        .print_vouchers(m, app::platform::state::now())
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
        .printable(&token, app::platform::state::now())
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
    Ok(print::page(
        "fr",
        "<title>Rosace — vouchers</title>\
         <style>body{font-family:sans-serif;margin:2rem}.voucher{border:2px dashed #c2185b;padding:1rem;margin:.5rem 0;list-style:none}@media print{button{display:none}}</style>",
        &format!("<h1>Rosace</h1><ul>{rows}</ul><button type=\"button\" id=\"print\">Imprimer</button>"),
        print::Print::OnLoad,
    ))
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
        .loyalty(m, product_id, on, app::platform::state::now())
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

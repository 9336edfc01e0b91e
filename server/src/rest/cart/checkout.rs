//! Checkout (the order pipe): freeze, pay (with the waiting line), cancel, recover.
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::cart::service::CartFailure;
use app::cart::waiting::{Admission, Permit};
use app::model::cart::*;
use app::model::error::ErrorBody;

use super::{cart_answer, parse};
use crate::rest::error::{ApiError, LogAs};
use crate::rest::extract::{CartMember, Path};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(cart_hash))
        .routes(routes!(pay))
        .routes(routes!(cancel_order))
        .routes(routes!(recover))
        .routes(routes!(cancel_recovery))
        .routes(routes!(waiting_line))
}

/// Freezes the cart for payment and gives its hash (204 when the cart is empty; 260 when
/// holds expired since the last look; 263 until the member has accepted the terms).
#[utoipa::path(get, path = "/api/cartproxy/orderpiper/cart/v3", tag = "checkout",
    responses((status = 200, body = FrozenCart), (status = 204, description = "empty cart"),
        (status = 260, body = ErrorBody, description = "holds expired: the cart was released"),
        (status = 263, body = ErrorBody, description = "onboarding first: terms not accepted"),
        (status = 401, body = ErrorBody)))]
async fn cart_hash(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
) -> Result<Response, ApiError> {
    let now = app::platform::state::now();
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
        (status = 409, body = ErrorBody, description = "this member's payment is still running"),
        (status = 412, body = ErrorBody)))]
async fn pay(
    State(app): State<Arc<AppCtx>>,
    axum::Extension(ctx): axum::Extension<app::context::RequestCtx>,
    CartMember(m): CartMember,
    partners: crate::middleware::partner::PartnerCookies,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: PayRequest = parse(&body)?;
    if req.cart_hash.is_empty() {
        return Err(CartError::BadRequest.into());
    }
    let permit = admit(&app, m.id).await?;
    let permit = match permit {
        Ok(p) => p,
        Err(line) => {
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
    // Its own task, with its slot: a payment runs to its end (an order, or the charge
    // voided) even when the client goes away or the request times out, which would drop
    // this future.
    let paying = {
        let (app, hash, card, address) = (
            app.clone(),
            req.cart_hash.clone(),
            req.card.clone(),
            req.address_id,
        );
        tokio::spawn(async move {
            let paid = app
                .cart
                .pay(
                    m,
                    &hash,
                    card.as_deref(),
                    address,
                    app::platform::state::now(),
                )
                .await;
            permit.release().await;
            paid
        })
    };
    let order = paying
        .await
        .unwrap_or(Err(CartFailure::Cart(CartError::Unexpected)))
        .log_as("Unavailable Order Pipe")?;
    crate::rest::orders::mail_confirmation(&app, &ctx, order.id);
    crate::middleware::partner::credit_order(&app, &partners, order.id, false);
    if req.save_card {
        save_card(&app, m.id, req.card.as_deref()).await;
    }
    Ok(Json(Payment {
        order_id: order.id,
        status: order.status.clone(),
        order,
    })
    .into_response())
}

/// How long a second payment of a member waits for their first to end before answering
/// 409: within the request timeout.
const SINGLE_FLIGHT_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// A payment slot, or the member's place in the line. A member whose payment is already
/// running (a double click, a retry on another instance) waits for it to end; their
/// payment then finds the order by its cart hash instead of charging again.
async fn admit(app: &AppCtx, member_id: i64) -> Result<Result<Permit, WaitingLine>, ApiError> {
    const WHAT: &str = "Unavailable Order Pipe";
    let started = std::time::Instant::now();
    loop {
        let now = app::platform::state::now();
        match app
            .cart
            .waiting
            .admit(member_id, now)
            .await
            .map_err(CartFailure::from)
            .log_as(WHAT)?
        {
            Admission::Admitted(p) => return Ok(Ok(p)),
            Admission::Queued(line) => return Ok(Err(line)),
            Admission::AlreadyPaying if started.elapsed() < SINGLE_FLIGHT_WAIT => {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            Admission::AlreadyPaying => {
                return Err(ApiError::Wire {
                    status: StatusCode::CONFLICT,
                    body: Box::new(ErrorBody::new(
                        "payment_in_progress",
                        "errors.general_retry.notification",
                    )),
                    cause: None,
                    what: "",
                })
            }
        }
    }
}

/// Keeps the paid card in the member's wallet. The order is paid whatever happens here,
/// so a failure is logged, not answered.
async fn save_card(app: &AppCtx, member_id: i64, card: Option<&str>) {
    let Some(saved) = card.and_then(|c| app.cart.provider.save_card(c)) else {
        return;
    };
    let now = app::platform::state::now();
    if let Err(e) = app::wallet::service::save_card(&app.state.db, member_id, &saved, now).await {
        tracing::warn!(error = %e, "cannot save the card to the wallet");
    }
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
        .defrost(m, app::platform::state::now())
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
    let now = app::platform::state::now();
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
        .status(&ticket, app::platform::state::now())
        .await
        .map_err(CartFailure::from)
        .log_as("waiting line unavailable")?
        .map(Json)
        .ok_or(ApiError::Wire {
            status: StatusCode::GONE,
            body: Box::new(ErrorBody::new("ticket_unknown", "errors.not_found")),
            cause: None,
            what: "",
        })
}

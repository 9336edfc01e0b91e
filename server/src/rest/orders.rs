//! The member's orders (spec 001 §7 "Post-sales": orders, paged by page and size) and one
//! order with its life: timeline, tracking number, payment, links.
use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::cart::rules::{self, CartError};
use app::model::error::ErrorBody;
use app::orders::error::OrdersError;
use app::orders::model::{OrderDetail, OrdersPage};
use app::orders::rules::Paging;
use app::orders::service;

use super::error::ApiError;
use super::extract::{CartMember, Params, Path};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(orders))
        .routes(routes!(order))
}

/// Mails the member the confirmation of their just-paid order (once: see
/// `orders::service::mail_confirmation`), in a task of its own: the payment's answer
/// does not wait for the mail.
pub(crate) fn mail_confirmation(app: &Arc<AppCtx>, ctx: &app::context::RequestCtx, order_id: i64) {
    let app = app.clone();
    let base = crate::web::session::link_base(ctx, ctx.site_id);
    tokio::spawn(async move {
        let mailer = app.mailer(&base);
        let now = app::platform::state::now();
        if let Err(e) = service::mail_confirmation(&app.state.db, &mailer, order_id, now).await {
            tracing::error!(error = %e, order_id, "cannot mail an order's confirmation");
        }
    });
}

fn wire(e: OrdersError, log: &'static str) -> ApiError {
    ApiError::wire(&e).logged_as(log)
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    /// Page number, from 1 (default 1).
    page: Option<String>,
    /// Orders per page, 1 to 50 (default 10).
    size: Option<String>,
}

/// A page of the member's orders (all kinds, travel included), newest first, with the
/// total. A page or size out of range: 400.
#[utoipa::path(get, path = "/api/orders/v1/orders", tag = "orders", params(PageQuery),
    responses((status = 200, body = OrdersPage), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn orders(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Params(q): Params<PageQuery>,
) -> Result<Json<OrdersPage>, ApiError> {
    let paging = Paging::parse(q.page.as_deref(), q.size.as_deref())
        .map_err(|e| wire(e.into(), "bad orders page"))?;
    service::list(&app.state.db, m.id, paging)
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot list orders"))
}

/// One of the member's orders with its timeline (oldest first), tracking number (once
/// shipped), masked payment and links; 404 for anyone else's.
#[utoipa::path(get, path = "/api/orders/v1/orders/{id}", tag = "orders",
    params(("id" = String, Path)),
    responses((status = 200, body = OrderDetail), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn order(
    State(app): State<Arc<AppCtx>>,
    CartMember(m): CartMember,
    Path(id): Path<String>,
) -> Result<Json<OrderDetail>, ApiError> {
    let id = rules::parse_id(&Value::String(id)).ok_or(CartError::BadRequest)?;
    service::detail(&app.state.db, m.id, id)
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot read order"))
}

//! Travel calls (spec 001 §7 "Travel") under one versioned base, `/api/travel/v1`: the
//! product with its configurator, the price calendar of a duration, and the booking
//! (checkout holds places, pay, cancel).
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::model::travel::{CalendarDays, TravelOffer, TravelProduct};
use app::platform::state::now;
use app::travel::error::TravelError;
use app::travel::service::{Booking, BookingRequest};

use super::error::ApiError;
use super::extract::{JsonBody, MaybeMember, Path, SignedIn, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(product))
        .routes(routes!(dates))
        .routes(routes!(checkout))
        .routes(routes!(booking))
        .routes(routes!(pay))
        .routes(routes!(cancel))
        .routes(routes!(last_viewed))
}

/// A travel product of a live travel sale, with its packages, cities, durations,
/// participant rules and benefits. A signed-in member's view joins their last-viewed list.
#[utoipa::path(get, path = "/api/travel/v1/campaigns/{campaignId}/products/{productId}", tag = "travel",
    params(("campaignId" = i64, Path), ("productId" = i64, Path)),
    responses((status = 200, body = TravelProduct), (status = 404, body = ErrorBody)))]
async fn product(
    State(app): State<Arc<AppCtx>>,
    SiteId(site_id): SiteId,
    MaybeMember(member): MaybeMember,
    Path((campaign_id, product_id)): Path<(i64, i64)>,
) -> Result<Json<TravelProduct>, ApiError> {
    let member = member.map(|m| m.member_id);
    Ok(Json(
        app.travel
            .view_product(site_id, campaign_id, product_id, member, now())
            .await?,
    ))
}

/// The price calendar of a duration (a package, a departure city and a stay length):
/// departure days keyed `YYYY-MM-DD`, for a year from three days ahead.
#[utoipa::path(get, path = "/api/travel/v1/durations/{durationId}/dates", tag = "travel",
    params(("durationId" = i64, Path)),
    responses((status = 200, body = std::collections::BTreeMap<String, app::model::travel::CalendarDay>),
        (status = 404, body = ErrorBody)))]
async fn dates(
    State(app): State<Arc<AppCtx>>,
    Path(duration_id): Path<i64>,
) -> Result<Json<CalendarDays>, ApiError> {
    app::travel::store::duration_calendar(&app.state.db, duration_id, now())
        .await?
        .map(Json)
        .ok_or_else(|| TravelError::NotFound.into())
}

/// Holds the places of a configuration for 15 minutes, recorded with one of the member's
/// saved addresses (`addressId`; left out: their favourite). 400 names what blocks the
/// booking (`fieldErrors`; `addressId` when the address book is empty), 404 for an unknown
/// product or an address that is not the member's (`unknown_address`), 409 when the
/// departure has fewer places left than travellers. A refusal holds nothing.
#[utoipa::path(post, path = "/api/travel/v1/checkout", tag = "travel",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body = BookingRequest,
    responses((status = 201, body = Booking), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn checkout(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    JsonBody(req): JsonBody<BookingRequest>,
) -> Result<(StatusCode, Json<Booking>), ApiError> {
    let site = app::site::by_id_or_default(m.site_id);
    let booking = app
        .travel
        .reserve(m.member_id, m.site_id, site.currency_code, req, now())
        .await?;
    Ok((StatusCode::CREATED, Json(booking)))
}

/// One of the member's bookings (404 for anyone else's).
#[utoipa::path(get, path = "/api/travel/v1/bookings/{id}", tag = "travel",
    params(("id" = i64, Path)),
    responses((status = 200, body = Booking), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn booking(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<Json<Booking>, ApiError> {
    Ok(Json(app.travel.booking(m.member_id, id).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct TravelPayRequest {
    /// A sandbox card number.
    pub card: Option<String>,
}

/// Pays a held booking; it becomes an order of type `travel`. 402 when the card is
/// declined or invalid (the places stay held), 409 when the hold expired.
#[utoipa::path(post, path = "/api/travel/v1/bookings/{id}/pay", tag = "travel",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    request_body = TravelPayRequest,
    responses((status = 200, body = Booking), (status = 402, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn pay(
    State(app): State<Arc<AppCtx>>,
    axum::Extension(ctx): axum::Extension<app::context::RequestCtx>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
    partners: crate::middleware::partner::PartnerCookies,
    JsonBody(req): JsonBody<TravelPayRequest>,
) -> Result<Json<Booking>, ApiError> {
    // Its own task: a payment runs to its end even when the client goes away or the
    // request times out, which would drop this future.
    let travel = app.travel.clone();
    let paying = tokio::spawn(async move {
        travel
            .pay(m.member_id, m.site_id, id, req.card.as_deref(), now())
            .await
    });
    let booking = paying
        .await
        .map_err(|e| TravelError::Storage(sqlx::Error::Protocol(format!("payment task: {e}"))))??;
    if let Some(order_id) = booking.order_id {
        crate::rest::orders::mail_confirmation(&app, &ctx, order_id);
        crate::middleware::partner::credit_order(&app, &partners, order_id, true);
    }
    Ok(Json(booking))
}

/// Gives a held booking's places back.
#[utoipa::path(post, path = "/api/travel/v1/bookings/{id}/cancel", tag = "travel",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = Booking), (status = 404, body = ErrorBody)))]
async fn cancel(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<Json<Booking>, ApiError> {
    Ok(Json(app.travel.cancel(m.member_id, id, now()).await?))
}

/// The travel products the member opened on this site, newest first, still on sale.
#[utoipa::path(get, path = "/api/travel/v1/last-viewed", tag = "travel",
    responses((status = 200, body = Vec<TravelOffer>), (status = 401, body = ErrorBody)))]
async fn last_viewed(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<Vec<TravelOffer>>, ApiError> {
    let list =
        app::travel::store::last_viewed::list(&app.state.db, m.site_id, m.member_id, now(), 12)
            .await
            .map_err(TravelError::from)?;
    Ok(Json(list))
}

//! After-sale calls on the member's orders (spec 001 §7 "Marketplace invoice
//! request", "Marketplace order contact", "Marketplace order return", §3 "Return reasons"):
//! invoices, returns and marketplace order help. Every order id is looked up among the
//! signed-in member's own orders only: anyone else's is a 404. Refusals carry the spec's
//! `error_code`, a translation key and the message in the member's language.
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::{ErrorBody, WireError};
use app::orders::invoice::service as invoice;
use app::orders::marketplace;
use app::orders::returns::error::AfterSaleError;
use app::orders::returns::model::*;
use app::orders::returns::rules::MARKETPLACE_DEFAULT_REASON;
use app::orders::returns::service::{self as returns, Channel};
use app::platform::session::SessionMember;
use app::site::i18n::{lang_of, t};

use super::error::ApiError;
use super::extract::{JsonBody, Path, SignedIn, SiteId};
use crate::state::AppCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(request_invoice, download_invoice))
        .routes(routes!(return_reasons))
        .routes(routes!(request_return))
        .routes(routes!(contact_reasons))
        .routes(routes!(marketplace_contact))
        .routes(routes!(marketplace_return))
}

fn lang_of_site(site_id: u16) -> &'static str {
    lang_of(app::site::by_id_or_default(site_id).locale)
}

/// The area's refusal with its message already in the member's language.
fn refused(e: AfterSaleError, m: &SessionMember, log: &'static str) -> ApiError {
    let mut body = e.body();
    body.message = Some(t(lang_of_site(m.site_id), &body.error_description));
    ApiError::Wire {
        status: StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        body: Box::new(body),
        cause: e.cause(),
        what: log,
    }
}

/// An order id of a path: digits only (anything else is a 400 `bad_path`).
fn order_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::bad_request("bad_path", "errors.general_retry.notification"))
}

fn now() -> i64 {
    app::platform::state::now()
}

/// Gives the member's paid order its invoice number (once; a repeated or concurrent
/// request gets the same number) and says where the PDF is.
#[utoipa::path(post, path = "/api/postsale/v1/orders/{orderId}/invoice", tag = "postsales",
    params(("orderId" = String, Path)),
    responses((status = 200, body = InvoiceRef), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn request_invoice(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
) -> Result<Json<InvoiceRef>, ApiError> {
    let id = order_id(&raw)?;
    let number = invoice::issue(&app.state.db, m.member_id, id, now())
        .await
        .map_err(|e| refused(e, &m, "invoice request failed"))?;
    Ok(Json(InvoiceRef {
        invoice_number: number,
        url: invoice_url(id),
    }))
}

/// The invoice of the member's paid order as a PDF download (its number is given on the
/// first request, as the POST does).
#[utoipa::path(get, path = "/api/postsale/v1/orders/{orderId}/invoice", tag = "postsales",
    params(("orderId" = String, Path)),
    responses((status = 200, description = "The invoice", content_type = "application/pdf", body = Vec<u8>),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn download_invoice(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let id = order_id(&raw)?;
    let (number, pdf) = invoice::pdf(&app.state.db, m.member_id, id, now())
        .await
        .map_err(|e| refused(e, &m, "invoice download failed"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{number}.pdf\""),
            ),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        pdf,
    )
        .into_response())
}

/// The return reasons in the site's language: `labelKey` with its `label`, the `value` to
/// send back, and the optional `subReasons`.
#[utoipa::path(get, path = "/api/postsale/v1/returns/reasons", tag = "postsales",
    responses((status = 200, body = ReturnReasons)))]
async fn return_reasons(site: SiteId) -> Json<ReturnReasons> {
    Json(ReturnReasons {
        reasons: returns::reasons(lang_of_site(site.0)),
    })
}

/// Asks for the return of lines of the member's delivered order (received or received
/// partially): quantities within what was bought less what is already returned, one open
/// return per line. The order moves to `return_requested`.
#[utoipa::path(post, path = "/api/postsale/v1/orders/{orderId}/returns", tag = "postsales",
    params(("orderId" = String, Path)), request_body = ReturnRequest,
    responses((status = 201, body = ReturnCreated), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn request_return(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
    JsonBody(req): JsonBody<ReturnRequest>,
) -> Result<(StatusCode, Json<ReturnCreated>), ApiError> {
    let id = order_id(&raw)?;
    returns::request(&app.state.db, m.member_id, id, &req, Channel::Shop, now())
        .await
        .map(|r| (StatusCode::CREATED, Json(r)))
        .map_err(|e| refused(e, &m, "return request failed"))
}

/// The reasons of a message to a marketplace seller, in the site's language.
#[utoipa::path(get, path = "/api/postsale/v1/marketplace/contact/reasons", tag = "postsales",
    responses((status = 200, body = ContactReasons)))]
async fn contact_reasons(site: SiteId) -> Json<ContactReasons> {
    Json(ContactReasons {
        reasons: returns::contact_reasons(lang_of_site(site.0)),
    })
}

/// Sends the seller of the member's marketplace order a message (1 to 2000 characters)
/// under one of the contact reasons.
#[utoipa::path(post, path = "/api/postsale/v1/marketplace/orders/{orderId}/contact", tag = "postsales",
    params(("orderId" = String, Path)), request_body = MarketplaceContactRequest,
    responses((status = 201, body = MarketplaceContactSent), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn marketplace_contact(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
    JsonBody(req): JsonBody<MarketplaceContactRequest>,
) -> Result<(StatusCode, Json<MarketplaceContactSent>), ApiError> {
    let id = order_id(&raw)?;
    marketplace::service::contact(&app.state.db, m.member_id, id, &req, now())
        .await
        .map(|r| (StatusCode::CREATED, Json(r)))
        .map_err(|e| refused(e, &m, "marketplace contact failed"))
}

/// Asks the marketplace seller to take back lines of the member's delivered marketplace
/// order: the return rules of the shop's own returns.
#[utoipa::path(post, path = "/api/postsale/v1/marketplace/orders/{orderId}/return", tag = "postsales",
    params(("orderId" = String, Path)), request_body = MarketplaceReturnRequest,
    responses((status = 201, body = ReturnCreated), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn marketplace_return(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(raw): Path<String>,
    JsonBody(req): JsonBody<MarketplaceReturnRequest>,
) -> Result<(StatusCode, Json<ReturnCreated>), ApiError> {
    let id = order_id(&raw)?;
    let req = ReturnRequest {
        products: req.products,
        reason_id: req
            .reason_id
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| MARKETPLACE_DEFAULT_REASON.into()),
        sub_reason_id: None,
        comment: None,
    };
    returns::request(
        &app.state.db,
        m.member_id,
        id,
        &req,
        Channel::Marketplace,
        now(),
    )
    .await
    .map(|r| (StatusCode::CREATED, Json(r)))
    .map_err(|e| refused(e, &m, "marketplace return failed"))
}

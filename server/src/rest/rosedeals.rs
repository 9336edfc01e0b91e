//! Rose-deals calls (spec 001 §7 "Rose deals"): the member's current and archived orders
//! (paged), an order by `basketId` with its vouchers, the refund and retry (multipart),
//! the contact message and its attachments (rmi), the media basket, the deals of the
//! site; and the printable voucher page. Every `basketId` is looked up among the signed-in
//! member's own orders only: another member's answers 404.
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::rosedeals::error::DealsError;
use app::rosedeals::model::*;
use app::rosedeals::service;

use super::error::ApiError;
use super::extract::{MaybeMember, Params, Path, SignedIn, SiteId};
use super::print;
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::multipart::{read_parts, RMI_BODY_MAX};

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(deals))
        .routes(routes!(orders_current))
        .routes(routes!(orders_archived))
        .routes(routes!(order))
        .routes(routes!(refund))
        .routes(routes!(retry))
        .routes(routes!(basket))
        .routes(routes!(send_message))
        // The page behind a voucher's `print`: HTML for the browser, not part of the API.
        .route(
            "/rosedeals/print/{basket_id}",
            axum::routing::get(print_page),
        )
        .merge(
            OpenApiRouter::new()
                .routes(routes!(rmi))
                .layer(DefaultBodyLimit::max(RMI_BODY_MAX)),
        )
}

fn wire(e: DealsError, log: &'static str) -> ApiError {
    ApiError::wire(&e).logged_as(log)
}

/// A refund or retry refusal: the common error body plus `errorCode` (spec 001 §7 "failure
/// may return data.errorCode"; `DealErrorBody`), logged as every API error is.
pub(crate) struct DealRefusal(ApiError);

impl From<ApiError> for DealRefusal {
    fn from(e: ApiError) -> Self {
        DealRefusal(e)
    }
}

impl IntoResponse for DealRefusal {
    fn into_response(self) -> Response {
        match &self.0 {
            ApiError::Wire {
                cause: Some(cause),
                what,
                ..
            }
            | ApiError::Internal { cause, what } => tracing::error!(error = %cause, "{what}"),
            _ => {}
        }
        (self.0.status(), Json(DealErrorBody::from(self.0.body()))).into_response()
    }
}

fn refused(e: DealsError, log: &'static str) -> DealRefusal {
    DealRefusal(wire(e, log))
}

fn now() -> i64 {
    app::platform::state::now()
}

/// The live rose-deals sales of the site with their deals.
#[utoipa::path(get, path = "/api/rosedeals/v1/deals", tag = "rosedeals",
    responses((status = 200, body = Vec<DealSale>)))]
async fn deals(
    State(app): State<Arc<AppCtx>>,
    site: SiteId,
    member: MaybeMember,
) -> Result<Json<Vec<DealSale>>, ApiError> {
    service::deal_sales(&app.state.db, i64::from(site.0), member.id(), now())
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot fetch rosedeals deals"))
}

/// The member's current orders (a usable voucher, not refunded), newest first.
#[utoipa::path(get, path = "/api/rosedeals/v1/orders/current", tag = "rosedeals",
    params(PageQuery),
    responses((status = 200, body = DealOrderPage), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn orders_current(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Params(q): Params<PageQuery>,
) -> Result<Json<DealOrderPage>, ApiError> {
    service::orders(&app.state.db, m.member_id, false, q.page, now())
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot fetch rosedeals current orders"))
}

/// The member's archived orders (vouchers expired or used, or refunded).
#[utoipa::path(get, path = "/api/rosedeals/v1/orders/archived", tag = "rosedeals",
    params(PageQuery),
    responses((status = 200, body = DealOrderPage), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn orders_archived(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Params(q): Params<PageQuery>,
) -> Result<Json<DealOrderPage>, ApiError> {
    service::orders(&app.state.db, m.member_id, true, q.page, now())
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot fetch rosedeals archived orders"))
}

/// One of the member's orders with its vouchers (code, value, expiry, print page).
#[utoipa::path(get, path = "/api/rosedeals/v1/orders/{basketId}", tag = "rosedeals",
    params(("basketId" = i64, Path)),
    responses((status = 200, body = DealOrder), (status = 404, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn order(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(basket_id): Path<i64>,
) -> Result<Json<DealOrder>, ApiError> {
    service::order(&app.state.db, m.member_id, basket_id, now())
        .await
        .map(Json)
        .map_err(|e| wire(e, "cannot fetch rosedeals order"))
}

/// Refunds the order's usable vouchers. multipart/form-data: `address` (JSON {city,
/// country, details, firstName, lastName, zipCode, extras}), `content`, `iban` (empty: the
/// wallet's), `isSuspended`, `storeIban` (`true`/`false`). Posted twice, it refunds once
/// (409 `already_refunded`); a bad IBAN is 400 `invalid_iban` with the field's message. An
/// IBAN the wallet does not hold also takes `currentPassword` (400 `currentpassword` when
/// wrong or missing; a member without a password sends none after signing in again with
/// the provider within 5 minutes, otherwise 403 `reauthrequired`). The member is mailed.
#[utoipa::path(post, path = "/api/rosedeals/v1/orders/{basketId}/refund", tag = "rosedeals",
    params(("basketId" = i64, Path)),
    request_body(content = RefundForm, content_type = "multipart/form-data"),
    responses((status = 200, body = RefundResult), (status = 400, body = DealErrorBody),
        (status = 404, body = DealErrorBody), (status = 409, body = DealErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = DealErrorBody),
        (status = 429, body = DealErrorBody)))]
async fn refund(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<app::context::RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    Path(basket_id): Path<i64>,
    req: Request,
) -> Result<Json<RefundResult>, DealRefusal> {
    let log = "rosedeals refund failed";
    let parts = read_parts(req, "").await.map_err(|e| refused(e, log))?;
    let form = RefundForm {
        address: parts.address().map_err(|e| refused(e, log))?,
        content: parts.text("content").unwrap_or("").to_string(),
        iban: parts.text("iban").unwrap_or("").to_string(),
        is_suspended: parts.flag("isSuspended"),
        store_iban: parts.flag("storeIban"),
        current_password: parts.text("currentPassword").unwrap_or("").to_string(),
    };
    let base = crate::web::session::link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, &m, &form.current_password);
    service::refund(
        &app.state.db,
        &app.settings.wallet_key,
        &mailer,
        &proof,
        basket_id,
        &form,
        now(),
    )
    .await
    .map(Json)
    .map_err(|e| refused(e, log))
}

/// Re-issues the named vouchers with new codes (the old ones are void). multipart/form-data:
/// `address` (JSON), `content`, `vouchers` (a JSON list of codes, or the part repeated).
#[utoipa::path(post, path = "/api/rosedeals/v1/orders/{basketId}/retry", tag = "rosedeals",
    params(("basketId" = i64, Path)),
    request_body(content = RetryForm, content_type = "multipart/form-data"),
    responses((status = 200, body = RetryResult), (status = 400, body = DealErrorBody),
        (status = 404, body = DealErrorBody), (status = 409, body = DealErrorBody),
        (status = 401, body = ErrorBody)))]
async fn retry(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(basket_id): Path<i64>,
    req: Request,
) -> Result<Json<RetryResult>, DealRefusal> {
    let log = "rosedeals retry failed";
    let parts = read_parts(req, "").await.map_err(|e| refused(e, log))?;
    let form = RetryForm {
        address: parts.address().map_err(|e| refused(e, log))?,
        content: parts.text("content").unwrap_or("").to_string(),
        vouchers: parts.codes(),
    };
    service::retry(&app.state.db, m.member_id, basket_id, &form, now())
        .await
        .map(Json)
        .map_err(|e| refused(e, log))
}

/// The rose-deal lines of the member's cart.
#[utoipa::path(get, path = "/api/rosedeals/v1/basket", tag = "rosedeals",
    responses((status = 200, body = DealBasket), (status = 401, body = ErrorBody)))]
async fn basket(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<DealBasket>, ApiError> {
    service::basket(&app.state.db, m.member_id, now())
        .await
        .map(Json)
        .map_err(|e| wire(e, "Cannot fetch rosedeals basket"))
}

/// The contact message about some of the member's vouchers; without `address` (the
/// profile) or `vouchers`: 400 `missing_values` ("Missing values").
#[utoipa::path(post, path = "/api/rosedeals/v1/messages", tag = "rosedeals",
    request_body = ContactMessage,
    responses((status = 201, body = MessageSent), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn send_message(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    body: axum::body::Bytes,
) -> Result<(StatusCode, Json<MessageSent>), ApiError> {
    let log = "send message error";
    let msg: ContactMessage =
        serde_json::from_slice(&body).map_err(|_| wire(DealsError::BadRequest, log))?;
    service::send_message(&app.state.db, m.member_id, &msg, now())
        .await
        .map(|sent| (StatusCode::CREATED, Json(sent)))
        .map_err(|e| {
            if matches!(e, DealsError::MissingValues) {
                tracing::warn!("send message error: Missing values");
            }
            wire(e, log)
        })
}

/// Attaches files to a message (`requestId` from the message's answer). multipart/form-data:
/// `attachments` repeated (PDF, PNG or JPEG by their first bytes; up to three of 5 MB).
#[utoipa::path(post, path = "/api/rosedeals/v1/rmi/{requestId}", tag = "rosedeals",
    params(("requestId" = String, Path)),
    request_body(content = String, content_type = "multipart/form-data",
        description = "`attachments` parts, repeated"),
    responses((status = 201, body = AttachmentsStored), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 413, body = ErrorBody, description = "upload_quota: the member's files of the day or in all"),
        (status = 507, body = ErrorBody, description = "storage_full: files cannot be stored now")))]
async fn rmi(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    Path(request_id): Path<String>,
    req: Request,
) -> Result<(StatusCode, Json<AttachmentsStored>), ApiError> {
    let log = "rosedeals rmi failed";
    let parts = read_parts(req, "attachments")
        .await
        .map_err(|e| wire(e, log))?;
    let who = app.uploader(&client);
    service::attach(
        &app.state.db,
        who,
        m.member_id,
        &request_id,
        &parts.files,
        now(),
    )
    .await
    .map(|ok| (StatusCode::CREATED, Json(ok)))
    .map_err(|e| wire(e, log))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The printable vouchers of one of the member's orders (print styles, a print button).
async fn print_page(
    State(app): State<Arc<AppCtx>>,
    member: MaybeMember,
    site: SiteId,
    Path(basket_id): Path<i64>,
) -> Result<Response, ApiError> {
    let not_found = || {
        let page = Html(
            "<!DOCTYPE html><html lang=\"en\"><title>404</title><p>Not found</p></html>"
                .to_string(),
        );
        (StatusCode::NOT_FOUND, page).into_response()
    };
    let Some(member_id) = member.id() else {
        return Ok(not_found());
    };
    let order = match service::order(&app.state.db, member_id, basket_id, now()).await {
        Ok(o) => o,
        Err(DealsError::NotFound) => return Ok(not_found()),
        Err(e) => return Err(wire(e, "cannot print rosedeals vouchers")),
    };
    let s = app::site::by_id_or_default(site.0);
    let lang = app::site::i18n::lang_of(s.locale);
    let t = |k: &str| escape(&app::site::i18n::t(lang, k));
    let mut rows = String::new();
    for v in order.vouchers.iter().filter(|v| v.status == "active") {
        rows.push_str(&format!(
            "<li class=\"voucher\"><h2>{}</h2><p class=\"code\">{}</p><p>{}</p><p>{}</p></li>",
            escape(&v.partner),
            escape(&v.code),
            escape(&app::site::format::money(s.locale, v.value)),
            escape(&app::site::i18n::t_with(
                lang,
                "rosedeals.print.expires",
                &[(
                    "date",
                    &app::site::format::date(s.date_format, v.expires_at)
                )]
            )),
        ));
    }
    Ok(print::page(
        lang,
        &format!(
            "<meta name=\"viewport\" content=\"width=device-width\">\
             <meta name=\"robots\" content=\"noindex\"><title>{title}</title>\
             <style>body{{font-family:sans-serif;margin:2rem;color:#1a1a1a}}ul{{padding:0}}\
             .voucher{{border:2px dashed #a3154a;padding:1rem;margin:.5rem 0;list-style:none;break-inside:avoid}}\
             .code{{font:700 1.5rem monospace;letter-spacing:.1em}}button{{min-height:44px;padding:.5rem 1rem}}\
             @media print{{button{{display:none}}body{{margin:0}}}}</style>",
            title = t("rosedeals.print.title"),
        ),
        &format!(
            "<main><h1>{title}</h1><ul data-testid=\"print-vouchers\">{rows}</ul>\
             <button type=\"button\" id=\"print\">{print}</button></main>",
            title = t("rosedeals.print.title"),
            print = t("rosedeals.print"),
        ),
        print::Print::OnButton,
    ))
}

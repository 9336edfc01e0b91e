//! Wallet calls (spec 001 §7 "Wallet details", "Bank details", "IBAN info", "Delete payment
//! method"): every id in a path is looked up among the signed-in member's own rows only.
use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

use app::model::error::ErrorBody;
use app::wallet::error::WalletError;
use app::wallet::model::*;
use app::wallet::service;

use super::error::ApiError;
use super::extract::{Client, Path, SignedIn};
use crate::state::AppCtx;
use app::context::RequestCtx;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(wallet_details))
        .routes(routes!(save_bank_details))
        .routes(routes!(iban_info))
        .routes(routes!(delete_bank_details))
        .routes(routes!(delete_payment_method))
}

fn wire(e: WalletError, log: &'static str) -> ApiError {
    ApiError::wire(&e).logged_as(log)
}

/// The member's bank details (masked IBAN, `null` until saved) and saved cards.
#[utoipa::path(get, path = "/api/postsales/v1/wallet", tag = "postsales",
    responses((status = 200, body = WalletDetails), (status = 401, body = ErrorBody)))]
async fn wallet_details(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<WalletDetails>, ApiError> {
    service::details(&app.state.db, m.member_id)
        .await
        .map(Json)
        .map_err(|e| wire(e, "unable to fetch wallet details"))
}

/// Saves the bank form. Refused input answers 400 `errors.something_wrong.notification`
/// with one `fieldErrors` entry per faulty field, and stores nothing. Refunds go to this
/// account, so it takes `currentPassword` (400 `currentpassword` when wrong or missing); a
/// member without a password sends none after signing in again with the provider within
/// 5 minutes (otherwise 403 `reauthrequired`). The member is told by mail.
#[utoipa::path(post, path = "/api/postsales/v1/wallet/bankdetails", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = BankDetailsRequest,
    responses((status = 200, body = WalletDetails), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn save_bank_details(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    SignedIn(m): SignedIn,
    Client(client): Client,
    body: String,
) -> Result<Json<WalletDetails>, ApiError> {
    let req: BankDetailsRequest =
        json_object(&body).ok_or_else(|| wire(WalletError::Unreadable, "bank save failed"))?;
    let base = crate::web::session::link_base(&ctx, ctx.site_id);
    let mailer = app.mailer(&base);
    let proof = app.proof(&client, &m, &req.current_password);
    service::save_bank_details(
        &app.state.db,
        &app.settings.wallet_key,
        &mailer,
        &proof,
        &req,
        app::platform::state::now(),
    )
    .await
    .map(Json)
    .map_err(|e| wire(e, "bank save failed"))
}

/// What an IBAN says before it is saved: valid or why not, its country, its masked form.
/// (A POST so the number stays out of addresses and access logs.)
#[utoipa::path(post, path = "/api/postsales/v1/wallet/ibaninfo", tag = "postsales",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = IbanInfoRequest,
    responses((status = 200, body = IbanInfo), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn iban_info(SignedIn(_m): SignedIn, body: String) -> Result<Json<IbanInfo>, ApiError> {
    let req: IbanInfoRequest =
        json_object(&body).ok_or_else(|| wire(WalletError::Unreadable, "iban info failed"))?;
    Ok(Json(service::iban_info(&req.iban)))
}

/// Deletes the member's bank details (the id of `iban.id`).
#[utoipa::path(delete, path = "/api/postsales/v1/wallet/bankdetails/{guid}", tag = "postsales",
    params(("guid" = String, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = WalletDetails), (status = 404, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn delete_bank_details(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(guid): Path<String>,
) -> Result<Json<WalletDetails>, ApiError> {
    service::delete_bank_details(&app.state.db, m.member_id, &guid)
        .await
        .map(Json)
        .map_err(|e| wire(e, "wallet delete failed"))
}

/// Deletes one of the member's saved cards.
#[utoipa::path(delete, path = "/api/postsales/v1/wallet/paymentmethods/{guid}", tag = "postsales",
    params(("guid" = String, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = WalletDetails), (status = 404, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
async fn delete_payment_method(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(guid): Path<String>,
) -> Result<Json<WalletDetails>, ApiError> {
    service::delete_payment_method(&app.state.db, m.member_id, &guid)
        .await
        .map(Json)
        .map_err(|e| wire(e, "wallet delete failed"))
}

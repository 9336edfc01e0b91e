//! The wallet page's forms without scripts (Post/Redirect/Get): save the bank details,
//! delete them, delete a saved card. A refused bank form comes back filled in with its
//! error flags (see `app::wallet::ui::draft`).
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::context::RequestCtx;
use app::model::error::WireError;
use app::wallet::error::WalletError;
use app::wallet::model::BankDetailsRequest;
use app::wallet::service;
use app::wallet::ui::draft::{Draft, COOKIE};

use super::auth::see_other;
use super::check_xsrf;
use crate::middleware::{self, SessionInfo};
use crate::rest::auth::session::site_suffix;
use crate::state::AppCtx;

const PAGE: &str = "/postsales/myaccount/wallet/";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct WalletForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
    iban: String,
    bic: String,
    #[serde(rename = "ownerName")]
    owner_name: String,
    confirmation: Option<String>,
    guid: String,
}

fn back(ctx: &RequestCtx, param: &str, key: &str) -> Response {
    see_other(&format!(
        "{PAGE}?{param}={key}{}",
        site_suffix(ctx, ctx.site_id)
    ))
}

fn draft_cookie(app: &AppCtx, value: &str, max_age: i64) -> Option<HeaderValue> {
    let secure = if app.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path={PAGE}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .ok()
}

pub async fn wallet_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<WalletForm>(&body) else {
        return back(&ctx, "error", "errors.general_retry.notification");
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(PAGE));
    };
    let db = &app.state.db;
    let now = app::platform::state::now();
    match f.action.as_str() {
        "save" => {
            let req = BankDetailsRequest {
                iban: f.iban.clone(),
                bic: f.bic.clone(),
                owner_name: f.owner_name.clone(),
                confirmation: f.confirmation.is_some(),
            };
            match service::save_bank_details(db, &app.settings.wallet_key, m.member_id, &req, now)
                .await
            {
                Ok(_) => {
                    let mut res = back(&ctx, "notice", "myprofile.text.bank_details.notification");
                    if let Some(v) = draft_cookie(&app, "", 0) {
                        res.headers_mut().append(header::SET_COOKIE, v);
                    }
                    res
                }
                Err(WalletError::Invalid(fields)) => {
                    let draft = Draft {
                        iban: req.iban.chars().take(64).collect(),
                        bic: req.bic.chars().take(16).collect(),
                        owner_name: req.owner_name.chars().take(80).collect(),
                        confirmation: req.confirmation,
                        errors: fields
                            .into_iter()
                            .map(|e| (e.field, e.message_key))
                            .collect(),
                    };
                    let mut res =
                        see_other(&format!("{PAGE}?retry=1{}", site_suffix(&ctx, ctx.site_id)));
                    if let Some(v) = draft_cookie(&app, &draft.encode(), 300) {
                        res.headers_mut().append(header::SET_COOKIE, v);
                    }
                    res
                }
                Err(e) => {
                    tracing::error!(error = ?e.cause(), "bank save failed");
                    back(&ctx, "error", e.message_key())
                }
            }
        }
        "delete_iban" | "delete_card" => {
            let (result, notice) = if f.action == "delete_iban" {
                (
                    service::delete_bank_details(db, m.member_id, &f.guid).await,
                    "wallet.notice.iban_deleted",
                )
            } else {
                (
                    service::delete_payment_method(db, m.member_id, &f.guid).await,
                    "wallet.notice.card_deleted",
                )
            };
            match result {
                Ok(_) => back(&ctx, "notice", notice),
                Err(e) => {
                    if let Some(cause) = e.cause() {
                        tracing::error!(error = %cause, "wallet delete failed");
                    }
                    back(&ctx, "error", e.message_key())
                }
            }
        }
        _ => back(&ctx, "error", "errors.general_retry.notification"),
    }
}

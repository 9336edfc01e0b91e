//! The wallet page's forms without scripts (Post/Redirect/Get), one route per action: save
//! the bank details, delete them, delete a saved card. A refused bank form comes back
//! filled in with its error flags (see `app::wallet::ui::draft`).
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::model::error::WireError;
use app::wallet::error::WalletError;
use app::wallet::model::BankDetailsRequest;
use app::wallet::service;
use app::wallet::ui::draft::Draft;
use app::wallet::ui::page::form_action as at;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::session::link_base;

const PAGE: &str = "/postsales/myaccount/wallet/";

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("save"), post(save))
        .route(&at("delete_iban"), post(delete_iban))
        .route(&at("delete_card"), post(delete_card))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BankForm {
    iban: String,
    bic: String,
    #[serde(rename = "ownerName")]
    owner_name: String,
    confirmation: Option<String>,
    #[serde(rename = "currentPassword")]
    current_password: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeleteForm {
    guid: String,
}

async fn save(Client(client): Client, form: XsrfForm<BankForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let f = &form.fields;
    let req = BankDetailsRequest {
        iban: f.iban.clone(),
        bic: f.bic.clone(),
        owner_name: f.owner_name.clone(),
        confirmation: f.confirmation.is_some(),
        current_password: f.current_password.clone(),
    };
    let (db, key) = (&form.app.state.db, &form.app.settings.wallet_key);
    let base = link_base(&form.ctx, form.ctx.site_id);
    let mailer = form.app.mailer(&base);
    let proof = form.app.proof(&client, m, &req.current_password);
    let now = app::platform::state::now();
    let saved = service::save_bank_details(db, key, &mailer, &proof, &req, now).await;
    let outcome = match saved {
        Ok(_) => FormOutcome::notice(PAGE, "myprofile.text.bank_details.notification")
            .clearing::<Draft>(PAGE),
        // Fields to correct, or the current password: what was typed stays (never the
        // password).
        Err(e) if e.field_errors().is_some() => {
            let fields = e.field_errors().unwrap_or_default();
            let draft = Draft {
                iban: req.iban.clone(),
                bic: req.bic.clone(),
                owner_name: req.owner_name.clone(),
                confirmation: req.confirmation,
                errors: fields
                    .into_iter()
                    .map(|e| (e.field, e.message_key))
                    .collect(),
            };
            FormOutcome::retry(PAGE, &draft)
        }
        Err(e) => {
            tracing::error!(error = ?e.cause(), "bank save failed");
            FormOutcome::error(PAGE, e.message_key())
        }
    };
    form.answer(outcome)
}

fn deleted(result: Result<(), WalletError>, notice: &str) -> FormOutcome {
    match result {
        Ok(()) => FormOutcome::notice(PAGE, notice),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "wallet delete failed");
            }
            FormOutcome::error(PAGE, e.message_key())
        }
    }
}

async fn delete_iban(form: XsrfForm<DeleteForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let db = &form.app.state.db;
    let result = service::delete_bank_details(db, m.member_id, &form.fields.guid).await;
    form.answer(deleted(result.map(|_| ()), "wallet.notice.iban_deleted"))
}

async fn delete_card(form: XsrfForm<DeleteForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let db = &form.app.state.db;
    let result = service::delete_payment_method(db, m.member_id, &form.fields.guid).await;
    form.answer(deleted(result.map(|_| ()), "wallet.notice.card_deleted"))
}

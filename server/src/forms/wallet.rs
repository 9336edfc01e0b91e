//! The wallet page's forms without scripts (Post/Redirect/Get): save the bank details,
//! delete them, delete a saved card. A refused bank form comes back filled in with its
//! error flags (see `app::wallet::ui::draft`).
use axum::response::Response;
use serde::Deserialize;

use app::model::error::WireError;
use app::wallet::error::WalletError;
use app::wallet::model::BankDetailsRequest;
use app::wallet::service;
use app::wallet::ui::draft::Draft;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;

const PAGE: &str = "/postsales/myaccount/wallet/";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct WalletForm {
    action: String,
    iban: String,
    bic: String,
    #[serde(rename = "ownerName")]
    owner_name: String,
    confirmation: Option<String>,
    guid: String,
}

pub async fn wallet_form(form: XsrfForm<WalletForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let f = &form.fields;
    let db = &form.app.state.db;
    let key = &form.app.settings.wallet_key;
    let now = app::platform::state::now();
    let outcome = match f.action.as_str() {
        "save" => {
            let req = BankDetailsRequest {
                iban: f.iban.clone(),
                bic: f.bic.clone(),
                owner_name: f.owner_name.clone(),
                confirmation: f.confirmation.is_some(),
            };
            match service::save_bank_details(db, key, m.member_id, &req, now).await {
                Ok(_) => FormOutcome::notice(PAGE, "myprofile.text.bank_details.notification")
                    .clearing::<Draft>(PAGE),
                Err(WalletError::Invalid(fields)) => {
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
                Ok(_) => FormOutcome::notice(PAGE, notice),
                Err(e) => {
                    if let Some(cause) = e.cause() {
                        tracing::error!(error = %cause, "wallet delete failed");
                    }
                    FormOutcome::error(PAGE, e.message_key())
                }
            }
        }
        _ => FormOutcome::error(PAGE, "errors.general_retry.notification"),
    };
    form.answer(outcome)
}

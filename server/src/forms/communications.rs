//! The communications page's forms without scripts (Post/Redirect/Get), one route per
//! action. Choosing NONE while newsletters were on comes back with `?survey=1`: the page
//! then shows the cancel survey open.
use std::sync::Arc;

use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::communications::error::CommunicationsError;
use app::communications::model::*;
use app::communications::service;
use app::communications::ui::form_action as at;
use app::model::error::WireError;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

const PAGE: &str = "/communications";

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("preferences"), post(preferences))
        .route(&at("optins"), post(optins))
        .route(&at("partners"), post(partners))
        .route(&at("cancel"), post(cancel))
        .route(&at("follow"), post(follow))
        .route(&at("unfollow"), post(unfollow))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PreferencesForm {
    #[serde(rename = "communicationChannel")]
    channel: String,
    #[serde(rename = "communicationModel")]
    model: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct OptinsForm {
    #[serde(rename = "isOptinPerso")]
    perso: Option<String>,
    #[serde(rename = "isOptinPartner")]
    partner: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CancelForm {
    #[serde(rename = "cancelReasonId")]
    reason: String,
    #[serde(rename = "subscriptionId")]
    subscription: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BrandForm {
    #[serde(rename = "brandId")]
    brand: String,
}

/// Back to the page: `query` on success, the error's message otherwise.
fn outcome(result: Result<&str, CommunicationsError>) -> FormOutcome {
    match result {
        Ok(query) => FormOutcome::to(format!("{PAGE}?{query}")),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "communication call failed");
            }
            FormOutcome::error(PAGE, e.message_key())
        }
    }
}

fn saved() -> &'static str {
    "notice=communications.notice.saved"
}

async fn preferences(form: XsrfForm<PreferencesForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let req = PreferencesRequest {
        communication_channel: form.fields.channel.clone(),
        communication_model: form.fields.model.clone(),
    };
    let now = app::platform::state::now();
    let result =
        service::set_preferences(&form.app.state.db, m.member_id, &req, form.ctx.lang(), now)
            .await
            .map(|s| if s.cancel_survey { "survey=1" } else { saved() });
    form.answer(outcome(result))
}

async fn optins(form: XsrfForm<OptinsForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let req = OptinsRequest {
        is_optin_perso: Some(form.fields.perso.is_some()),
        is_optin_partner: Some(form.fields.partner.is_some()),
    };
    let now = app::platform::state::now();
    let result = service::set_optins(&form.app.state.db, m.member_id, &req, form.ctx.lang(), now)
        .await
        .map(|_| saved());
    form.answer(outcome(result))
}

/// Partner checkboxes arrive as repeated fields (`partnerIds` for every partner shown,
/// `partnerOn` for the ticked ones), which a struct cannot collect: the pairs as sent.
fn partner_settings(pairs: &[(String, String)]) -> Option<Vec<PartnerSetting>> {
    let on: Vec<&str> = pairs
        .iter()
        .filter(|(k, _)| k == "partnerOn")
        .map(|(_, v)| v.as_str())
        .collect();
    pairs
        .iter()
        .filter(|(k, _)| k == "partnerIds")
        .map(|(_, v)| {
            Some(PartnerSetting {
                id: v.parse().ok()?,
                status: on.contains(&v.as_str()),
            })
        })
        .collect()
}

async fn partners(form: XsrfForm<Vec<(String, String)>>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let now = app::platform::state::now();
    let result = match partner_settings(&form.fields) {
        Some(settings) => service::set_partners(
            &form.app.state.db,
            m.member_id,
            &PartnersRequest { settings },
            form.ctx.lang(),
            now,
        )
        .await
        .map(|_| saved()),
        None => Err(CommunicationsError::Invalid("invalid_partners")),
    };
    form.answer(outcome(result))
}

async fn cancel(form: XsrfForm<CancelForm>) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let req = CancelRequest {
        cancel_reason_id: form.fields.reason.parse().unwrap_or(0),
        subscription_id: form.fields.subscription.parse().unwrap_or(0),
    };
    let now = app::platform::state::now();
    let result = service::cancel_subscription(&form.app.state.db, m.member_id, &req, now)
        .await
        .map(|_| "notice=communications.notice.cancelled");
    form.answer(outcome(result))
}

async fn brand_alert(form: XsrfForm<BrandForm>, follow: bool) -> Response {
    let Some(m) = form.member() else {
        return form.sign_in_first(PAGE);
    };
    let now = app::platform::state::now();
    let result = match form.fields.brand.parse::<i64>() {
        Ok(brand) => service::brand_alert(&form.app.state.db, m.member_id, brand, follow, now)
            .await
            .map(|_| {
                if follow {
                    "notice=communications.notice.brand_followed"
                } else {
                    "notice=communications.notice.brand_unfollowed"
                }
            }),
        Err(_) => Err(CommunicationsError::NotFound),
    };
    form.answer(outcome(result))
}

async fn follow(form: XsrfForm<BrandForm>) -> Response {
    brand_alert(form, true).await
}

async fn unfollow(form: XsrfForm<BrandForm>) -> Response {
    brand_alert(form, false).await
}

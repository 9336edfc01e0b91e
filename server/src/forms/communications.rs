//! The communications page's forms without scripts (Post/Redirect/Get). Choosing NONE
//! while newsletters were on comes back with `?survey=1`: the page then shows the cancel
//! survey open.
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use serde::Deserialize;

use app::communications::error::CommunicationsError;
use app::communications::model::*;
use app::communications::service;
use app::context::RequestCtx;
use app::model::error::WireError;

use super::check_xsrf;
use super::outcome::see_other;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;
use crate::web::session::site_suffix;

const PAGE: &str = "/communications";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CommunicationsForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    action: String,
    #[serde(rename = "communicationChannel")]
    channel: String,
    #[serde(rename = "communicationModel")]
    model: String,
    #[serde(rename = "isOptinPerso")]
    perso: Option<String>,
    #[serde(rename = "isOptinPartner")]
    partner: Option<String>,
    #[serde(rename = "cancelReasonId")]
    reason: String,
    #[serde(rename = "subscriptionId")]
    subscription: String,
    #[serde(rename = "brandId")]
    brand: String,
}

fn back(ctx: &RequestCtx, query: &str) -> Response {
    see_other(&format!("{PAGE}?{query}{}", site_suffix(ctx, ctx.site_id)))
}

/// Partner checkboxes arrive as repeated fields (`partnerIds` for every partner shown,
/// `partnerOn` for the ticked ones), which `Deserialize` into a struct cannot collect.
fn partner_settings(body: &str) -> Option<Vec<PartnerSetting>> {
    let pairs = serde_urlencoded::from_str::<Vec<(String, String)>>(body).ok()?;
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

pub async fn communications_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<CommunicationsForm>(&body) else {
        return back(&ctx, "error=errors.general_retry.notification");
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let Some(m) = &session.member else {
        return middleware::redirect(&app::routes::login_redirect(PAGE));
    };
    let (db, id, lang, now) = (
        &app.state.db,
        m.member_id,
        ctx.lang(),
        app::platform::state::now(),
    );
    let saved = "notice=communications.notice.saved";
    let outcome: Result<&str, CommunicationsError> = match f.action.as_str() {
        "preferences" => {
            let req = PreferencesRequest {
                communication_channel: f.channel.clone(),
                communication_model: f.model.clone(),
            };
            service::set_preferences(db, id, &req, lang, now)
                .await
                .map(|s| if s.cancel_survey { "survey=1" } else { saved })
        }
        "optins" => {
            let req = OptinsRequest {
                is_optin_perso: Some(f.perso.is_some()),
                is_optin_partner: Some(f.partner.is_some()),
            };
            service::set_optins(db, id, &req, lang, now)
                .await
                .map(|_| saved)
        }
        "partners" => match partner_settings(&body) {
            Some(settings) => {
                service::set_partners(db, id, &PartnersRequest { settings }, lang, now)
                    .await
                    .map(|_| saved)
            }
            None => Err(CommunicationsError::Invalid("invalid_partners")),
        },
        "cancel" => {
            let req = CancelRequest {
                cancel_reason_id: f.reason.parse().unwrap_or(0),
                subscription_id: f.subscription.parse().unwrap_or(0),
            };
            service::cancel_subscription(db, id, &req, now)
                .await
                .map(|_| "notice=communications.notice.cancelled")
        }
        "follow" | "unfollow" => {
            let follow = f.action == "follow";
            match f.brand.parse::<i64>() {
                Ok(brand) => service::brand_alert(db, id, brand, follow, now)
                    .await
                    .map(|_| {
                        if follow {
                            "notice=communications.notice.brand_followed"
                        } else {
                            "notice=communications.notice.brand_unfollowed"
                        }
                    }),
                Err(_) => Err(CommunicationsError::NotFound),
            }
        }
        _ => Err(CommunicationsError::Invalid("unknown_action")),
    };
    match outcome {
        Ok(query) => back(&ctx, query),
        Err(e) => {
            if let Some(cause) = e.cause() {
                tracing::error!(error = %cause, "communication call failed");
            }
            back(&ctx, &format!("error={}", e.message_key()))
        }
    }
}

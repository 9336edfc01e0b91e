//! The partner cookies (rules in app/src/auth/attribution/partner.rs): set on a page view
//! a partner brought, with the visitor's consent to behavioural cookies; read by the
//! registration, the sign-in and the payments, which credit the partner.
use std::convert::Infallible;
use std::sync::Arc;

use app::auth::attribution::partner;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};

use super::cookies::{cookie, partner_cookie};
use crate::state::AppCtx;

/// The partner cookies a request carries.
#[derive(Clone, Debug, Default)]
pub struct PartnerCookies {
    pub from_partner: Option<String>,
    pub last_click: Option<String>,
    pub last_click_travel: Option<String>,
}

impl PartnerCookies {
    pub fn of(headers: &HeaderMap) -> PartnerCookies {
        let read = |name| cookie(headers, name).and_then(|v| partner::valid_id(&v));
        PartnerCookies {
            from_partner: read(partner::FROM_PARTNER_COOKIE),
            last_click: read(partner::LAST_CLICK_COOKIE),
            last_click_travel: read(partner::LAST_CLICK_TRAVEL_COOKIE),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for PartnerCookies {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(PartnerCookies::of(&parts.headers))
    }
}

/// The `Set-Cookie` values of a page view at `path?query` a partner brought, when the
/// visitor consented to behavioural cookies; none otherwise.
pub fn arrival_cookies(
    app: &AppCtx,
    referer: Option<&str>,
    path: &str,
    query: &str,
    consent: &Option<Vec<(String, bool)>>,
) -> Vec<String> {
    if !app::onboarding::rules::consent_accepted(consent, partner::CONSENT_CATEGORY) {
        return Vec::new();
    }
    let Some(arrival) = partner::arrival(path, query, referer) else {
        return Vec::new();
    };
    partner::cookies_of(&arrival)
        .into_iter()
        .map(|(name, value, age)| partner_cookie(name, &value, age, app.settings.secure_cookies))
        .collect()
}

/// The request's `Referer`, when it is text.
pub fn referer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::REFERER).and_then(|v| v.to_str().ok())
}

/// Credits the partner of the last click with a paid order, in its own task: the payment's
/// answer does not wait for it, and a failure is logged, never the payment's.
pub fn credit_order(app: &Arc<AppCtx>, cookies: &PartnerCookies, order_id: i64, travel: bool) {
    let Some(partner) = partner::order_partner(
        travel,
        cookies.last_click.as_deref(),
        cookies.last_click_travel.as_deref(),
    ) else {
        return;
    };
    let app = app.clone();
    tokio::spawn(async move {
        let now = app::platform::state::now();
        if let Err(e) =
            app::auth::attribution::credits::order(&app.state.db, order_id, &partner, now).await
        {
            tracing::error!(error = %e, order_id, "partner credit of an order failed");
        }
    });
}

/// Credits the partner of the visit (the from-partner cookie) with a member's sign-in.
pub async fn credit_sign_in(app: &AppCtx, cookies: &PartnerCookies, site_id: u16, email: &str) {
    let Some(partner) = &cookies.from_partner else {
        return;
    };
    let email = app::auth::service::normalize_email(email);
    let now = app::platform::state::now();
    let credited = app::auth::attribution::credits::sign_in(
        &app.state.db,
        i64::from(site_id),
        &email,
        partner,
        now,
    );
    if let Err(e) = credited.await {
        tracing::error!(error = %e, "partner credit of a sign-in failed");
    }
}

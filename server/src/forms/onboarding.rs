//! The consent banner, popins and banners without scripts: one form target whose `kind`
//! says which (Post/Redirect/Get back to the page).
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Deserialize;

use app::auth::rules::safe_return_url;
use app::onboarding::rules::{self, PopinType};

use super::check_xsrf;
use crate::middleware::SessionInfo;
use crate::state::AppCtx;
use app::auth::rules::birth_date_iso;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct OnboardingForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    kind: String,
    back: String,
    choice: String,
    action: String,
    #[serde(rename = "popinType")]
    popin_type: i64,
    version: i64,
    #[serde(rename = "birthDate")]
    birth_date: String,
}

fn set_cookie(res: &mut Response, cookie: String) {
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
}

fn back_to(back: &str) -> Response {
    let mut res = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(&safe_return_url(Some(back))) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res
}

/// Categories arrive as repeated `categories` fields, which `Form` can't collect.
fn categories(raw: &str) -> Vec<String> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(raw)
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| k == "categories")
        .map(|(_, v)| v)
        .collect()
}

pub async fn onboarding_form(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Ok(f) = serde_urlencoded::from_str::<OnboardingForm>(&body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    if let Err(refused) = check_xsrf(&app, &session, &headers, &f.xsrf) {
        return refused;
    }
    let secure = if app.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let mut res = back_to(&f.back);
    let now = app::platform::state::now();
    match (f.kind.as_str(), &session.member) {
        ("consent", _) => {
            let chosen = categories(&body);
            let accepted: Vec<&str> = match f.choice.as_str() {
                "all" => rules::CONSENT_CATEGORIES.to_vec(),
                "custom" => rules::CONSENT_CATEGORIES
                    .iter()
                    .copied()
                    .filter(|c| chosen.iter().any(|x| x == c))
                    .collect(),
                _ => vec![],
            };
            let value = rules::consent_cookie_value(&accepted);
            set_cookie(
                &mut res,
                format!(
                    "{}={value}; Path=/; Max-Age={}; SameSite=Lax{secure}",
                    rules::CONSENT_COOKIE,
                    6 * rules::MONTH_SECS
                ),
            );
            // Without the performance consent the tracking device id goes too (the
            // browser's library sets it only with that consent).
            if !accepted.contains(&"C0002") {
                set_cookie(
                    &mut res,
                    format!(
                        "{}=; Path=/; Max-Age=0; SameSite=Lax{secure}",
                        app::diagnostics::tracking::DEVICE_COOKIE
                    ),
                );
            }
        }
        ("popin", Some(m)) => {
            let Some(kind) = PopinType::from_code(f.popin_type) else {
                return StatusCode::BAD_REQUEST.into_response();
            };
            let accepted = f.action == "accept";
            let birth = if kind == PopinType::Birthdate && accepted {
                match birth_date_iso(&f.birth_date) {
                    Some(d) => Some(d),
                    // An invalid date changes nothing; the popin stays.
                    None => return back_to(&f.back),
                }
            } else {
                None
            };
            if let Err(e) = app::onboarding::service::answer(
                &app.state.db,
                m.member_id,
                kind,
                f.version,
                accepted,
                birth,
                now,
            )
            .await
            {
                tracing::error!(error = %e, "cannot store the popin answer");
            }
        }
        ("adot", Some(m)) => {
            if let Err(e) =
                app::onboarding::service::adot(&app.state.db, m.member_id, f.action == "accept")
                    .await
            {
                tracing::error!(error = %e, "cannot store the data-partner answer");
            }
        }
        ("app", _) => {
            set_cookie(
                &mut res,
                format!(
                    "{}=1; Path=/; Max-Age={}; SameSite=Lax{secure}",
                    rules::APP_BANNER_COOKIE,
                    rules::MONTH_SECS
                ),
            );
        }
        _ => {}
    }
    res
}

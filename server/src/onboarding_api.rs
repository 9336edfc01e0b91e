//! Consent, popin and banner answers: one HTML form target and the REST calls of spec 000 §7
//! (popins, accept partner opt-in with `IsAdotOptinAccepted`).
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;

use app::auth::rules::{parse_birth_date, safe_return_url};
use app::onboarding::rules::{self, PopinType};
use app::onboarding::store;

use crate::middleware::{self, SessionInfo};
use crate::AppCtx;

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

fn birth_date_iso(input: &str) -> Option<String> {
    parse_birth_date(input).map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
}

/// Categories arrive as repeated `categories` fields, which `Form` can't collect.
fn categories(raw: &str) -> Vec<String> {
    raw.split('&')
        .filter_map(|p| p.split_once('='))
        .filter(|(k, _)| *k == "categories")
        .map(|(_, v)| v.to_string())
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
    let cookie_token = middleware::cookie(&headers, app::platform::csrf::COOKIE);
    if !app::platform::csrf::check(
        &app.state.settings.xsrf_secret,
        &session.binding,
        cookie_token,
        Some(&f.xsrf),
    ) {
        return middleware::forbidden_csrf();
    }
    let secure = if app.state.settings.secure_cookies {
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

/// GET popins: the next modal popin of the signed-in member, or 204.
pub async fn popins(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
) -> Response {
    let Some(m) = session.member else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    match store::load(&app.state.db, m.member_id).await {
        Ok(state) => match rules::next_popin(&state) {
            Some((kind, version)) => Json(serde_json::json!({ "popinType": kind as i64, "name": kind.key(), "version": version })).into_response(),
            None => StatusCode::NO_CONTENT.into_response(),
        },
        Err(e) => {
            tracing::error!(error = %e, "Cannot fetch Popins");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[derive(Deserialize)]
pub struct PopinAnswer {
    accepted: bool,
    #[serde(rename = "birthDate", default)]
    birth_date: Option<String>,
}

/// POST an answer to a popin (`{accepted, birthDate?}`).
pub async fn answer_popin(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Path((popin_type, version)): Path<(i64, i64)>,
    Json(body): Json<PopinAnswer>,
) -> Response {
    let Some(m) = session.member else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    let Some(kind) = PopinType::from_code(popin_type) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let birth = match (kind, body.accepted, body.birth_date.as_deref()) {
        (PopinType::Birthdate, true, Some(d)) => match birth_date_iso(d) {
            Some(iso) => Some(iso),
            None => {
                return (
                    StatusCode::BAD_REQUEST,
                    Json(serde_json::json!({ "messageKey": "auth.birthdate.invalid" })),
                )
                    .into_response()
            }
        },
        _ => None,
    };
    match app::onboarding::service::answer(
        &app.state.db,
        m.member_id,
        kind,
        version,
        body.accepted,
        birth,
        app::platform::state::now(),
    )
    .await
    {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot store the popin answer");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[derive(Deserialize)]
pub struct AdotAnswer {
    #[serde(rename = "IsAdotOptinAccepted")]
    accepted: bool,
}

/// Accept (or refuse) the data-partner opt-in.
pub async fn adot_optin(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Json(body): Json<AdotAnswer>,
) -> Response {
    let Some(m) = session.member else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    match app::onboarding::service::adot(&app.state.db, m.member_id, body.accepted).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot store the data-partner answer");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// Frontend metrics batch (spec 000 §7 Diagnostics): logged, nothing stored.
pub async fn metrics(Json(body): Json<serde_json::Value>) -> Response {
    let count = body["metrics"].as_array().map(Vec::len).unwrap_or(0);
    tracing::info!(count, app = %body["tags"]["appName"], "frontend metrics");
    StatusCode::NO_CONTENT.into_response()
}

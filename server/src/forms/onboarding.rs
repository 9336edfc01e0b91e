//! The consent banner, popins and banners without scripts, one route each (Post/Redirect/
//! Get back to the page the form was on).
use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde::Deserialize;

use app::auth::rules::safe_return_url;
use app::onboarding::rules::{self, PopinType};
use app::onboarding::ui::layer::form_action as at;

use super::extract::XsrfForm;
use super::outcome::FormOutcome;
use crate::state::AppCtx;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&at("consent"), post(consent))
        .route(&at("popin"), post(popin))
        .route(&at("adot"), post(adot))
        .route(&at("app"), post(app_banner))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BackForm {
    back: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PopinForm {
    back: String,
    action: String,
    #[serde(rename = "popinType")]
    popin_type: i64,
    version: i64,
    #[serde(rename = "birthDate")]
    birth_date: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AnswerForm {
    back: String,
    action: String,
}

/// Back to the page the form was on (a path of this shop: `safe_return_url`), with the
/// cookies the answer sets.
fn back_to<T>(form: &XsrfForm<T>, back: &str, cookies: &[String]) -> Response {
    let mut res = form.answer(FormOutcome::away(safe_return_url(Some(back))));
    for c in cookies {
        if let Ok(v) = HeaderValue::from_str(c) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

fn secure<T>(form: &XsrfForm<T>) -> &'static str {
    if form.app.settings.secure_cookies {
        "; Secure"
    } else {
        ""
    }
}

/// The consent banner: all, none, or the categories ticked (repeated `categories`
/// fields, which a struct cannot collect: the pairs as sent).
async fn consent(form: XsrfForm<Vec<(String, String)>>) -> Response {
    let field = |name: &str| {
        form.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    };
    let chosen: Vec<&str> = form
        .fields
        .iter()
        .filter(|(k, _)| k == "categories")
        .map(|(_, v)| v.as_str())
        .collect();
    let accepted: Vec<&str> = match field("choice") {
        "all" => rules::CONSENT_CATEGORIES.to_vec(),
        "custom" => rules::CONSENT_CATEGORIES
            .iter()
            .copied()
            .filter(|c| chosen.contains(c))
            .collect(),
        _ => vec![],
    };
    let secure = secure(&form);
    let mut cookies = vec![format!(
        "{}={}; Path=/; Max-Age={}; SameSite=Lax{secure}",
        rules::CONSENT_COOKIE,
        rules::consent_cookie_value(&accepted),
        6 * rules::MONTH_SECS
    )];
    // Without the performance consent the tracking device id goes too (the browser's
    // library sets it only with that consent).
    if !accepted.contains(&"C0002") {
        cookies.push(format!(
            "{}=; Path=/; Max-Age=0; SameSite=Lax{secure}",
            app::diagnostics::tracking::DEVICE_COOKIE
        ));
    }
    // A first visit a partner's link brought is credited once the visitor consents.
    if accepted.contains(&app::auth::attribution::partner::CONSENT_CATEGORY) {
        let back = field("back");
        let (path, query) = back.split_once('?').unwrap_or((back, ""));
        let consent = Some(vec![(
            app::auth::attribution::partner::CONSENT_CATEGORY.to_string(),
            true,
        )]);
        cookies.extend(crate::middleware::partner::arrival_cookies(
            &form.app, None, path, query, &consent,
        ));
    }
    back_to(&form, field("back"), &cookies)
}

/// A popin answered (a member's): accepted or closed; a birth date that is no date changes
/// nothing and the popin stays.
async fn popin(form: XsrfForm<PopinForm>) -> Response {
    let f = &form.fields;
    let Some(m) = form.member() else {
        return back_to(&form, &f.back, &[]);
    };
    let Some(kind) = PopinType::from_code(f.popin_type) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let accepted = f.action == "accept";
    let now = app::platform::state::now();
    let birth = if kind == PopinType::Birthdate && accepted {
        // The profile's rule: a date that exists, not in the future, of a member old enough.
        match app::account::rules::check_birth_date(
            &f.birth_date,
            app::account::service::today(now),
        ) {
            Ok(d) => Some(d),
            Err(key) => {
                let draft = app::onboarding::ui::draft::PopinDraft::new(&f.birth_date, key);
                return form.answer(FormOutcome::retry(&safe_return_url(Some(&f.back)), &draft));
            }
        }
    } else {
        None
    };
    let db = &form.app.state.db;
    if let Err(e) =
        app::onboarding::service::answer(db, m.member_id, kind, f.version, accepted, birth, now)
            .await
    {
        tracing::error!(error = %e, "cannot store the popin answer");
    }
    // The page it returns to shows no next popin (the next page view does).
    let rest = format!(
        "{}=1; Path=/; Max-Age=600; HttpOnly; SameSite=Lax{}",
        app::onboarding::rules::POPIN_REST_COOKIE,
        secure(&form)
    );
    back_to(&form, &f.back, &[rest])
}

/// The data-partner banner (a member's): accepted or closed.
async fn adot(form: XsrfForm<AnswerForm>) -> Response {
    if let Some(m) = form.member() {
        let accepted = form.fields.action == "accept";
        if let Err(e) =
            app::onboarding::service::adot(&form.app.state.db, m.member_id, accepted).await
        {
            tracing::error!(error = %e, "cannot store the data-partner answer");
        }
    }
    back_to(&form, &form.fields.back, &[])
}

/// The app-download banner closed: not shown again for a month.
async fn app_banner(form: XsrfForm<BackForm>) -> Response {
    let cookie = format!(
        "{}=1; Path=/; Max-Age={}; SameSite=Lax{}",
        rules::APP_BANNER_COOKIE,
        rules::MONTH_SECS,
        secure(&form)
    );
    back_to(&form, &form.fields.back, &[cookie])
}

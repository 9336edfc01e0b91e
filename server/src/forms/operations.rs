//! Operation links: `GET /operation/{code}` enters the operation (records the
//! operation-code cookie and lands on its sale or home with a 302), or goes to the
//! `/operation` page saying why not; `POST /operation/form` takes a typed code there.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::Deserialize;

use app::context::RequestCtx;
use app::operations::{rules, store};
use app::routes::encode_query_value;

use super::extract::XsrfForm;
use super::outcome::{see_other, FormOutcome};
use crate::state::AppCtx;
use crate::web::session::site_suffix;

/// Enters `code` on the request's site (for its visitor or member: `store::enter`): a 302
/// to where it lands with the cookie, or a 303 to the explaining page. Never an error
/// page: a storage failure says "try again".
pub async fn enter(app: &AppCtx, ctx: &RequestCtx, raw: &str) -> Response {
    let now = app::platform::state::now();
    let shown = rules::normalize_code(raw).unwrap_or_default();
    let back = |key: &str| {
        see_other(&format!(
            "/operation?error={key}&code={}{}",
            encode_query_value(&shown),
            site_suffix(ctx, ctx.site_id)
        ))
    };
    // A visitor lands on the open-door page of the target, a member on theirs.
    let audience = if ctx.member_id.is_some() {
        app::shell::rules::Audience::Member
    } else {
        app::shell::rules::Audience::Visitor
    };
    match store::enter(&app.state.db, ctx.site_id, raw, now, audience).await {
        Ok(Ok((code, url))) => {
            let mut res = StatusCode::FOUND.into_response();
            let target = if site_suffix(ctx, ctx.site_id).is_empty() {
                url
            } else {
                app::routes::with_query(&url, &format!("site={}", ctx.site_id))
            };
            if let Ok(v) = HeaderValue::from_str(&target) {
                res.headers_mut().insert(header::LOCATION, v);
            }
            if let Ok(v) = HeaderValue::from_str(&rules::cookie(&code, app.settings.secure_cookies))
            {
                res.headers_mut().append(header::SET_COOKIE, v);
            }
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            res
        }
        Ok(Err(refusal)) => back(refusal.message_key()),
        Err(e) => {
            tracing::error!(error = %e, "operation look-up failed");
            back("operation.unknown")
        }
    }
}

pub async fn operation_link(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Path(code): Path<String>,
) -> Response {
    enter(&app, &ctx, &code).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct OperationForm {
    code: String,
}

/// The `/operation` page's form: to the code's link (which then lands or explains).
pub async fn operation_form(form: XsrfForm<OperationForm>) -> Response {
    let outcome = match rules::normalize_code(&form.fields.code) {
        Some(code) => FormOutcome::to(format!("/operation/{code}")),
        None => FormOutcome::error("/operation", "operation.unknown"),
    };
    form.answer(outcome)
}

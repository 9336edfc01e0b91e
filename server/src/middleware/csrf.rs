//! CSRF: a signed double submit bound to the session. State-changing API calls must echo
//! the XSRF cookie in `X-XSRF-TOKEN`; HTML forms posting outside `/api` carry it in a
//! hidden `_xsrf` field, checked by `forms::check_xsrf`.
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::context::SessionInfo;
use super::cookies::cookie;
use crate::state::AppCtx;

pub fn forbidden_csrf() -> Response {
    tracing::warn!("refused a state-changing request without a valid XSRF token");
    let body = app::model::error::ErrorBody::new("csrf", "errors.csrf.notification");
    (axum::http::StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

pub async fn csrf(State(app): State<Arc<AppCtx>>, req: Request, next: Next) -> Response {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state && req.uri().path().starts_with("/api/") {
        let binding = req
            .extensions()
            .get::<SessionInfo>()
            .map(|s| s.binding.clone())
            .unwrap_or_else(|| "anon".into());
        let cookie_token = cookie(req.headers(), app::platform::csrf::COOKIE);
        let header_token = req
            .headers()
            .get(app::platform::csrf::HEADER)
            .and_then(|v| v.to_str().ok());
        if !app::platform::csrf::check(
            &app.settings.xsrf_secret,
            &binding,
            cookie_token.as_deref(),
            header_token,
        ) {
            return forbidden_csrf();
        }
    }
    next.run(req).await
}

//! Operator sessions: their own cookie, sent only to the back office's path, separate from
//! any member session (an operator who is also a member keeps the two apart). A session is
//! made by the password step and is good for nothing until its second factor is given; it
//! ends after `IDLE_SECS` without a request or `MAX_AGE_SECS` in all. Forms carry the
//! session's own token (`_xsrf`, a synchronizer token kept in the session row).
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use cookie::{Cookie, SameSite};
use serde::de::DeserializeOwned;

use super::roles::Permission;
use super::store::{self, OperatorRow};
use super::{text, ui, PREFIX};
use crate::state::AppCtx;

pub use app::platform::retention::{
    OPERATOR_IDLE_SECS as IDLE_SECS, OPERATOR_MAX_AGE_SECS as MAX_AGE_SECS,
};
const COOKIE: &str = "rosace_bo";
const SECURE_COOKIE: &str = "__Secure-rosace_bo";
/// The sign-in form's own token before there is a session (login CSRF).
const PRE_COOKIE: &str = "rosace_bo_pre";
const BODY_MAX: usize = 64 * 1024;

pub fn cookie_name(app: &AppCtx) -> &'static str {
    if app.settings.secure_cookies {
        SECURE_COOKIE
    } else {
        COOKIE
    }
}

/// `Set-Cookie` for an operator session: HttpOnly, SameSite=Strict, the back office's path
/// only, Secure over HTTPS; no max-age (it ends with the browser, or sooner on the server).
pub fn session_cookie(app: &AppCtx, token: &str) -> String {
    Cookie::build((cookie_name(app), token))
        .path(PREFIX)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.settings.secure_cookies)
        .build()
        .to_string()
}

pub fn clear_cookie(app: &AppCtx) -> String {
    Cookie::build((cookie_name(app), ""))
        .path(PREFIX)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.settings.secure_cookies)
        .max_age(cookie::time::Duration::ZERO)
        .build()
        .to_string()
}

pub fn pre_cookie(app: &AppCtx, token: &str) -> String {
    Cookie::build((PRE_COOKIE, token))
        .path(PREFIX)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(app.settings.secure_cookies)
        .build()
        .to_string()
}

pub fn pre_token(headers: &HeaderMap) -> Option<String> {
    crate::middleware::cookie(headers, PRE_COOKIE).filter(|t| t.len() == 32)
}

pub fn token(app: &AppCtx, headers: &HeaderMap) -> Option<String> {
    crate::middleware::cookie(headers, cookie_name(app)).filter(|t| t.len() == 32)
}

pub fn client_ip(app: &AppCtx, parts: &Parts) -> String {
    let peer = parts
        .extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0);
    crate::middleware::context::client_key(app, &parts.headers, peer)
}

pub fn equal(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A signed-in operator (password and second factor given, session alive), for every
/// back-office page and form but the sign-in ones. Without one: to the sign-in page.
#[derive(Clone, Debug)]
pub struct Operator {
    pub row: OperatorRow,
    pub xsrf: String,
    pub token: String,
    pub ip: String,
}

impl Operator {
    /// The operator's role has `permission`, else the "not allowed" page (403).
    #[allow(clippy::result_large_err)]
    pub fn require(&self, permission: Permission) -> Result<(), Response> {
        if super::roles::allows(self.row.role, permission) {
            Ok(())
        } else {
            tracing::warn!(
                operator = self.row.id,
                ?permission,
                "back office: refused by role"
            );
            Err(ui::denied(self))
        }
    }

    pub fn can(&self, permission: Permission) -> bool {
        super::roles::allows(self.row.role, permission)
    }

    pub fn lang(&self) -> &str {
        &self.row.lang
    }

    pub fn t(&self, key: &str) -> &'static str {
        text::t(&self.row.lang, key)
    }

    pub fn actor(&self) -> super::audit::Actor {
        super::audit::Actor {
            operator_id: Some(self.row.id),
            email: self.row.email.clone(),
            ip: self.ip.clone(),
        }
    }
}

fn to_sign_in(app: &AppCtx, parts: &Parts, expired: bool) -> Response {
    let back = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .filter(|_| parts.method == Method::GET)
        .unwrap_or(PREFIX);
    let mut location = format!(
        "{PREFIX}/signin?next={}",
        app::routes::encode_query_value(back)
    );
    if expired {
        location.push_str("&expired=1");
    }
    let mut res = crate::middleware::redirect(&location);
    res.headers_mut().insert(
        header::SET_COOKIE,
        clear_cookie(app).parse().expect("a cookie header"),
    );
    res
}

impl FromRequestParts<Arc<AppCtx>> for Operator {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<AppCtx>) -> Result<Self, Response> {
        let Some(token) = token(app, &parts.headers) else {
            return Err(to_sign_in(app, parts, false));
        };
        let db = &app.state.db;
        let now = app::platform::state::now();
        let session = store::session(db, &token).await.map_err(ui::db_error)?;
        let Some(session) = session else {
            return Err(to_sign_in(app, parts, true));
        };
        let stale =
            now - session.last_seen_at > IDLE_SECS || now - session.created_at > MAX_AGE_SECS;
        if stale || !session.second_factor {
            let _ = store::delete_session(db, &token).await;
            return Err(to_sign_in(app, parts, stale));
        }
        let Some(row) = store::by_id(db, session.operator_id)
            .await
            .map_err(ui::db_error)?
            .filter(|o| o.active)
        else {
            let _ = store::delete_session(db, &token).await;
            return Err(to_sign_in(app, parts, true));
        };
        if now - session.last_seen_at >= 30 {
            store::touch_session(db, &token, now)
                .await
                .map_err(ui::db_error)?;
        }
        Ok(Operator {
            row,
            xsrf: session.xsrf,
            token,
            ip: client_ip(app, parts),
        })
    }
}

/// A back-office form: a signed-in operator, the form's `_xsrf` equal to their session's
/// token (else 403), and the fields as `T` (a body `T` cannot read is a 400 page; past
/// 64 KB, 413).
pub struct OperatorForm<T> {
    pub operator: Operator,
    pub fields: T,
}

#[derive(serde::Deserialize, Default)]
struct XsrfField {
    #[serde(rename = "_xsrf", default)]
    xsrf: String,
}

impl<T: DeserializeOwned + Send> FromRequest<Arc<AppCtx>> for OperatorForm<T> {
    type Rejection = Response;

    async fn from_request(req: Request, app: &Arc<AppCtx>) -> Result<Self, Response> {
        let (mut parts, body) = req.into_parts();
        let operator = Operator::from_request_parts(&mut parts, app).await?;
        let bytes = axum::body::to_bytes(body, BODY_MAX)
            .await
            .map_err(|_| StatusCode::PAYLOAD_TOO_LARGE.into_response())?;
        let token: XsrfField = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
        if !equal(&token.xsrf, &operator.xsrf) {
            tracing::warn!(
                operator = operator.row.id,
                "back office: form without its session token"
            );
            return Err(ui::message_page(
                &operator.row.lang,
                Some(&operator),
                StatusCode::FORBIDDEN,
                text::t(&operator.row.lang, "signin.form_expired"),
            ));
        }
        let fields = serde_urlencoded::from_bytes::<T>(&bytes).map_err(|e| {
            tracing::info!(error = %e, "back office: unreadable form");
            ui::message_page(
                &operator.row.lang,
                Some(&operator),
                StatusCode::BAD_REQUEST,
                text::t(&operator.row.lang, "form.errors"),
            )
        })?;
        Ok(OperatorForm { operator, fields })
    }
}

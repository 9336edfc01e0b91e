//! The extractor every form target takes: the request's context, and the form's fields
//! once its XSRF token is checked. Like `web::extract` does for the REST calls, so a form
//! handler only says what its form does.
use std::sync::Arc;

use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use app::context::RequestCtx;
use app::platform::session::SessionMember;

use super::outcome::FormOutcome;
use crate::middleware::{self, SessionInfo};
use crate::state::AppCtx;

/// A form without files is small: its text fields only.
pub const FORM_BODY_MAX: usize = 64 * 1024;

/// A form posted by the browser (`application/x-www-form-urlencoded`) whose hidden `_xsrf`
/// field matches the session's token, with its fields as `T` (unknown fields ignored,
/// missing ones defaulted by `T`). Refused before anything is read into `T`: a missing or
/// stale token (403), a body past `FORM_BODY_MAX` (413). A body `T` cannot take goes back
/// to the page it came from with the general error: nothing is changed.
pub struct XsrfForm<T> {
    pub app: Arc<AppCtx>,
    pub ctx: RequestCtx,
    pub session: SessionInfo,
    pub fields: T,
}

impl<T> XsrfForm<T> {
    /// The signed-in member, if any.
    pub fn member(&self) -> Option<&SessionMember> {
        self.session.member.as_ref()
    }

    /// The response for `outcome`.
    pub fn answer(&self, outcome: FormOutcome) -> Response {
        outcome.respond(&self.app, &self.ctx)
    }

    /// To sign in first, then back to `page`.
    pub fn sign_in_first(&self, page: &str) -> Response {
        middleware::redirect(&app::routes::login_redirect(page))
    }
}

#[derive(Deserialize, Default)]
struct Token {
    #[serde(rename = "_xsrf", default)]
    xsrf: String,
}

/// A form carries the XSRF token in its hidden `_xsrf` field (the API layer checks the
/// header instead); a missing or stale one is refused with 403.
#[allow(clippy::result_large_err)]
pub fn check_xsrf(
    app: &AppCtx,
    session: &SessionInfo,
    headers: &HeaderMap,
    form_token: &str,
) -> Result<(), Response> {
    let cookie_token = middleware::cookie(headers, middleware::xsrf_cookie_name(app));
    if app::platform::csrf::check(
        &app.settings.xsrf_secret,
        &session.binding,
        cookie_token.as_deref(),
        Some(form_token),
    ) {
        Ok(())
    } else {
        Err(middleware::forbidden_csrf())
    }
}

/// Why a form with files is refused before its body is read.
pub enum BeforeBody {
    /// No signed-in member: to sign in first.
    SignIn,
    /// From another site, or with an XSRF cookie that is not this session's: 403.
    Forbidden,
}

/// What a form with files (the help form, the rose-deal contact form: megabytes) can be
/// refused for before its body is read, so that nobody without a session makes the server
/// take in 9–16 MB only to refuse it (review N3): no signed-in member, a browser saying the
/// post comes from another site (Fetch Metadata), or an XSRF cookie that is not this
/// session's. The form's own `_xsrf` field, inside the body, is then checked against that
/// cookie with [`check_xsrf`] once the body is read, as every form's is.
pub fn check_before_body(
    app: &AppCtx,
    session: &SessionInfo,
    headers: &HeaderMap,
) -> Result<i64, BeforeBody> {
    let Some(member) = &session.member else {
        return Err(BeforeBody::SignIn);
    };
    let other_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let v = v.trim();
            v.eq_ignore_ascii_case("cross-site") || v.eq_ignore_ascii_case("same-site")
        });
    let cookie = middleware::cookie(headers, middleware::xsrf_cookie_name(app));
    let bound = cookie.as_deref().is_some_and(|c| {
        app::platform::csrf::is_valid(&app.settings.xsrf_secret, &session.binding, c)
    });
    if other_site || !bound {
        return Err(BeforeBody::Forbidden);
    }
    Ok(member.member_id)
}

/// The path (and query) of the page the form was on, when the browser says so and it is
/// this shop's: where an unreadable form goes back to.
fn referring_page(headers: &HeaderMap) -> Option<String> {
    let referer = headers.get(header::REFERER)?.to_str().ok()?;
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let rest = referer
        .strip_prefix("https://")
        .or_else(|| referer.strip_prefix("http://"))?;
    let path = rest.strip_prefix(host)?;
    (path.starts_with('/') && !path.starts_with("//")).then(|| {
        // Without an earlier outcome's notice: this one says what happened.
        let (page, query) = path.split_once('?').unwrap_or((path, ""));
        let kept: Vec<&str> = query
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with("notice=") && !p.starts_with("error="))
            .collect();
        if kept.is_empty() {
            page.to_string()
        } else {
            format!("{page}?{}", kept.join("&"))
        }
    })
}

impl<T: DeserializeOwned + Send> FromRequest<Arc<AppCtx>> for XsrfForm<T> {
    type Rejection = Response;

    async fn from_request(req: Request, app: &Arc<AppCtx>) -> Result<Self, Response> {
        let (parts, body) = req.into_parts();
        let ctx = parts
            .extensions
            .get::<RequestCtx>()
            .cloned()
            .ok_or_else(|| StatusCode::INTERNAL_SERVER_ERROR.into_response())?;
        let session = parts
            .extensions
            .get::<SessionInfo>()
            .cloned()
            .ok_or_else(|| StatusCode::INTERNAL_SERVER_ERROR.into_response())?;
        let bytes = axum::body::to_bytes(body, FORM_BODY_MAX)
            .await
            .map_err(|_| StatusCode::PAYLOAD_TOO_LARGE.into_response())?;
        let token = serde_urlencoded::from_bytes::<Token>(&bytes).unwrap_or_default();
        check_xsrf(app, &session, &parts.headers, &token.xsrf)?;
        match serde_urlencoded::from_bytes::<T>(&bytes) {
            Ok(fields) => Ok(XsrfForm {
                app: app.clone(),
                ctx,
                session,
                fields,
            }),
            Err(e) => {
                tracing::warn!(error = %e, path = %parts.uri.path(), "unreadable form");
                let back = referring_page(&parts.headers).unwrap_or_else(|| "/".into());
                Err(
                    FormOutcome::error(&back, "errors.general_retry.notification")
                        .respond(app, &ctx),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(referer: &str, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::REFERER, HeaderValue::from_str(referer).unwrap());
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        h
    }

    #[test]
    fn an_unreadable_form_goes_back_to_its_own_page_of_this_shop_only() {
        let page = |r: &str| referring_page(&headers(r, "shop.test"));
        assert_eq!(
            page("https://shop.test/myaccount?tab=delete&notice=x").as_deref(),
            Some("/myaccount?tab=delete")
        );
        assert_eq!(
            page("http://shop.test/wallet?error=y").as_deref(),
            Some("/wallet")
        );
        assert_eq!(page("https://evil.test/myaccount"), None);
        assert_eq!(page("https://shop.test.evil.test/x"), None);
        assert_eq!(page("https://shop.test//evil.test/x"), None);
        assert_eq!(page("javascript:alert(1)"), None);
    }
}

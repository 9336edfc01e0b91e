//! The session cookies of a sign-in or sign-out, shared by the REST calls and the forms.
use axum::http::{header, HeaderValue};
use axum::response::Response;

use app::context::RequestCtx;

use crate::middleware;
use crate::state::AppCtx;

/// Sets the new session and its XSRF token; the old session (if any) is deleted first, so
/// a sign-in always gives a new token (session fixation).
pub async fn with_new_session(
    app: &AppCtx,
    old: Option<&str>,
    token: &str,
    remember: bool,
    mut res: Response,
) -> Response {
    if let Some(old) = old {
        if let Err(e) = app::platform::session::delete(&app.state.db, old).await {
            tracing::error!(error = %e, "cannot delete the previous session");
        }
    }
    let max_age = remember.then(|| app::platform::session::lifetimes(true).1);
    let binding = app::platform::session::hash_token(token);
    let xsrf = app::platform::csrf::issue(&app.settings.xsrf_secret, &binding);
    for c in [
        middleware::session_cookie(app, token, max_age),
        middleware::xsrf_cookie(app, &xsrf),
    ] {
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

pub fn clear_session(app: &AppCtx, mut res: Response) -> Response {
    let c = middleware::session_cookie(app, "", Some(0));
    let xsrf = middleware::xsrf_cookie(
        app,
        &app::platform::csrf::issue(&app.settings.xsrf_secret, "anon"),
    );
    for c in [c, xsrf] {
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

/// Base of links in emails: the site's public origin.
pub fn link_base(ctx: &RequestCtx, site_id: u16) -> String {
    let url = ctx.url_on(site_id, "/");
    // `url_on` may add `?site=`; links carry their own query, so keep the origin only.
    url.split("/?")
        .next()
        .unwrap_or(&url)
        .trim_end_matches('/')
        .to_string()
}

pub fn site_suffix(ctx: &RequestCtx, site_id: u16) -> String {
    if ctx.origins.iter().any(|o| o.site_id == site_id) {
        String::new()
    } else {
        format!("&site={site_id}")
    }
}

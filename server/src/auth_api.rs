//! Sign-in REST endpoints (spec 000 §7 "Authentication and registration") and the HTML
//! form handlers that make the same flow work before (or without) the WASM app.
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form, Json};
use serde::Deserialize;

use app::auth::rules::{safe_return_url, LoginResult};
use app::auth::{error::AuthError, service};
use app::context::RequestCtx;
use app::model::auth::*;
use app::routes::encode_query_value;

use crate::middleware::{self, Client, SessionInfo};
use crate::AppCtx;

fn error_body(e: &AuthError) -> serde_json::Value {
    let fields = match e {
        AuthError::Invalid(f) => f.clone(),
        _ => vec![],
    };
    serde_json::json!({
        "error_code": format!("{e:?}").split('(').next().unwrap_or("error").to_lowercase(),
        "error_description": e.message_key(),
        "errorCode": e.message_key(),
        "messageKey": e.message_key(),
        "fieldErrors": fields,
    })
}

fn auth_error(e: AuthError) -> Response {
    if let AuthError::Storage(err) = &e {
        tracing::error!(error = %err, "sign-in call failed");
    }
    let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(error_body(&e))).into_response()
}

/// Sets the new session and its XSRF token; the old session (if any) is deleted first, so
/// a sign-in always gives a new token (session fixation).
async fn with_new_session(
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
    let xsrf = app::platform::csrf::issue(&app.state.settings.xsrf_secret, &binding);
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

fn clear_session(app: &AppCtx, mut res: Response) -> Response {
    let mut c = format!(
        "{}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
        middleware::session_cookie_name(app)
    );
    if app.state.settings.secure_cookies {
        c.push_str("; Secure");
    }
    let xsrf = middleware::xsrf_cookie(
        app,
        &app::platform::csrf::issue(&app.state.settings.xsrf_secret, "anon"),
    );
    for c in [c, xsrf] {
        if let Ok(v) = HeaderValue::from_str(&c) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

/// Base of links in emails: the site's public origin.
fn link_base(ctx: &RequestCtx, site_id: u16) -> String {
    let url = ctx.url_on(site_id, "/");
    // `url_on` may add `?site=`; links carry their own query, so keep the origin only.
    url.split("/?")
        .next()
        .unwrap_or(&url)
        .trim_end_matches('/')
        .to_string()
}

fn site_suffix(ctx: &RequestCtx, site_id: u16) -> String {
    if ctx.origins.iter().any(|o| o.site_id == site_id) {
        String::new()
    } else {
        format!("&site={site_id}")
    }
}

// ---------------------------------------------------------------- REST

/// Reads a JSON body; anything unreadable is a 400 in the sign-in error shape.
async fn json_body<T: serde::de::DeserializeOwned>(req: Request) -> Result<T, Response> {
    let bytes = axum::body::to_bytes(req.into_body(), 16 * 1024)
        .await
        .map_err(|_| auth_error(AuthError::Invalid(vec![])))?;
    serde_json::from_slice(&bytes).map_err(|_| auth_error(AuthError::Invalid(vec![])))
}

pub async fn member_exists(
    State(app): State<Arc<AppCtx>>,
    Path((email, site_id)): Path<(String, u16)>,
) -> Response {
    match service::check_email(&app.state, site_id, &email).await {
        Ok(r) => {
            let status = match r.result {
                1 => StatusCode::OK,
                2 => StatusCode::BAD_REQUEST,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            };
            (status, Json(r)).into_response()
        }
        Err(e) => auth_error(e),
    }
}

pub async fn login(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    req: Request,
) -> Response {
    let body: LoginRequest = match json_body(req).await {
        Ok(b) => b,
        Err(res) => return res,
    };
    match service::login(&app.state, &client, &body, app::platform::state::now()).await {
        Ok(outcome) => {
            let res = Json(&outcome.response).into_response();
            match outcome.token {
                Some(t) => {
                    with_new_session(&app, session.token.as_deref(), &t, body.remember_me, res)
                        .await
                }
                None => res,
            }
        }
        Err(e) => auth_error(e),
    }
}

pub async fn web_validate(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
) -> Response {
    match service::web_validate(
        &app.state,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await
    {
        Ok(r) => Json(r).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "web validate failed");
            Json(WebValidateResponse {
                member: None,
                result: LoginResult::InvalidIdentifier,
            })
            .into_response()
        }
    }
}

pub async fn subscribe(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Client(client): Client,
    req: Request,
) -> Response {
    let body: SubscribeRequest = match json_body(req).await {
        Ok(b) => b,
        Err(res) => return res,
    };
    match service::subscribe(
        &app.state,
        &client,
        &body,
        &link_base(&ctx, body.site_id),
        app::platform::state::now(),
    )
    .await
    {
        Ok(r) => (StatusCode::CREATED, Json(r)).into_response(),
        Err(e) => auth_error(e),
    }
}

pub async fn activate(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    Json(body): Json<CypherRequest>,
) -> Response {
    match service::activate(
        &app.state,
        &client,
        body.site_id,
        &body.cypher,
        app::platform::state::now(),
    )
    .await
    {
        Ok(_) => Json(serde_json::json!({ "msgKey": "auth.activated" })).into_response(),
        Err(e) => auth_error(e),
    }
}

pub async fn recover_password(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Client(client): Client,
    Json(body): Json<RecoverPasswordRequest>,
) -> Response {
    match service::recover_password(
        &app.state,
        &client,
        &body,
        &link_base(&ctx, body.site_id),
        app::platform::state::now(),
    )
    .await
    {
        Ok(()) => Json(serde_json::json!({ "msgKey": "auth.recover.sent" })).into_response(),
        Err(e) => auth_error(e),
    }
}

pub async fn update_password(
    State(app): State<Arc<AppCtx>>,
    Client(client): Client,
    Json(body): Json<UpdatePasswordRequest>,
) -> Response {
    match service::update_password(&app.state, &client, &body, app::platform::state::now()).await {
        Ok(()) => Json(serde_json::json!({ "msgKey": "auth.password.updated" })).into_response(),
        Err(e) => auth_error(e),
    }
}

pub async fn autologin(
    State(app): State<Arc<AppCtx>>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    Json(body): Json<CypherRequest>,
) -> Response {
    match service::autologin(&app.state, &client, &body, app::platform::state::now()).await {
        Ok((token, r)) => {
            with_new_session(
                &app,
                session.token.as_deref(),
                &token,
                false,
                Json(r).into_response(),
            )
            .await
        }
        Err(AuthError::CypherInvalid) => (
            StatusCode::BAD_REQUEST,
            Json(AutologinResponse {
                result: LoginResult::InvalidIdentifier,
                redirect_url: "/".into(),
            }),
        )
            .into_response(),
        Err(e) => auth_error(e),
    }
}

pub async fn logout_api(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
) -> Response {
    if let Err(e) = service::logout(
        &app.state,
        &client,
        ctx.site_id,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await
    {
        return auth_error(e);
    }
    clear_session(&app, StatusCode::NO_CONTENT.into_response())
}

// ---------------------------------------------------------------- pages

/// `/authentication/logout/`: ends the session and goes home. A cross-site request (a link
/// or image on another site) does not end it: only same-site navigation does.
pub async fn logout_page(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    headers: HeaderMap,
) -> Response {
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("none");
    if !matches!(fetch_site, "same-origin" | "none") {
        return middleware::redirect("/");
    }
    if let Err(e) = service::logout(
        &app.state,
        &client,
        ctx.site_id,
        session.token.as_deref(),
        app::platform::state::now(),
    )
    .await
    {
        tracing::error!(error = %e, "logout failed");
    }
    clear_session(&app, see_other("/"))
}

/// Autologin link: success signs in and redirects (302) with the cookies; failure shows
/// the sign-in page normally (spec 000 §8).
pub async fn autologin_page(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let return_url = q.get("returnurl").or_else(|| q.get("ReturnUrl")).cloned();
    let body = CypherRequest {
        site_id: ctx.site_id,
        cypher: q.get("cypher").cloned().unwrap_or_default(),
        return_url: return_url.clone(),
    };
    match service::autologin(&app.state, &client, &body, app::platform::state::now()).await {
        Ok((token, r)) => {
            with_new_session(
                &app,
                session.token.as_deref(),
                &token,
                false,
                middleware::redirect(&r.redirect_url),
            )
            .await
        }
        Err(e) => {
            tracing::warn!(error = %e, "autologin failed");
            let back = format!(
                "/gr/authentication?returnurl={}",
                encode_query_value(&safe_return_url(return_url.as_deref()))
            );
            middleware::redirect(&back)
        }
    }
}

fn see_other(location: &str) -> Response {
    let mut res = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AuthForm {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    step: String,
    email: String,
    password: String,
    #[serde(rename = "rememberMe")]
    remember_me: Option<String>,
    returnurl: String,
    civility: Option<u8>,
    #[serde(rename = "firstName")]
    first_name: String,
    #[serde(rename = "lastName")]
    last_name: String,
    #[serde(rename = "birthDate")]
    birth_date: String,
    #[serde(rename = "zipCode")]
    zip_code: String,
    city: String,
    cgv: Option<String>,
    #[serde(rename = "privacyPolicy")]
    privacy_policy: Option<String>,
    #[serde(rename = "optinPartner")]
    optin_partner: Option<String>,
    #[serde(rename = "sponsorshipCode")]
    sponsorship_code: String,
    cypher: String,
    memberid: Option<i64>,
    #[serde(rename = "newPassword")]
    new_password: String,
}

/// One POST target for every step of the sign-in forms (Post/Redirect/Get).
pub async fn auth_form(
    State(app): State<Arc<AppCtx>>,
    Extension(ctx): Extension<RequestCtx>,
    Extension(session): Extension<SessionInfo>,
    Client(client): Client,
    headers: HeaderMap,
    Form(f): Form<AuthForm>,
) -> Response {
    let cookie_token = middleware::cookie(&headers, app::platform::csrf::COOKIE);
    if !app::platform::csrf::check(
        &app.state.settings.xsrf_secret,
        &session.binding,
        cookie_token,
        Some(&f.xsrf),
    ) {
        return middleware::forbidden_csrf();
    }
    let now = app::platform::state::now();
    let site = ctx.site_id;
    let s = site_suffix(&ctx, site);
    let email_q = encode_query_value(f.email.trim());
    let ret_q = encode_query_value(&safe_return_url(Some(&f.returnurl)));
    let page = |step: &str, extra: &str| {
        format!("/gr/authentication?step={step}&email={email_q}&returnurl={ret_q}{extra}{s}")
    };
    match f.step.as_str() {
        "email" => match service::check_email(&app.state, site, &f.email).await {
            Ok(r) if r.result == 2 => see_other(&page("password", "")),
            Ok(r) if r.result == 1 => see_other(&format!(
                "/gr/registration?step=register&email={email_q}&returnurl={ret_q}{s}"
            )),
            Ok(r) => see_other(&page(
                "email",
                &format!("&error={}", r.msg_key.unwrap_or_default()),
            )),
            Err(e) => see_other(&page("email", &format!("&error={}", e.message_key()))),
        },
        "password" => {
            let req = LoginRequest {
                email: f.email.clone(),
                password: f.password.clone(),
                remember_me: f.remember_me.is_some(),
                return_url: Some(f.returnurl.clone()),
                site_id: site,
            };
            match service::login(&app.state, &client, &req, now).await {
                Ok(outcome) => match outcome.token {
                    Some(t) => {
                        let target = outcome.response.redirect_url.unwrap_or_else(|| "/".into());
                        with_new_session(
                            &app,
                            session.token.as_deref(),
                            &t,
                            req.remember_me,
                            see_other(&target),
                        )
                        .await
                    }
                    None => see_other(&page(
                        "password",
                        &format!("&error={}", outcome.response.msg_key),
                    )),
                },
                Err(e) => see_other(&page("password", &format!("&error={}", e.message_key()))),
            }
        }
        "register" => {
            let req = SubscribeRequest {
                site_id: site,
                email: f.email.clone(),
                password: f.password.clone(),
                civility: f.civility,
                first_name: f.first_name.clone(),
                last_name: f.last_name.clone(),
                birth_date: f.birth_date.clone(),
                zip_code: f.zip_code.clone(),
                city: f.city.clone(),
                cgv: f.cgv.is_some(),
                privacy_policy: f.privacy_policy.is_some(),
                optin_partner: f.optin_partner.is_some(),
                sponsorship_code: f.sponsorship_code.clone(),
                return_url: Some(f.returnurl.clone()),
            };
            match service::subscribe(&app.state, &client, &req, &link_base(&ctx, site), now).await {
                Ok(_) => see_other(&format!("/gr/registration?step=done&email={email_q}{s}")),
                Err(e) => {
                    let (field, key) = match &e {
                        AuthError::Invalid(errs) if !errs.is_empty() => {
                            (errs[0].field.clone(), errs[0].message_key.clone())
                        }
                        _ => (String::new(), e.message_key().to_string()),
                    };
                    see_other(&format!(
                        "/gr/registration?step=register&email={email_q}&firstname={}&lastname={}&returnurl={ret_q}&field={field}&error={key}{s}",
                        encode_query_value(f.first_name.trim()),
                        encode_query_value(f.last_name.trim()),
                    ))
                }
            }
        }
        "activate" => match service::activate(&app.state, &client, site, &f.cypher, now).await {
            Ok(_) => see_other(&page("email", "&info=auth.activated")),
            Err(e) => see_other(&page("email", &format!("&error={}", e.message_key()))),
        },
        "recover" => {
            let req = RecoverPasswordRequest {
                email: f.email.clone(),
                site_id: site,
            };
            match service::recover_password(&app.state, &client, &req, &link_base(&ctx, site), now)
                .await
            {
                Ok(()) => see_other(&page("email", "&info=auth.recover.sent")),
                Err(e) => see_other(&page("recover", &format!("&error={}", e.message_key()))),
            }
        }
        "updatepassword" => {
            let req = UpdatePasswordRequest {
                site_id: site,
                cypher: f.cypher.clone(),
                member_id: f.memberid.unwrap_or(0),
                new_password: f.new_password.clone(),
            };
            match service::update_password(&app.state, &client, &req, now).await {
                Ok(()) => see_other(&page("email", "&info=auth.password.updated")),
                Err(e) => {
                    let key = match &e {
                        AuthError::Invalid(errs) if !errs.is_empty() => errs[0].message_key.clone(),
                        _ => e.message_key().to_string(),
                    };
                    see_other(&format!(
                        "/gr/authentication?updatepassword=1&cypher={}&memberid={}&error={key}{s}",
                        encode_query_value(&f.cypher),
                        f.memberid.unwrap_or(0)
                    ))
                }
            }
        }
        _ => see_other(&page("email", "")),
    }
}

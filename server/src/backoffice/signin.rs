//! Operator sign-in: email and password, then the second factor (a code of the
//! authenticator app, or a recovery code), then a fresh session. Refusals say what
//! happened without telling whether an email is an operator's; five failures in a row from
//! one address lock that address out of the account for 15 minutes (as for members); an
//! address gets 30 attempts per 10 minutes. The set-up link
//! (`server operators create-admin`, or an admin's invitation) chooses the password and
//! the second factor.
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::platform::session::new_token;
use app::platform::state::now;

use super::audit::{self, Actor, Entry};
use super::session::{self, equal};
use super::{store, text, totp, ui, PREFIX};
use crate::state::AppCtx;

pub const MAX_FAILURES: i64 = 5;
pub const LOCK_SECS: i64 = 15 * 60;
const IP_ATTEMPTS: i64 = 30;
const IP_WINDOW_SECS: i64 = 600;
pub const MIN_PASSWORD_CHARS: usize = 12;
const INVITE_SECS: i64 = 72 * 3600;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(
            &format!("{PREFIX}/signin"),
            get(signin_page).post(signin_form),
        )
        .route(
            &format!("{PREFIX}/signin/code"),
            get(code_page).post(code_form),
        )
        .route(&format!("{PREFIX}/signout"), post(signout))
        .route(
            &format!("{PREFIX}/setup/{{token}}"),
            get(setup_page).post(setup_form),
        )
}

/// Failed passwords and codes are counted per operator *and* client address, with the
/// members' lockout counters (`platform::ratelimit`): someone who knows an operator's email cannot lock
/// them out of their own desk.
fn lock_bucket(operator_id: i64, ip: &str) -> String {
    format!("oplock:{operator_id}:{ip}")
}

async fn locked(db: &app::platform::db::Db, operator_id: i64, ip: &str, at: i64) -> bool {
    app::platform::ratelimit::locked_until(db, &lock_bucket(operator_id, ip), MAX_FAILURES, at)
        .await
        .ok()
        .flatten()
        .is_some()
}

/// Counts a failure; true when it locks this address out of the account.
async fn fail(db: &app::platform::db::Db, operator_id: i64, ip: &str, at: i64) -> bool {
    app::platform::ratelimit::record_failure(
        db,
        &lock_bucket(operator_id, ip),
        MAX_FAILURES,
        LOCK_SECS,
        at,
    )
    .await
    .ok()
    .flatten()
    .is_some()
}

fn lang_of(headers: &HeaderMap) -> &'static str {
    text::from_accept_language(
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// Only this back office's own pages are a place to go back to after sign-in.
fn safe_next(next: &str) -> String {
    let ok = next.starts_with(&format!("{PREFIX}/"))
        && !next.starts_with("//")
        && !next.contains('\\')
        && !next.starts_with(&format!("{PREFIX}/signin"));
    if ok {
        next.to_string()
    } else {
        format!("{PREFIX}/")
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SigninQuery {
    next: String,
    expired: Option<String>,
    locked: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SigninFields {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    email: String,
    password: String,
    next: String,
}

fn signin_view(
    lang: &str,
    pre: &str,
    next: &str,
    email: &str,
    error: Option<&str>,
    status: StatusCode,
    notice: Option<String>,
) -> Response {
    let t = |k: &str| text::t(lang, k);
    let error = error
        .map(|e| view! { <p class="bo-error" role="alert" id="signin-error">{e.to_string()}</p> });
    let body = view! {
        {error}
        <form method="post" action=format!("{PREFIX}/signin") class="bo-form">
            <input type="hidden" name="_xsrf" value=pre.to_string() />
            <input type="hidden" name="next" value=next.to_string() />
            {ui::field(t("signin.email"), "email", view! { <input id="email" name="email" type="email" autocomplete="email" required value=email.to_string() /> }.into_any(), None)}
            {ui::field(t("signin.password"), "password", view! { <input id="password" name="password" type="password" autocomplete="current-password" required /> }.into_any(), None)}
            <button type="submit">{t("signin.submit")}</button>
        </form>
    }
    .into_any();
    ui::page(status, lang, None, t("signin.title"), notice, body)
}

pub async fn signin_page(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    Query(q): Query<SigninQuery>,
) -> Response {
    let lang = lang_of(&headers);
    let pre = session::pre_token(&headers).unwrap_or_else(new_token);
    let notice = if q.locked.is_some() {
        Some(text::t(lang, "signin.locked").to_string())
    } else {
        q.expired
            .map(|_| text::t(lang, "signin.expired").to_string())
    };
    let res = signin_view(lang, &pre, &q.next, "", None, StatusCode::OK, notice);
    ui::with_cookie(res, session::pre_cookie(&app, &pre))
}

pub async fn signin_form(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Response {
    let lang = lang_of(&headers);
    let (parts, body) = request.into_parts();
    let ip = session::client_ip(&app, &parts);
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let f: SigninFields = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    let Some(pre) = session::pre_token(&headers).filter(|p| equal(p, &f.xsrf)) else {
        let fresh = new_token();
        let res = signin_view(
            lang,
            &fresh,
            &f.next,
            &f.email,
            Some(text::t(lang, "signin.form_expired")),
            StatusCode::FORBIDDEN,
            None,
        );
        return ui::with_cookie(res, session::pre_cookie(&app, &fresh));
    };
    let db = &app.state.db;
    let at = now();
    let refuse = |key: &str, status: StatusCode| {
        signin_view(
            lang,
            &pre,
            &f.next,
            &f.email,
            Some(text::t(lang, key)),
            status,
            None,
        )
    };
    match app::platform::ratelimit::hit(
        db,
        &format!("bo-signin:{ip}"),
        IP_ATTEMPTS,
        IP_WINDOW_SECS,
        at,
    )
    .await
    {
        Ok(true) => {}
        Ok(false) => return refuse("signin.rate", StatusCode::TOO_MANY_REQUESTS),
        Err(e) => return ui::db_error(e),
    }
    let operator = match store::by_email(db, &f.email).await {
        Ok(o) => o.filter(|o| o.active && !o.password_hash.is_empty() && !o.totp_secret.is_empty()),
        Err(e) => return ui::db_error(e),
    };
    if let Some(o) = &operator {
        if locked(db, o.id, &ip, at).await {
            return refuse("signin.locked", StatusCode::TOO_MANY_REQUESTS);
        }
    }
    let good = app::platform::password::verify_async(
        &f.password,
        operator.as_ref().map(|o| o.password_hash.as_str()),
    )
    .await;
    let Some(operator) = operator.filter(|_| good) else {
        if let Some(o) = store::by_email(db, &f.email).await.ok().flatten() {
            fail(db, o.id, &ip, at).await;
        }
        tracing::info!(%ip, "back office: sign-in refused");
        return refuse("signin.refused", StatusCode::UNAUTHORIZED);
    };
    let token = new_token();
    if let Err(e) =
        store::insert_session(db, &token, operator.id, &new_token(), false, at, &ip).await
    {
        return ui::db_error(e);
    }
    let res = ui::see_other(&format!(
        "{PREFIX}/signin/code?next={}",
        app::routes::encode_query_value(&safe_next(&f.next))
    ));
    ui::with_cookie(res, session::session_cookie(&app, &token))
}

/// The session of the password step, waiting for its second factor.
async fn pending(app: &AppCtx, headers: &HeaderMap) -> Option<(String, store::SessionRow)> {
    let token = session::token(app, headers)?;
    let row = store::session(&app.state.db, &token).await.ok()??;
    let fresh = now() - row.created_at <= 10 * 60;
    (!row.second_factor && fresh).then_some((token, row))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CodeFields {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    code: String,
    recovery: String,
    next: String,
}

fn code_view(
    lang: &str,
    xsrf: &str,
    next: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Response {
    let t = |k: &str| text::t(lang, k);
    let error = error
        .map(|e| view! { <p class="bo-error" role="alert" id="code-error">{e.to_string()}</p> });
    let body = view! {
        {error}
        <form method="post" action=format!("{PREFIX}/signin/code")>
            <input type="hidden" name="_xsrf" value=xsrf.to_string() />
            <input type="hidden" name="next" value=next.to_string() />
            {ui::field(t("totp.code"), "code", view! { <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" /> }.into_any(), None)}
            {ui::field(t("totp.recovery"), "recovery", view! { <input id="recovery" name="recovery" autocomplete="off" maxlength="20" /> }.into_any(), None)}
            <button type="submit">{t("signin.submit")}</button>
        </form>
    }
    .into_any();
    ui::page(status, lang, None, t("totp.title"), None, body)
}

pub async fn code_page(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    Query(q): Query<SigninQuery>,
) -> Response {
    let lang = lang_of(&headers);
    match pending(&app, &headers).await {
        Some((_, row)) => code_view(lang, &row.xsrf, &q.next, None, StatusCode::OK),
        None => ui::see_other(&format!("{PREFIX}/signin?expired=1")),
    }
}

pub async fn code_form(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Response {
    let lang = lang_of(&headers);
    let (parts, body) = request.into_parts();
    let ip = session::client_ip(&app, &parts);
    let Some((token, row)) = pending(&app, &headers).await else {
        return ui::see_other(&format!("{PREFIX}/signin?expired=1"));
    };
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let f: CodeFields = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    if !equal(&f.xsrf, &row.xsrf) {
        return code_view(
            lang,
            &row.xsrf,
            &f.next,
            Some(text::t(lang, "signin.form_expired")),
            StatusCode::FORBIDDEN,
        );
    }
    let db = &app.state.db;
    let at = now();
    match app::platform::ratelimit::hit(
        db,
        &format!("bo-signin:{ip}"),
        IP_ATTEMPTS,
        IP_WINDOW_SECS,
        at,
    )
    .await
    {
        Ok(true) => {}
        Ok(false) => {
            return code_view(
                lang,
                &row.xsrf,
                &f.next,
                Some(text::t(lang, "signin.rate")),
                StatusCode::TOO_MANY_REQUESTS,
            )
        }
        Err(e) => return ui::db_error(e),
    }
    let operator = match store::by_id(db, row.operator_id).await {
        Ok(Some(o)) if o.active && !locked(db, o.id, &ip, at).await => o,
        Ok(_) => {
            let _ = store::delete_session(db, &token).await;
            return ui::see_other(&format!("{PREFIX}/signin?locked=1"));
        }
        Err(e) => return ui::db_error(e),
    };
    let good = if !f.code.trim().is_empty() {
        match totp::matching_step(
            &operator.totp_secret,
            &f.code,
            at as u64,
            operator.totp_last_step.max(0) as u64,
        ) {
            Some(step) => store::accept_step(db, operator.id, step as i64)
                .await
                .unwrap_or(false),
            None => false,
        }
    } else if !f.recovery.trim().is_empty() {
        store::use_recovery_code(
            db,
            operator.id,
            &totp::normalise_recovery_code(&f.recovery),
            at,
        )
        .await
        .unwrap_or(false)
    } else {
        false
    };
    if !good {
        if fail(db, operator.id, &ip, at).await {
            let _ = store::delete_session(db, &token).await;
            return ui::see_other(&format!("{PREFIX}/signin?locked=1"));
        }
        return code_view(
            lang,
            &row.xsrf,
            &f.next,
            Some(text::t(lang, "totp.refused")),
            StatusCode::UNAUTHORIZED,
        );
    }
    let _ = app::platform::ratelimit::reset_failures(db, &lock_bucket(operator.id, &ip)).await;
    // A new token for the signed-in session: the one the password step set is gone.
    let _ = store::delete_session(db, &token).await;
    let fresh = new_token();
    if let Err(e) =
        store::insert_session(db, &fresh, operator.id, &new_token(), true, at, &ip).await
    {
        return ui::db_error(e);
    }
    let actor = Actor {
        operator_id: Some(operator.id),
        email: operator.email.clone(),
        ip,
    };
    let how = if f.code.trim().is_empty() {
        "recovery code"
    } else {
        "authenticator code"
    };
    if let Ok(mut tx) = db.begin().await {
        let entry = Entry {
            action: "signin",
            object_kind: "operator",
            object_id: operator.id.to_string(),
            summary: format!("signed in with a password and an {how}"),
        };
        if audit::record(&mut tx, &actor, entry, at).await.is_ok() {
            let _ = tx.commit().await;
        }
    }
    ui::with_cookie(
        ui::see_other(&safe_next(&f.next)),
        session::session_cookie(&app, &fresh),
    )
}

pub async fn signout(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Response {
    let (_, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, 16 * 1024)
        .await
        .unwrap_or_default();
    let f: CodeFields = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    if let Some(token) = session::token(&app, &headers) {
        if let Ok(Some(row)) = store::session(&app.state.db, &token).await {
            if !equal(&row.xsrf, &f.xsrf) {
                return ui::message_page(
                    lang_of(&headers),
                    None,
                    StatusCode::FORBIDDEN,
                    text::t(lang_of(&headers), "signin.form_expired"),
                );
            }
            let _ = store::delete_session(&app.state.db, &token).await;
        }
    }
    ui::with_cookie(
        ui::see_other(&format!("{PREFIX}/signin")),
        session::clear_cookie(&app),
    )
}

// ------------------------------------------------------------------ set-up links

/// Makes a one-time set-up link for `operator_id`, good for 72 hours; the link's path.
pub async fn new_setup_link(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    operator_id: i64,
    at: i64,
) -> Result<String, sqlx::Error> {
    let token = new_token();
    store::insert_invite(tx, operator_id, &token, at + INVITE_SECS).await?;
    Ok(format!("{PREFIX}/setup/{token}"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SetupFields {
    #[serde(rename = "_xsrf")]
    xsrf: String,
    password: String,
    secret: String,
    code: String,
}

#[allow(clippy::too_many_arguments)]
fn setup_view(
    lang: &str,
    pre: &str,
    email: &str,
    secret: &str,
    password_error: Option<&str>,
    code_error: Option<&str>,
    status: StatusCode,
) -> Response {
    let t = |k: &str| text::t(lang, k);
    let uri = totp::otpauth_uri(secret, email);
    let has_errors = password_error.is_some() || code_error.is_some();
    let summary =
        has_errors.then(|| view! { <p class="bo-error" role="alert">{t("form.errors")}</p> });
    let body = view! {
        {summary}
        <p>{email.to_string()}</p>
        <form method="post">
            <input type="hidden" name="_xsrf" value=pre.to_string() />
            <input type="hidden" name="secret" value=secret.to_string() />
            {ui::field(t("signin.password"), "password", view! {
                <input id="password" name="password" type="password" autocomplete="new-password" required minlength="12"
                    aria-invalid=password_error.map(|_| "true") aria-describedby=password_error.map(|_| "err-password") />
                <p class="bo-hint">{t("setup.password_rule")}</p>
            }.into_any(), password_error)}
            <p>{t("setup.secret")}</p>
            <p class="bo-secret" id="totp-secret">{secret.to_string()}</p>
            <p><a href=uri>{t("setup.link")}</a></p>
            {ui::field(t("totp.code"), "code", view! {
                <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="7"
                    aria-invalid=code_error.map(|_| "true") aria-describedby=code_error.map(|_| "err-code") />
            }.into_any(), code_error)}
            <button type="submit">{t("setup.continue")}</button>
        </form>
    }
    .into_any();
    ui::page(status, lang, None, t("setup.title"), None, body)
}

async fn invited(app: &AppCtx, token: &str) -> Option<store::OperatorRow> {
    let id = store::invite(&app.state.db, token, now()).await.ok()??;
    store::by_id(&app.state.db, id)
        .await
        .ok()?
        .filter(|o| o.active)
}

pub async fn setup_page(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Response {
    let Some(operator) = invited(&app, &token).await else {
        let lang = lang_of(&headers);
        return ui::message_page(
            lang,
            None,
            StatusCode::NOT_FOUND,
            text::t(lang, "setup.invalid"),
        );
    };
    let pre = session::pre_token(&headers).unwrap_or_else(new_token);
    let res = setup_view(
        &operator.lang,
        &pre,
        &operator.email,
        &totp::new_secret(),
        None,
        None,
        StatusCode::OK,
    );
    ui::with_cookie(res, session::pre_cookie(&app, &pre))
}

pub async fn setup_form(
    State(app): State<Arc<AppCtx>>,
    headers: HeaderMap,
    Path(token): Path<String>,
    request: axum::extract::Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let ip = session::client_ip(&app, &parts);
    let Some(operator) = invited(&app, &token).await else {
        let lang = lang_of(&headers);
        return ui::message_page(
            lang,
            None,
            StatusCode::NOT_FOUND,
            text::t(lang, "setup.invalid"),
        );
    };
    let lang = operator.lang.clone();
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let f: SetupFields = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    let secret_ok = f.secret.len() == 32
        && f.secret
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b));
    let secret = if secret_ok {
        f.secret.clone()
    } else {
        totp::new_secret()
    };
    let Some(pre) = session::pre_token(&headers).filter(|p| equal(p, &f.xsrf)) else {
        let fresh = new_token();
        let res = setup_view(
            &lang,
            &fresh,
            &operator.email,
            &secret,
            None,
            Some(text::t(&lang, "signin.form_expired")),
            StatusCode::FORBIDDEN,
        );
        return ui::with_cookie(res, session::pre_cookie(&app, &fresh));
    };
    let at = now();
    let password_error = (f.password.chars().count() < MIN_PASSWORD_CHARS
        || f.password.len() > 1024)
        .then(|| text::t(&lang, "setup.password_short"));
    let step = secret_ok
        .then(|| totp::matching_step(&secret, &f.code, at as u64, 0))
        .flatten();
    let code_error = step.is_none().then(|| text::t(&lang, "totp.refused"));
    if password_error.is_some() || code_error.is_some() {
        return setup_view(
            &lang,
            &pre,
            &operator.email,
            &secret,
            password_error,
            code_error,
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    }
    let Ok(hash) = app::platform::password::hash_async(&f.password).await else {
        return ui::db_error(sqlx::Error::PoolClosed);
    };
    let codes = totp::new_recovery_codes();
    let result: Result<bool, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        if !store::use_invite(&mut tx, &token, at).await? {
            return Ok(false);
        }
        store::set_credentials(
            &mut tx,
            operator.id,
            &hash,
            &secret,
            step.unwrap_or(0) as i64,
            &codes,
        )
        .await?;
        let actor = Actor {
            operator_id: Some(operator.id),
            email: operator.email.clone(),
            ip,
        };
        let entry = Entry {
            action: "setup",
            object_kind: "operator",
            object_id: operator.id.to_string(),
            summary: "chose a password and a second factor".into(),
        };
        audit::record(&mut tx, &actor, entry, at).await?;
        tx.commit().await?;
        Ok(true)
    }
    .await;
    match result {
        Ok(true) => {}
        Ok(false) => {
            return ui::message_page(
                &lang,
                None,
                StatusCode::NOT_FOUND,
                text::t(&lang, "setup.invalid"),
            )
        }
        Err(e) => return ui::db_error(e),
    }
    let t = |k: &str| text::t(&lang, k);
    let body = view! {
        <p class="bo-notice" role="status">{t("setup.done")}</p>
        <ul class="bo-codes" id="recovery-codes">{codes.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul>
        <p><a class="bo-button" href=format!("{PREFIX}/signin")>{t("setup.continue")}</a></p>
    }
    .into_any();
    ui::page(StatusCode::OK, &lang, None, t("setup.title"), None, body)
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn sign_in_only_goes_back_to_the_back_office() {
        assert_eq!(safe_next("/backoffice/sales?q=x"), "/backoffice/sales?q=x");
        for bad in [
            "https://evil.test/",
            "//evil.test",
            "/backoffice\\..",
            "/account",
            "/backoffice/signin/code",
            "",
        ] {
            assert_eq!(safe_next(bad), "/backoffice/", "{bad}");
        }
    }
}

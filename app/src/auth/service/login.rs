//! The email check, sign-in (with lockout and rate limit) and the web validation.
use crate::auth::error::AuthError;
use crate::auth::rules::{self, LoginFacts, LoginResult, MemberStatus};
use crate::auth::settings::AuthSettings;
use crate::auth::store::{self};
use crate::model::auth::*;
use crate::platform::session;
use crate::platform::state::AppState;
use crate::text::email::is_valid_email;

pub(super) fn field(field: &str, key: &str) -> FieldError {
    FieldError {
        field: field.into(),
        message_key: key.into(),
    }
}

pub fn normalize_email(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

/// Member-exists check: 1 unknown (go register), 2 known (go sign in), 3 invalid format.
/// The spec's email-first flow tells whether an email has an account by design; the
/// per-client limit keeps that from being a list-every-member service (review M2).
pub async fn check_email(
    state: &AppState,
    settings: &AuthSettings,
    client: &str,
    site_id: u16,
    email: &str,
    now: i64,
) -> Result<EmailCheckResponse, AuthError> {
    if !crate::platform::ratelimit::hit(
        &state.db,
        &format!("exists:{client}"),
        settings.exists_rate_limit,
        settings.login_rate_window_secs,
        now,
    )
    .await?
    {
        return Err(AuthError::TooManyRequests);
    }
    let email = normalize_email(email);
    if !is_valid_email(&email) {
        return Ok(EmailCheckResponse {
            result: 3,
            msg_key: Some("auth.email.invalid".into()),
        });
    }
    let known = store::member_by_email(&state.db, site_id, &email)
        .await?
        .is_some();
    Ok(if known {
        EmailCheckResponse {
            result: 2,
            msg_key: None,
        }
    } else {
        EmailCheckResponse {
            result: 1,
            msg_key: None,
        }
    })
}

/// What a password sign-in needs beyond the request: its tunables, and the mail settings
/// for the notice when an account's failures reach the ceiling.
#[derive(Clone, Copy)]
pub struct SignIn<'a> {
    pub settings: &'a AuthSettings,
    pub mail: &'a crate::platform::mail::MailSettings,
}

pub struct LoginOutcome {
    pub response: LoginResponse,
    /// The new session token on success (the caller sets the cookie).
    pub token: Option<String>,
}

/// Login with the spec's result codes, per-account lockout and a per-client flood limit.
pub async fn login(
    state: &AppState,
    sign_in: SignIn<'_>,
    client: &str,
    req: &LoginRequest,
    now: i64,
) -> Result<LoginOutcome, AuthError> {
    let s = sign_in.settings;
    let hits = crate::platform::ratelimit::count(
        &state.db,
        &format!("login:{client}"),
        s.login_rate_window_secs,
        now,
    )
    .await?;
    if hits > s.login_rate_limit {
        // Logged once per client and window, not on every refused request (the log would
        // otherwise grow as fast as a flood).
        if hits == s.login_rate_limit + 1 {
            store::event(&state.db, req.site_id, None, "login_flood", client, "", now).await;
        }
        return Err(AuthError::TooManyRequests);
    }
    // A password longer than any the rules accept is refused before any hashing: argon2
    // would otherwise be fed whatever the body limit lets through (review M3).
    if req.password.len() > rules::LOGIN_PASSWORD_MAX_BYTES {
        return Err(AuthError::Invalid(vec![field(
            "password",
            "auth.password.too_long",
        )]));
    }
    let email = normalize_email(&req.email);
    let member = store::member_by_email(&state.db, req.site_id, &email).await?;
    // The lock is this client's on this account (see `store::record_failure`), or the
    // pause of every client once the account's failures reached the ceiling (review N8).
    let mut locked_until = match &member {
        Some(m) => {
            let mine =
                store::locked_until(&state.db, m.id, client, s.lockout_threshold, now).await?;
            let all = store::account_paused_until(&state.db, m.id, s.account_failure_ceiling, now)
                .await?;
            mine.max(all)
        }
        None => None,
    };
    let locked = locked_until.is_some();
    // Unknown emails are checked against a dummy hash: the same work, so timing does not
    // tell which emails exist.
    let password_ok = match &member {
        Some(m) if !locked => {
            crate::platform::password::verify_async(&req.password, Some(&m.password_hash)).await
        }
        Some(_) => false,
        None => crate::platform::password::verify_async(&req.password, None).await,
    };
    let result = rules::login_outcome(LoginFacts {
        member_found: member.is_some(),
        status: member
            .as_ref()
            .map(|m| m.status)
            .unwrap_or(MemberStatus::Active),
        locked,
        password_ok,
    });
    let member_id = member.as_ref().map(|m| m.id);
    let mut token = None;
    match (result, &member) {
        (LoginResult::InvalidPassword, Some(m)) => {
            let lock = store::record_failure(
                &state.db,
                m.id,
                client,
                s.lockout_threshold,
                s.lockout_secs,
                now,
            )
            .await?;
            let pause = store::record_account_failure(
                &state.db,
                m.id,
                s.account_failure_ceiling,
                s.account_ceiling_secs,
                now,
            )
            .await?;
            locked_until = locked_until.max(pause.as_ref().map(|p| p.until));
            if pause.is_some_and(|p| p.reached_now) {
                store::event(
                    &state.db,
                    req.site_id,
                    member_id,
                    "account_ceiling",
                    client,
                    "",
                    now,
                )
                .await;
                ceiling_notice(sign_in.mail, m, &email, now).await;
            }
            if lock.is_some() {
                locked_until = locked_until.max(lock);
                store::event(
                    &state.db,
                    req.site_id,
                    member_id,
                    "account_locked",
                    client,
                    "",
                    now,
                )
                .await;
            }
        }
        (LoginResult::Success, Some(m)) => {
            store::reset_failures(&state.db, m.id, client).await?;
            token = Some(session::create(&state.db, m.id, req.remember_me, now).await?);
        }
        _ => {}
    }
    // A lock reached by this very attempt is reported as such.
    let result = if result == LoginResult::InvalidPassword && locked_until.is_some() {
        LoginResult::Locked
    } else {
        result
    };
    store::event(
        &state.db,
        req.site_id,
        member_id,
        "login",
        client,
        &format!("result={}", result as u8),
        now,
    )
    .await;
    let redirect_url =
        (result == LoginResult::Success).then(|| rules::safe_return_url(req.return_url.as_deref()));
    Ok(LoginOutcome {
        response: LoginResponse {
            result,
            msg_key: result.message_key().into(),
            redirect_url,
            locked_until,
        },
        token,
    })
}

/// Tells the member that password sign-in to their account is paused after many wrong
/// passwords from many places, and how to get in meanwhile (a new password by email ends
/// the pause). Sent once per pause: while paused, no password is checked or counted.
async fn ceiling_notice(
    mail: &crate::platform::mail::MailSettings,
    m: &store::MemberRow,
    email: &str,
    now: i64,
) {
    let lang = crate::site::i18n::lang_of(crate::site::by_id_or_default(m.site_id).locale);
    super::register::send(
        mail,
        email,
        &crate::site::i18n::t(lang, "mail.account_ceiling.subject"),
        &crate::site::i18n::t_with(
            lang,
            "mail.account_ceiling.body",
            &[("name", &m.first_name)],
        ),
        now,
    )
    .await;
}

/// Web validate (spec 000 §5): the member of the session, or invalid identifier.
pub async fn web_validate(
    state: &AppState,
    token: Option<&str>,
    now: i64,
) -> Result<WebValidateResponse, AuthError> {
    let found = match token {
        Some(t) => session::member_for_token(&state.db, t, now).await?,
        None => None,
    };
    let result = rules::web_validate_outcome(
        found.as_ref().map(|_| LoginResult::Success),
        found.as_ref().map(|m| m.member_id),
    );
    Ok(WebValidateResponse {
        member: found.map(|m| MemberSummary {
            member_id: m.member_id,
            first_name: m.first_name,
            site_id: m.site_id,
        }),
        result,
    })
}

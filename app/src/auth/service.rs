//! Sign-in operations: each one checks its input, then does its writes in one place.
use crate::auth::error::AuthError;
use crate::auth::rules::{self, LoginFacts, LoginResult, MemberStatus, Visibility};
use crate::auth::store::{self, NewMember};
use crate::model::auth::*;
use crate::platform::mail::{self, Mail};
use crate::platform::session;
use crate::platform::state::AppState;
use crate::site;
use crate::text::email::is_valid_email;

fn field(field: &str, key: &str) -> FieldError {
    FieldError {
        field: field.into(),
        message_key: key.into(),
    }
}

pub fn normalize_email(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

/// Member-exists check: 1 unknown (go register), 2 known (go sign in), 3 invalid format.
pub async fn check_email(
    state: &AppState,
    site_id: u16,
    email: &str,
) -> Result<EmailCheckResponse, AuthError> {
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

pub struct LoginOutcome {
    pub response: LoginResponse,
    /// The new session token on success (the caller sets the cookie).
    pub token: Option<String>,
}

/// Login with the spec's result codes, per-account lockout and a per-client flood limit.
pub async fn login(
    state: &AppState,
    client: &str,
    req: &LoginRequest,
    now: i64,
) -> Result<LoginOutcome, AuthError> {
    let s = &state.settings;
    if !crate::platform::ratelimit::hit(
        &state.db,
        &format!("login:{client}"),
        s.login_rate_limit,
        s.login_rate_window_secs,
        now,
    )
    .await?
    {
        store::event(&state.db, req.site_id, None, "login_flood", client, "", now).await;
        return Err(AuthError::TooManyRequests);
    }
    let email = normalize_email(&req.email);
    let member = store::member_by_email(&state.db, req.site_id, &email).await?;
    let locked = member.as_ref().is_some_and(|m| m.locked_until > now);
    let password_ok = match &member {
        Some(m) if !locked => crate::platform::password::verify(&req.password, &m.password_hash),
        Some(_) => false,
        None => {
            // Same work for unknown emails, so timing does not tell which emails exist.
            let _ = crate::platform::password::verify(&req.password, &DUMMY_HASH);
            false
        }
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
    let mut locked_until = member
        .as_ref()
        .filter(|m| m.locked_until > now)
        .map(|m| m.locked_until);
    let mut token = None;
    match (result, &member) {
        (LoginResult::InvalidPassword, Some(m)) => {
            store::record_failure(&state.db, m.id, s.lockout_threshold, now + s.lockout_secs)
                .await?;
            if m.failed_logins + 1 >= s.lockout_threshold {
                locked_until = Some(now + s.lockout_secs);
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
            store::reset_failures(&state.db, m.id).await?;
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

/// A real argon2id hash, verified against when the email is unknown.
static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    crate::platform::password::hash(&session::new_token()).unwrap_or_default()
});

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

fn validate_registration(req: &SubscribeRequest) -> Vec<FieldError> {
    let cfg = rules::registration_fields(req.site_id);
    let mut errors = Vec::new();
    if site::by_id(req.site_id).is_none() {
        errors.push(field("siteId", "auth.error.invalid"));
    }
    if !is_valid_email(&normalize_email(&req.email)) {
        errors.push(field("email", "auth.email.invalid"));
    }
    if let Some(key) = rules::password_problem(&req.password) {
        errors.push(field("password", key));
    }
    let required = |v: Visibility| v == Visibility::Mandatory;
    match req.civility {
        Some(0..=2) => {}
        Some(_) => errors.push(field("civility", "auth.error.invalid")),
        None if required(cfg.civility) => errors.push(field("civility", "auth.error.required")),
        None => {}
    }
    for (name, value, vis) in [
        ("firstName", &req.first_name, cfg.first_name),
        ("lastName", &req.last_name, cfg.last_name),
    ] {
        if value.trim().is_empty() {
            if required(vis) {
                errors.push(field(name, "auth.error.required"));
            }
        } else if !rules::is_valid_name(value) {
            errors.push(field(name, "auth.name.invalid"));
        }
    }
    if req.birth_date.trim().is_empty() {
        if required(cfg.birth_date) {
            errors.push(field("birthDate", "auth.error.required"));
        }
    } else if rules::parse_birth_date(&req.birth_date).is_none() {
        errors.push(field("birthDate", "auth.birthdate.invalid"));
    }
    if !req.zip_code.trim().is_empty() && !rules::is_valid_zip_code(req.site_id, &req.zip_code) {
        errors.push(field("zipCode", "auth.zipcode.invalid"));
    }
    if required(cfg.zip_code_and_city)
        && (req.zip_code.trim().is_empty() || req.city.trim().is_empty())
    {
        errors.push(field("zipCode", "auth.error.required"));
    }
    if !req.cgv {
        errors.push(field("cgv", "auth.cgv.required"));
    }
    if !req.privacy_policy {
        errors.push(field("privacyPolicy", "auth.privacy.required"));
    }
    errors
}

fn new_cypher() -> (String, String) {
    let c = session::new_token();
    let h = session::hash_token(&c);
    (c, h)
}

/// Registration: stores a not-yet-activated member and sends the activation email.
pub async fn subscribe(
    state: &AppState,
    client: &str,
    req: &SubscribeRequest,
    link_base: &str,
    now: i64,
) -> Result<SubscribeResponse, AuthError> {
    let errors = validate_registration(req);
    if !errors.is_empty() {
        return Err(AuthError::Invalid(errors));
    }
    let email = normalize_email(&req.email);
    let hash = crate::platform::password::hash(&req.password)
        .map_err(|e| AuthError::Internal(e.to_string()))?;
    let birth =
        rules::parse_birth_date(&req.birth_date).map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    let mut tx = state.db.pool.begin().await?;
    let member = NewMember {
        site_id: req.site_id,
        email: &email,
        password_hash: &hash,
        civility: i64::from(req.civility.unwrap_or(0)),
        first_name: req.first_name.trim(),
        last_name: req.last_name.trim(),
        birth_date: birth,
        zip_code: req.zip_code.trim(),
        city: req.city.trim(),
        optin_partner: req.optin_partner,
        sponsor_code: req.sponsorship_code.trim(),
    };
    let Some(member_id) = store::insert_member(&mut tx, &member, now).await? else {
        return Err(AuthError::Invalid(vec![field("email", "auth.email.taken")]));
    };
    let (cypher, cypher_hash) = new_cypher();
    store::insert_cypher(
        &mut tx,
        member_id,
        "activation",
        &cypher_hash,
        now,
        now + state.settings.cypher_ttl_secs,
    )
    .await?;
    tx.commit().await?;
    let lang = site::i18n::lang_of(site::by_id_or_default(req.site_id).locale);
    let link = format!("{link_base}/gr/authentication?signin=activate&cypher={cypher}");
    send(
        state,
        &email,
        &site::i18n::t(lang, "mail.activation.subject"),
        &site::i18n::t_with(
            lang,
            "mail.activation.body",
            &[("link", &link), ("name", req.first_name.trim())],
        ),
        now,
    )
    .await;
    store::event(
        &state.db,
        req.site_id,
        Some(member_id),
        "subscribe",
        client,
        "",
        now,
    )
    .await;
    Ok(SubscribeResponse {
        member_id,
        msg_key: "auth.register.check_email".into(),
    })
}

async fn send(state: &AppState, to: &str, subject: &str, body: &str, now: i64) {
    let mail = Mail {
        to: to.into(),
        subject: subject.into(),
        body: body.into(),
    };
    let s = &state.settings;
    match mail::send(&s.outbox_dir, s.smtp_url.as_deref(), &mail, now).await {
        Ok(target) => tracing::info!(%target, "email sent"),
        Err(e) => tracing::error!(error = %e, "cannot send email"),
    }
}

/// Activates an account from the emailed cypher (single use).
pub async fn activate(
    state: &AppState,
    client: &str,
    site_id: u16,
    cypher: &str,
    now: i64,
) -> Result<i64, AuthError> {
    let mut tx = state.db.pool.begin().await?;
    let Some(member_id) = store::consume_cypher(
        &mut tx,
        &session::hash_token(cypher.trim()),
        "activation",
        now,
    )
    .await?
    else {
        return Err(AuthError::CypherInvalid);
    };
    sqlx::query("UPDATE members SET status = 1 WHERE id = $1 AND status = 0")
        .bind(member_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    store::event(
        &state.db,
        site_id,
        Some(member_id),
        "activate",
        client,
        "",
        now,
    )
    .await;
    Ok(member_id)
}

/// Sends a recovery link when the email is a member's; answers the same either way.
pub async fn recover_password(
    state: &AppState,
    client: &str,
    req: &RecoverPasswordRequest,
    link_base: &str,
    now: i64,
) -> Result<(), AuthError> {
    let email = normalize_email(&req.email);
    if !is_valid_email(&email) {
        return Err(AuthError::Invalid(vec![field(
            "email",
            "auth.email.invalid",
        )]));
    }
    let s = &state.settings;
    if !crate::platform::ratelimit::hit(
        &state.db,
        &format!("recover:{client}"),
        s.login_rate_limit,
        s.login_rate_window_secs,
        now,
    )
    .await?
    {
        return Err(AuthError::TooManyRequests);
    }
    if let Some(m) = store::member_by_email(&state.db, req.site_id, &email).await? {
        let (cypher, cypher_hash) = new_cypher();
        let mut tx = state.db.pool.begin().await?;
        store::insert_cypher(&mut tx, m.id, "recovery", &cypher_hash, now, now + 3600).await?;
        tx.commit().await?;
        let lang = site::i18n::lang_of(site::by_id_or_default(req.site_id).locale);
        let link = format!(
            "{link_base}/gr/authentication?updatepassword=1&cypher={cypher}&memberid={}",
            m.id
        );
        send(
            state,
            &email,
            &site::i18n::t(lang, "mail.recovery.subject"),
            &site::i18n::t_with(
                lang,
                "mail.recovery.body",
                &[("link", &link), ("name", &m.first_name)],
            ),
            now,
        )
        .await;
        store::event(
            &state.db,
            req.site_id,
            Some(m.id),
            "recover_password",
            client,
            "",
            now,
        )
        .await;
    }
    Ok(())
}

/// Sets a new password with a recovery cypher, once; ends the member's other sessions.
pub async fn update_password(
    state: &AppState,
    client: &str,
    req: &UpdatePasswordRequest,
    now: i64,
) -> Result<(), AuthError> {
    if let Some(key) = rules::password_problem(&req.new_password) {
        return Err(AuthError::Invalid(vec![field("newPassword", key)]));
    }
    let hash = crate::platform::password::hash(&req.new_password)
        .map_err(|e| AuthError::Internal(e.to_string()))?;
    let mut tx = state.db.pool.begin().await?;
    match store::consume_cypher(
        &mut tx,
        &session::hash_token(req.cypher.trim()),
        "recovery",
        now,
    )
    .await?
    {
        Some(member_id) if member_id == req.member_id => {}
        _ => return Err(AuthError::CypherInvalid),
    }
    sqlx::query(
        "UPDATE members SET password_hash = $1, failed_logins = 0, locked_until = 0 WHERE id = $2",
    )
    .bind(&hash)
    .bind(req.member_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM sessions WHERE member_id = $1")
        .bind(req.member_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    store::event(
        &state.db,
        req.site_id,
        Some(req.member_id),
        "update_password",
        client,
        "",
        now,
    )
    .await;
    Ok(())
}

/// Issues a single-use autologin cypher for a member (for links in emails).
pub async fn issue_autologin(
    state: &AppState,
    member_id: i64,
    now: i64,
) -> Result<String, AuthError> {
    let (cypher, cypher_hash) = new_cypher();
    let mut tx = state.db.pool.begin().await?;
    store::insert_cypher(
        &mut tx,
        member_id,
        "autologin",
        &cypher_hash,
        now,
        now + state.settings.cypher_ttl_secs,
    )
    .await?;
    tx.commit().await?;
    Ok(cypher)
}

/// Autologin: a valid cypher opens a session and names where to go.
pub async fn autologin(
    state: &AppState,
    client: &str,
    req: &CypherRequest,
    now: i64,
) -> Result<(String, AutologinResponse), AuthError> {
    let mut tx = state.db.pool.begin().await?;
    let Some(member_id) = store::consume_cypher(
        &mut tx,
        &session::hash_token(req.cypher.trim()),
        "autologin",
        now,
    )
    .await?
    else {
        return Err(AuthError::CypherInvalid);
    };
    tx.commit().await?;
    let member = store::member_by_id(&state.db, member_id)
        .await?
        .ok_or(AuthError::CypherInvalid)?;
    if member.status != MemberStatus::Active || member.site_id != req.site_id {
        return Err(AuthError::CypherInvalid);
    }
    let token = session::create(&state.db, member_id, false, now).await?;
    store::event(
        &state.db,
        req.site_id,
        Some(member_id),
        "autologin",
        client,
        "",
        now,
    )
    .await;
    let redirect_url = rules::safe_return_url(req.return_url.as_deref());
    Ok((
        token,
        AutologinResponse {
            result: LoginResult::Success,
            redirect_url,
        },
    ))
}

pub async fn logout(
    state: &AppState,
    client: &str,
    site_id: u16,
    token: Option<&str>,
    now: i64,
) -> Result<(), AuthError> {
    if let Some(t) = token {
        let member = session::member_for_token(&state.db, t, now).await?;
        session::delete(&state.db, t).await?;
        store::event(
            &state.db,
            site_id,
            member.map(|m| m.member_id),
            "logout",
            client,
            "",
            now,
        )
        .await;
    }
    Ok(())
}

//! Password recovery, password change, autologin links and logout.
use super::*;
use crate::auth::error::AuthError;
use crate::auth::rules::{self, LoginResult, MemberStatus};
use crate::auth::settings::AuthSettings;
use crate::auth::store::{self};
use crate::model::auth::*;
use crate::platform::mail::MailSettings;
use crate::platform::session;
use crate::platform::state::AppState;
use crate::site;
use crate::text::email::is_valid_email;

/// Sends a recovery link when the email is a member's; answers the same either way.
pub async fn recover_password(
    state: &AppState,
    settings: &AuthSettings,
    mail: &MailSettings,
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
    let s = settings;
    super::throttle(
        state,
        &format!("recover:{client}"),
        s.login_rate_limit,
        s.login_rate_window_secs,
        now,
    )
    .await?;
    // Per target address too: recovery mails cannot flood one inbox from many addresses.
    // (The answer is the same 429 for members and strangers, so it tells nothing.)
    super::throttle(
        state,
        &super::mail_bucket(req.site_id, &email),
        s.email_rate_limit,
        s.email_rate_window_secs,
        now,
    )
    .await?;
    if let Some(m) = store::member_by_email(&state.db, req.site_id, &email).await? {
        let (cypher, cypher_hash) = new_cypher();
        let mut tx = state.db.begin().await?;
        store::insert_cypher(&mut tx, m.id, "recovery", &cypher_hash, now, now + 3600).await?;
        tx.commit().await?;
        let lang = site::i18n::lang_of(site::by_id_or_default(req.site_id).locale);
        let link = format!(
            "{link_base}/gr/authentication?updatepassword=1&cypher={cypher}&memberid={}",
            m.id
        );
        send(
            mail,
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

/// Sets a new password with a recovery cypher, once; ends the member's sessions and, in
/// the same transaction, uses up every other recovery and autologin link still out, so a
/// link an attacker kept stops working with the reset (review L8); then the member gets
/// the "your password was changed" notice the account's password change sends.
/// The cypher is checked before the new password is hashed, so garbage cyphers cost no
/// hash; the guarded consume below still makes it single use (review M3).
pub async fn update_password(
    state: &AppState,
    settings: &AuthSettings,
    mail: &MailSettings,
    client: &str,
    req: &UpdatePasswordRequest,
    now: i64,
) -> Result<(), AuthError> {
    if let Some(key) = rules::password_problem(&req.new_password) {
        return Err(AuthError::Invalid(vec![field("newPassword", key)]));
    }
    super::throttle(
        state,
        &format!("updatepassword:{client}"),
        settings.login_rate_limit,
        settings.login_rate_window_secs,
        now,
    )
    .await?;
    let cypher_hash = session::hash_token(req.cypher.trim());
    if store::live_cypher_member(&state.db, &cypher_hash, "recovery", now).await?
        != Some(req.member_id)
    {
        return Err(AuthError::CypherInvalid);
    }
    let hash = crate::platform::password::hash_async(&req.new_password)
        .await
        .map_err(AuthError::Internal)?;
    let mut tx = state.db.begin().await?;
    match store::consume_cypher(&mut tx, &cypher_hash, "recovery", now).await? {
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
    store::clear_failures(&mut *tx, req.member_id).await?;
    store::use_up_links(&mut tx, req.member_id, now).await?;
    sqlx::query("DELETE FROM sessions WHERE member_id = $1")
        .bind(req.member_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    if let Some(me) = crate::account::store::secrets(&state.db, req.member_id).await? {
        let mailer = crate::account::service::Mailer {
            settings: mail,
            link_base: "",
        };
        mailer.password_changed(&me, now).await;
    }
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
    settings: &AuthSettings,
    member_id: i64,
    now: i64,
) -> Result<String, AuthError> {
    let (cypher, cypher_hash) = new_cypher();
    let mut tx = state.db.begin().await?;
    store::insert_cypher(
        &mut tx,
        member_id,
        "autologin",
        &cypher_hash,
        now,
        now + settings.cypher_ttl_secs,
    )
    .await?;
    tx.commit().await?;
    Ok(cypher)
}

/// The first name of the member an autologin cypher would sign in, without using it: the link is live and
/// the member active on this site. The link's page asks "Continue as <first name>?" with
/// this, and only the confirmed form (with its CSRF token) signs in (review L1: a link
/// alone must not put a visitor into someone else's account).
pub async fn autologin_member(
    state: &AppState,
    site_id: u16,
    cypher: &str,
    now: i64,
) -> Result<Option<String>, AuthError> {
    let cypher = cypher.trim();
    if cypher.is_empty() || cypher.len() > 64 {
        return Ok(None);
    }
    let hash = session::hash_token(cypher);
    let Some(member_id) = store::live_cypher_member(&state.db, &hash, "autologin", now).await?
    else {
        return Ok(None);
    };
    Ok(store::member_by_id(&state.db, member_id)
        .await?
        .filter(|m| m.status == MemberStatus::Active && m.site_id == site_id)
        .map(|m| m.first_name))
}

/// Autologin: a valid cypher opens a session and names where to go.
pub async fn autologin(
    state: &AppState,
    client: &str,
    req: &CypherRequest,
    now: i64,
) -> Result<(String, AutologinResponse), AuthError> {
    let mut tx = state.db.begin().await?;
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

/// "Sign out everywhere else": every other session of the member ends, the one asking
/// stays (review L11). The number of sessions ended.
pub async fn end_other_sessions(
    state: &AppState,
    client: &str,
    member: &session::SessionMember,
    now: i64,
) -> Result<u64, AuthError> {
    let ended = session::end_others(&state.db, member.member_id, &member.token_hash).await?;
    store::event(
        &state.db,
        member.site_id,
        Some(member.member_id),
        "end_other_sessions",
        client,
        &ended.to_string(),
        now,
    )
    .await;
    Ok(ended)
}

//! Email change (a link to the new address, a notice to the old one) and password change
//! (argon2id, the session rotated, every other session ended, a notice email).
use crate::account::error::AccountError;
use crate::account::model::*;
use crate::account::rules::{
    check_new_email, check_password_change, PasswordChangeError, PasswordRefusal,
    F_CONFIRM_PASSWORD, F_CURRENT_PASSWORD, F_NEW_MAIL,
};
use crate::account::store;
use crate::auth::reauth;
use crate::auth::settings::AuthSettings;
use crate::platform::db::Db;
use crate::platform::{password, session};

use super::{profile, rate_limit, secrets, Mailer};

/// How long an email confirmation link works.
pub const EMAIL_LINK_TTL_SECS: i64 = 48 * 3600;

/// The path of the page the confirmation link opens (signed in, it confirms there).
pub const CONFIRM_PATH: &str = "/myaccount/memberdata";

fn email_taken() -> AccountError {
    AccountError::invalid(&[(F_NEW_MAIL, "auth.email.taken")])
}

/// Starts an email change: the new address gets a single-use link, the old one a notice;
/// the member's email stays until the link is opened.
#[allow(clippy::too_many_arguments)]
pub async fn request_email_change(
    db: &Db,
    auth: &AuthSettings,
    mailer: &Mailer<'_>,
    client: &str,
    member: &session::SessionMember,
    req: &EmailChangeRequest,
    now: i64,
) -> Result<AccountConfirmation, AccountError> {
    let member_id = member.member_id;
    let me = secrets(db, member_id).await?;
    // Bad input is told first; the proof (and the limit of the secret calls, counted
    // there) comes before anything that tells whether an address is taken.
    let email = check_new_email(&req.email, &req.confirm_email, &me.email)
        .map_err(|e| AccountError::invalid(&e))?;
    reauth::confirm(
        db,
        auth,
        client,
        member_id,
        &member.token_hash,
        &req.current_password,
        now,
    )
    .await?;
    let cypher = session::new_token();
    let mut tx = db.begin().await?;
    if store::email_in_use(&mut tx, me.site_id, &email, member_id).await? {
        return Err(email_taken());
    }
    store::insert_email_change(
        &mut tx,
        member_id,
        &session::hash_token(&cypher),
        &email,
        now,
        now + EMAIL_LINK_TTL_SECS,
    )
    .await?;
    tx.commit().await?;
    let link = format!("{}{CONFIRM_PATH}?confirmemail={cypher}", mailer.link_base);
    mailer
        .send(
            me.site_id,
            &email,
            "mail.email_change.subject",
            "mail.email_change.body",
            &[("link", &link), ("name", &me.first_name)],
            now,
        )
        .await;
    mailer
        .notice(
            db,
            member_id,
            &me,
            "mail.email_change_notice",
            &[("email", &email)],
            now,
        )
        .await;
    Ok(AccountConfirmation {
        member: Some(profile(db, member_id, now).await?),
        ..AccountConfirmation::new("myprofile.email.notification")
    })
}

/// Opens the link: only the member who asked, signed in, once, before it expires. The
/// member's other sessions end (the sign-in identifier changed).
pub async fn confirm_email_change(
    db: &Db,
    member_id: i64,
    current_token_hash: &str,
    cypher: &str,
    now: i64,
) -> Result<AccountConfirmation, AccountError> {
    let cypher = cypher.trim();
    if cypher.len() != 32 || !cypher.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(AccountError::LinkInvalid);
    }
    let site_id = secrets(db, member_id).await?.site_id;
    let mut tx = db.begin().await?;
    let Some(email) =
        store::consume_email_change(&mut tx, &session::hash_token(cypher), member_id, now).await?
    else {
        return Err(AccountError::LinkInvalid);
    };
    if store::email_in_use(&mut tx, site_id, &email, member_id).await? {
        return Err(email_taken());
    }
    // Two members confirming the same address at once: the unique index decides.
    if let Err(e) = store::set_email(&mut tx, member_id, &email).await {
        return Err(match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => email_taken(),
            _ => e.into(),
        });
    }
    store::end_sessions(&mut tx, member_id, Some(current_token_hash)).await?;
    tx.commit().await?;
    Ok(AccountConfirmation {
        member: Some(profile(db, member_id, now).await?),
        ..AccountConfirmation::new("myprofile.email.confirmed")
    })
}

/// A changed password: the new session token (the caller sets the cookie) and what to say.
pub struct PasswordChanged {
    pub token: String,
    pub remember: bool,
    pub confirmation: AccountConfirmation,
}

#[allow(clippy::too_many_arguments)]
pub async fn change_password(
    db: &Db,
    auth: &AuthSettings,
    mailer: &Mailer<'_>,
    client: &str,
    member_id: i64,
    current_token_hash: &str,
    req: &PasswordChangeRequest,
    now: i64,
) -> Result<PasswordChanged, AccountError> {
    rate_limit(db, auth, member_id, client, now).await?;
    let confirm = req.confirm_password.as_deref().unwrap_or(&req.new_password);
    check_password_change(&req.old_password, &req.new_password, confirm).map_err(|mut r| {
        // A client that sends no confirmation is not told to fill one in.
        if req.confirm_password.is_none() {
            r.fields.retain(|(f, _)| *f != F_CONFIRM_PASSWORD);
        }
        r
    })?;
    let me = secrets(db, member_id).await?;
    // Hashing runs off the async threads; an overlong current password is wrong without
    // costing a hash (the sign-in caps it the same way).
    if req.old_password.len() > crate::auth::rules::LOGIN_PASSWORD_MAX_BYTES
        || !password::verify_async(&req.old_password, Some(&me.password_hash)).await
    {
        return Err(PasswordRefusal {
            code: PasswordChangeError::NotValid,
            fields: vec![(F_CURRENT_PASSWORD, "myprofile.password.error.current")],
        }
        .into());
    }
    let hash = password::hash_async(&req.new_password)
        .await
        .map_err(AccountError::Internal)?;
    let remember = store::session_remembered(db, current_token_hash).await?;
    let mut tx = db.begin().await?;
    store::set_password_hash(&mut tx, member_id, &hash).await?;
    store::end_sessions(&mut tx, member_id, None).await?;
    // A member who changes a password they think is known ends every link sent before it
    // too, as a reset does: a recovery or autologin link (review N4), or an email change
    // someone else may have started.
    crate::auth::store::use_up_links(&mut tx, member_id, now).await?;
    store::cancel_email_changes(&mut tx, member_id).await?;
    let token = store::new_session(&mut tx, member_id, remember, now).await?;
    tx.commit().await?;
    mailer.password_changed(&me, now).await;
    Ok(PasswordChanged {
        token,
        remember,
        confirmation: AccountConfirmation::new("myprofile.password.notification"),
    })
}

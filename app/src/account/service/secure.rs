//! "Secure your account" (review N1): every notice of a change that could hand the account
//! to someone else carries a single-use link. Opened by the member, it signs the account
//! out everywhere, ends every link sent before (email change, recovery, autologin), puts
//! back the address the notice went to, and leads to choosing a new password.
use crate::account::error::AccountError;
use crate::account::store::{self, secure};
use crate::platform::db::Db;
use crate::platform::session;

/// A notice can lie unread for a while: its link works for 30 days.
pub const SECURE_LINK_TTL_SECS: i64 = 30 * 86_400;

/// The page the link opens, on the sign-in page (open to whoever reads the mail, signed in
/// or not), with a confirmation button: a mail scanner's GET changes nothing.
pub const SECURE_PATH: &str = "/gr/authentication?step=secure&token=";

/// How long the password link it leads to works (as a recovery link).
const RESET_TTL_SECS: i64 = 3600;

/// A new link for a notice sent to `email`; the whole URL for the mail.
pub async fn secure_link(
    db: &Db,
    link_base: &str,
    member_id: i64,
    email: &str,
    now: i64,
) -> Result<String, sqlx::Error> {
    let token = session::new_token();
    secure::insert(
        db,
        &session::hash_token(&token),
        member_id,
        email,
        now,
        now + SECURE_LINK_TTL_SECS,
    )
    .await?;
    Ok(format!("{link_base}{SECURE_PATH}{token}"))
}

fn well_formed(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The address a live link keeps, for its page; `None` for a used, expired or made-up one.
pub async fn secure_link_email(
    db: &Db,
    token: &str,
    now: i64,
) -> Result<Option<String>, AccountError> {
    let token = token.trim();
    if !well_formed(token) {
        return Ok(None);
    }
    Ok(secure::live(db, &session::hash_token(token), now).await?)
}

/// What securing did: the path of the new-password form (a recovery link of one hour).
pub struct Secured {
    pub member_id: i64,
    pub site_id: u16,
    pub reset_path: String,
}

pub async fn secure_account(db: &Db, token: &str, now: i64) -> Result<Secured, AccountError> {
    let token = token.trim();
    if !well_formed(token) {
        return Err(AccountError::LinkInvalid);
    }
    let mut tx = db.begin().await?;
    let Some((member_id, email)) =
        secure::consume(&mut tx, &session::hash_token(token), now).await?
    else {
        return Err(AccountError::LinkInvalid);
    };
    let me = super::secrets(db, member_id).await?;
    // The address goes back unless another member registered it since (then it stays as
    // it is, and the member still gets the new-password form on the current address).
    if me.email != email && !store::email_in_use(&mut tx, me.site_id, &email, member_id).await? {
        store::set_email(&mut tx, member_id, &email).await?;
    }
    store::cancel_email_changes(&mut tx, member_id).await?;
    store::end_sessions(&mut tx, member_id, None).await?;
    crate::auth::store::use_up_links(&mut tx, member_id, now).await?;
    let cypher = session::new_token();
    crate::auth::store::insert_cypher(
        &mut tx,
        member_id,
        "recovery",
        &session::hash_token(&cypher),
        now,
        now + RESET_TTL_SECS,
    )
    .await?;
    tx.commit().await?;
    tracing::warn!(member_id, "account secured from a notice's link");
    Ok(Secured {
        member_id,
        site_id: me.site_id,
        reset_path: format!(
            "/gr/authentication?updatepassword=1&cypher={cypher}&memberid={member_id}"
        ),
    })
}

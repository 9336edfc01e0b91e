//! Re-authentication (review N1): what can hand an account to someone else — a new email,
//! a new IBAN, a refund to an IBAN the wallet does not hold, ending the other sessions,
//! closing the account — asks for proof that the member is at the keyboard, not only a
//! session someone may have borrowed. The proof is the current password or, for a member
//! who has none (registered with a provider), a sign-in with the provider made in this
//! session within the last [`WINDOW_SECS`].
use sqlx::Row;

use crate::auth::rules::LOGIN_PASSWORD_MAX_BYTES;
use crate::auth::settings::AuthSettings;
use crate::platform::db::Db;
use crate::platform::session::SessionMember;
use crate::platform::{password, ratelimit};

/// How long a fresh provider sign-in stands in for the password.
pub const WINDOW_SECS: i64 = 300;

pub use crate::auth::rules::F_CURRENT_PASSWORD;

#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("the current password is wrong")]
    WrongPassword,
    #[error("the current password is missing")]
    PasswordMissing,
    #[error("the member has no password and no fresh provider sign-in")]
    ProviderSignInNeeded,
    #[error("too many attempts")]
    TooMany,
    #[error("storage failure: {0}")]
    Storage(#[from] sqlx::Error),
}

impl Refusal {
    pub fn status(&self) -> u16 {
        match self {
            Refusal::WrongPassword | Refusal::PasswordMissing => 400,
            Refusal::ProviderSignInNeeded => 403,
            Refusal::TooMany => 429,
            Refusal::Storage(_) => 500,
        }
    }

    /// The wire code: a client tells "ask the password" from "send to the provider".
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::WrongPassword | Refusal::PasswordMissing => "currentpassword",
            Refusal::ProviderSignInNeeded => "reauthrequired",
            Refusal::TooMany => "toomanyrequests",
            Refusal::Storage(_) => "storage",
        }
    }

    pub fn message_key(&self) -> &'static str {
        match self {
            Refusal::WrongPassword => "reauth.error.password",
            Refusal::PasswordMissing => "reauth.error.required",
            Refusal::ProviderSignInNeeded => "reauth.social.required",
            Refusal::TooMany => "auth.error.too_many",
            Refusal::Storage(_) => "errors.general_retry.notification",
        }
    }

    /// The field error a form shows beside the password field.
    pub fn field_error(&self) -> Option<(&'static str, &'static str)> {
        matches!(self, Refusal::WrongPassword | Refusal::PasswordMissing)
            .then(|| (F_CURRENT_PASSWORD, self.message_key()))
    }
}

/// What a form needs to show the right proof: the password field, or the provider's
/// button (and whether a provider sign-in of this session still counts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub has_password: bool,
    /// A provider sign-in of this session counts until then (0: none).
    pub fresh_until: i64,
}

impl Standing {
    pub fn fresh(&self, now: i64) -> bool {
        self.fresh_until > now
    }
}

pub async fn standing(
    db: &Db,
    member_id: i64,
    token_hash: &str,
    now: i64,
) -> Result<Standing, sqlx::Error> {
    let row = sqlx::query(
        "SELECT m.password_hash, s.reauth_at FROM members m
           JOIN sessions s ON s.member_id = m.id
          WHERE m.id = $1 AND s.token_hash = $2",
    )
    .bind(member_id)
    .bind(token_hash)
    .fetch_optional(&db.pool)
    .await?;
    let Some(r) = row else {
        return Ok(Standing::default());
    };
    let hash: String = r.try_get("password_hash")?;
    let at: i64 = r.try_get("reauth_at")?;
    let fresh_until = if at > 0 && at + WINDOW_SECS > now {
        at + WINDOW_SECS
    } else {
        0
    };
    Ok(Standing {
        has_password: !hash.is_empty(),
        fresh_until,
    })
}

/// The proof for one sensitive change. Every call counts against the per-member and
/// per-client limit of the account's secret calls (a borrowed session cannot try
/// passwords forever). A typed password is checked even when a provider sign-in is fresh.
pub async fn confirm(
    db: &Db,
    settings: &AuthSettings,
    client: &str,
    member_id: i64,
    token_hash: &str,
    current_password: &str,
    now: i64,
) -> Result<(), Refusal> {
    for bucket in [format!("account:m{member_id}"), format!("account:{client}")] {
        if !ratelimit::hit(
            db,
            &bucket,
            settings.login_rate_limit,
            settings.login_rate_window_secs,
            now,
        )
        .await?
        {
            tracing::warn!(member_id, client, "re-authentication over the limit");
            return Err(Refusal::TooMany);
        }
    }
    if !current_password.is_empty() {
        let hash: Option<String> =
            sqlx::query_scalar("SELECT password_hash FROM members WHERE id = $1")
                .bind(member_id)
                .fetch_optional(&db.pool)
                .await?;
        let hash = hash.filter(|h| !h.is_empty());
        // An overlong password is wrong without costing a hash (as at sign-in).
        if current_password.len() > LOGIN_PASSWORD_MAX_BYTES
            || !password::verify_async(current_password, hash.as_deref()).await
        {
            return Err(Refusal::WrongPassword);
        }
        return Ok(());
    }
    let standing = standing(db, member_id, token_hash, now).await?;
    if standing.fresh(now) {
        Ok(())
    } else if standing.has_password {
        Err(Refusal::PasswordMissing)
    } else {
        Err(Refusal::ProviderSignInNeeded)
    }
}

/// Who asks for a sensitive change, and what they gave as proof.
pub struct Proof<'a> {
    pub auth: &'a AuthSettings,
    pub client: &'a str,
    pub member: &'a SessionMember,
    /// Empty when the member relies on a fresh provider sign-in.
    pub current_password: &'a str,
}

impl Proof<'_> {
    pub async fn check(&self, db: &Db, now: i64) -> Result<(), Refusal> {
        let m = self.member;
        confirm(
            db,
            self.auth,
            self.client,
            m.member_id,
            &m.token_hash,
            self.current_password,
            now,
        )
        .await
    }
}

/// What the member's forms show: the password field, or "sign in again with …".
pub async fn view(
    db: &Db,
    member: &SessionMember,
    now: i64,
) -> Result<crate::model::reauth::ReauthView, sqlx::Error> {
    let standing = standing(db, member.member_id, &member.token_hash, now).await?;
    let providers = if standing.has_password {
        Vec::new()
    } else {
        crate::auth::social::store::links(db, member.member_id)
            .await?
            .into_iter()
            .map(|(p, _, _)| p.slug().to_string())
            .collect()
    };
    Ok(crate::model::reauth::ReauthView {
        has_password: standing.has_password,
        fresh: standing.fresh(now),
        providers,
    })
}

/// A provider sign-in made for re-authentication: this session counts as fresh.
pub async fn stamp(db: &Db, token_hash: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sessions SET reauth_at = $2 WHERE token_hash = $1")
        .bind(token_hash)
        .bind(now)
        .execute(&db.writes)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_refusal_names_the_field_and_a_provider_one_does_not() {
        assert_eq!(
            Refusal::WrongPassword.field_error(),
            Some((F_CURRENT_PASSWORD, "reauth.error.password"))
        );
        assert_eq!(Refusal::PasswordMissing.status(), 400);
        assert_eq!(Refusal::ProviderSignInNeeded.field_error(), None);
        assert_eq!(Refusal::ProviderSignInNeeded.status(), 403);
        assert_eq!(Refusal::ProviderSignInNeeded.code(), "reauthrequired");
    }

    #[test]
    fn a_stamp_counts_for_the_window_only() {
        let s = Standing {
            has_password: false,
            fresh_until: 1_000 + WINDOW_SECS,
        };
        assert!(s.fresh(1_000));
        assert!(!s.fresh(1_000 + WINDOW_SECS));
    }
}

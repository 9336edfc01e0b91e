//! My account's operations: each checks its input with the rules, then writes in one
//! transaction; mails go out after the commit, so nothing is announced that did not happen.
mod closing;
mod credentials;
mod profile;
mod secure;

pub use closing::*;
pub use credentials::*;
pub use profile::*;
pub use secure::*;

use crate::account::error::AccountError;
use crate::account::store;
use crate::auth::settings::AuthSettings;
use crate::platform::db::Db;
use crate::platform::mail::{self, Mail, MailSettings};
use crate::site;

/// Where the account's emails go and what their links start with.
pub struct Mailer<'a> {
    pub settings: &'a MailSettings,
    /// The site's public origin (`https://www.rosace.fr`).
    pub link_base: &'a str,
}

impl Mailer<'_> {
    /// Sends in the member's site language; a failure is logged, never shown: the change
    /// it reports is already made.
    pub async fn send(
        &self,
        site_id: u16,
        to: &str,
        subject: &str,
        body: &str,
        args: &[(&str, &str)],
        now: i64,
    ) {
        let lang = site::i18n::lang_of(site::by_id_or_default(site_id).locale);
        let m = Mail {
            to: to.into(),
            // A subject may name what the mail is about (an order's number).
            subject: site::i18n::t_with(lang, subject, args),
            body: site::i18n::t_with(lang, body, args),
        };
        match mail::send(self.settings, &m, now).await {
            Ok(target) => tracing::info!(%target, "account email sent"),
            Err(e) => tracing::error!(error = %e, "cannot send account email"),
        }
    }

    /// A notice of a change that could hand the account to someone else (`{key}.subject`,
    /// `{key}.body`), to the member's address, with a "secure your account" link
    /// (`{secure}`) and their first name (`{name}`) among its arguments.
    pub async fn notice(
        &self,
        db: &Db,
        member_id: i64,
        me: &store::MemberSecrets,
        key: &str,
        args: &[(&str, &str)],
        now: i64,
    ) {
        let link = match secure_link(db, self.link_base, member_id, &me.email, now).await {
            Ok(l) => l,
            Err(e) => {
                // The change is made: the notice still goes, pointing to the recovery.
                tracing::error!(error = %e, "cannot store a secure-account link");
                format!("{}/gr/authentication?step=recover", self.link_base)
            }
        };
        let mut all: Vec<(&str, &str)> = vec![("name", &me.first_name), ("secure", &link)];
        all.extend_from_slice(args);
        self.send(
            me.site_id,
            &me.email,
            &format!("{key}.subject"),
            &format!("{key}.body"),
            &all,
            now,
        )
        .await;
    }

    /// The "your password was changed" notice, after a change in My account or a reset.
    pub async fn password_changed(&self, me: &crate::account::store::MemberSecrets, now: i64) {
        self.send(
            me.site_id,
            &me.email,
            "mail.password_changed.subject",
            "mail.password_changed.body",
            &[("name", &me.first_name)],
            now,
        )
        .await;
    }
}

/// Today's date (UTC) as (year, month, day), for the birth-date rules.
pub fn today(now: i64) -> (u16, u8, u8) {
    let c = site::format::civil_from_unix(now, 0);
    (
        u16::try_from(c.year).unwrap_or(u16::MAX),
        u8::try_from(c.month).unwrap_or(1),
        u8::try_from(c.day).unwrap_or(1),
    )
}

/// The sign-in's flood limit, applied to the calls that check or change a secret: per
/// member (a stolen session cannot try current passwords forever) and per client.
pub async fn rate_limit(
    db: &Db,
    settings: &AuthSettings,
    member_id: i64,
    client: &str,
    now: i64,
) -> Result<(), AccountError> {
    for bucket in [format!("account:m{member_id}"), format!("account:{client}")] {
        if !crate::platform::ratelimit::hit(
            db,
            &bucket,
            settings.login_rate_limit,
            settings.login_rate_window_secs,
            now,
        )
        .await?
        {
            tracing::warn!(member_id, client, "account secret calls over the limit");
            return Err(AccountError::TooManyRequests);
        }
    }
    Ok(())
}

async fn secrets(db: &Db, member_id: i64) -> Result<store::MemberSecrets, AccountError> {
    store::secrets(db, member_id).await?.ok_or_else(|| {
        AccountError::Internal(format!("member {member_id} of a live session is missing"))
    })
}

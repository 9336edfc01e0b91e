//! Support's answers (the `server support` command).
use crate::help::error::HelpError;
use crate::help::rules::TicketStatus;
use crate::help::store;
use crate::platform::db::Db;
use crate::platform::mail::{self, Mail, MailSettings};

use super::centre::check_body;

/// What `server support reply` did.
pub struct SupportReply {
    pub ticket_id: i64,
    pub member_id: i64,
    pub mailed: Result<String, String>,
}

/// Support answers a ticket: the message, the message centre's notice (kind `ticket`) and
/// an email to the member, in the member's site language. The email goes after the
/// commit: a mail failure does not undo the answer (it is reported).
pub async fn support_reply(
    db: &Db,
    mail_settings: &MailSettings,
    public_origin: &str,
    ticket_id: i64,
    text: &str,
    now: i64,
) -> Result<SupportReply, HelpError> {
    check_body(text)?;
    let mut tx = db.begin().await?;
    let t = store::support_ticket_by_id(&mut tx, ticket_id)
        .await?
        .ok_or(HelpError::NotFound)?;
    store::insert_message(
        &mut tx,
        ticket_id,
        t.member_id,
        "support",
        text.trim(),
        TicketStatus::Answered.wire(),
        now,
    )
    .await?;
    store::insert_ticket_notification(&mut tx, t.member_id, ticket_id, now).await?;
    tx.commit().await?;
    let site = crate::site::by_id_or_default(u16::try_from(t.site_id).unwrap_or(1));
    let link = format!(
        "{}/my-notifications?ticket={ticket_id}",
        public_origin.trim_end_matches('/')
    );
    let mail = Mail {
        to: t.email.clone(),
        subject: crate::site::i18n::t_with(
            site.lang,
            "help.mail.subject",
            &[("subject", &t.subject_title)],
        ),
        body: crate::site::i18n::t_with(
            site.lang,
            "help.mail.body",
            &[
                ("name", &t.first_name),
                ("subject", &t.subject_title),
                ("text", text.trim()),
                ("link", &link),
            ],
        ),
    };
    let mailed = mail::send(mail_settings, &mail, now).await;
    Ok(SupportReply {
        ticket_id,
        member_id: t.member_id,
        mailed,
    })
}

/// Support closes a ticket.
pub async fn support_close(db: &Db, ticket_id: i64, now: i64) -> Result<(), HelpError> {
    let n = sqlx::query("UPDATE help_tickets SET status = 'closed', updated_at = $2 WHERE id = $1")
        .bind(ticket_id)
        .bind(now)
        .execute(&db.writes)
        .await?
        .rows_affected();
    if n == 0 {
        return Err(HelpError::NotFound);
    }
    Ok(())
}

//! Support's side of the tickets, for the back office's support desk and the `server
//! support` command alike: answer, close, reopen, assign. Each action runs in the caller's
//! transaction (the back office writes its audit record in it) and, from the desk, only on
//! the version of the ticket the operator saw: a ticket someone else changed meanwhile (a
//! colleague's answer, the member's new message) is not acted on, and the operator is told.
use crate::help::error::HelpError;
use crate::help::rules::TicketStatus;
use crate::help::store::{self, SupportTicket, Tx};
use crate::platform::db::Db;
use crate::platform::mail::{self, Mail, MailSettings};

use super::centre::check_body;

/// What support does to a ticket.
#[derive(Clone, Copy, Debug)]
pub enum DeskAction<'a> {
    /// An answer: the message, the message centre's notice (the header bell counts it) and
    /// an email to the member in their site's language.
    Reply(&'a str),
    Close,
    Reopen,
    /// Who works the ticket (none: nobody).
    Assign(Option<i64>),
}

/// An action done; the answer's email is sent after the commit ([`send`]).
pub struct Done {
    pub ticket: SupportTicket,
    pub mail: Option<Mail>,
}

/// `Ok(None)`: the ticket changed since version `seen` (none: act on whatever it is now,
/// as the command line does).
pub async fn act(
    tx: &mut Tx,
    ticket_id: i64,
    seen: Option<i64>,
    action: DeskAction<'_>,
    public_origin: &str,
    now: i64,
) -> Result<Option<Done>, HelpError> {
    if let DeskAction::Reply(text) = action {
        check_body(text)?;
    }
    let ticket = store::support_ticket_by_id(tx, ticket_id)
        .await?
        .ok_or(HelpError::NotFound)?;
    if !store::claim_ticket(tx, ticket_id, seen).await? {
        return Ok(None);
    }
    let mail = match action {
        DeskAction::Reply(text) => {
            let text = text.trim();
            store::insert_message(
                tx,
                ticket_id,
                ticket.member_id,
                "support",
                text,
                TicketStatus::Answered.wire(),
                now,
            )
            .await?;
            store::insert_ticket_notification(tx, ticket.member_id, ticket_id, now).await?;
            Some(answer_mail(&ticket, text, public_origin))
        }
        DeskAction::Close => {
            store::set_ticket_status(tx, ticket_id, TicketStatus::Closed.wire(), now).await?;
            None
        }
        DeskAction::Reopen => {
            store::set_ticket_status(tx, ticket_id, TicketStatus::Open.wire(), now).await?;
            None
        }
        DeskAction::Assign(operator) => {
            store::assign_ticket(tx, ticket_id, operator).await?;
            None
        }
    };
    Ok(Some(Done { ticket, mail }))
}

/// The member's email of an answer, in their site's language, linking to the thread.
fn answer_mail(t: &SupportTicket, text: &str, public_origin: &str) -> Mail {
    let site = crate::site::by_id_or_default(u16::try_from(t.site_id).unwrap_or(1));
    let link = format!(
        "{}/my-notifications?ticket={}",
        public_origin.trim_end_matches('/'),
        t.id
    );
    Mail {
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
                ("text", text),
                ("link", &link),
            ],
        ),
    }
}

/// Sends an action's email, if it has one: where it went, or why not (the action stays
/// done either way).
pub async fn send(
    mail_settings: &MailSettings,
    done: &Done,
    now: i64,
) -> Option<Result<String, String>> {
    match &done.mail {
        Some(m) => Some(mail::send(mail_settings, m, now).await),
        None => None,
    }
}

/// What `server support reply` did.
pub struct SupportReply {
    pub ticket_id: i64,
    pub member_id: i64,
    pub mailed: Result<String, String>,
}

/// `server support reply`: an answer on whatever the ticket is now.
pub async fn support_reply(
    db: &Db,
    mail_settings: &MailSettings,
    public_origin: &str,
    ticket_id: i64,
    text: &str,
    now: i64,
) -> Result<SupportReply, HelpError> {
    let mut tx = db.begin().await?;
    let done = act(
        &mut tx,
        ticket_id,
        None,
        DeskAction::Reply(text),
        public_origin,
        now,
    )
    .await?
    .ok_or(HelpError::NotFound)?;
    tx.commit().await?;
    let mailed = send(mail_settings, &done, now)
        .await
        .unwrap_or_else(|| Err("no email".into()));
    Ok(SupportReply {
        ticket_id,
        member_id: done.ticket.member_id,
        mailed,
    })
}

/// `server support close`.
pub async fn support_close(db: &Db, ticket_id: i64, now: i64) -> Result<(), HelpError> {
    let mut tx = db.begin().await?;
    act(&mut tx, ticket_id, None, DeskAction::Close, "", now)
        .await?
        .ok_or(HelpError::NotFound)?;
    tx.commit().await?;
    Ok(())
}

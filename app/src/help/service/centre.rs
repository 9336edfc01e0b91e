//! The message centre's operations: the list, the unread count, threads, reads, the
//! member's replies and chat messages.
use crate::help::config;
use crate::help::error::HelpError;
use crate::help::model::*;
use crate::help::rules::{self, HelpField};
use crate::help::store::{self, NewTicket};
use crate::model::error::FieldError;
use crate::platform::db::Db;

use super::check_order;

pub async fn message_centre(db: &Db, member_id: i64) -> Result<MessageCentre, HelpError> {
    Ok(MessageCentre {
        unread_count: store::unread_count(db, member_id).await?,
        notifications: store::notifications(db, member_id, 50).await?,
        tickets: store::tickets(db, member_id).await?,
    })
}

pub async fn unread_count(db: &Db, member_id: i64) -> Result<i64, HelpError> {
    Ok(store::unread_count(db, member_id).await?)
}

pub async fn thread(db: &Db, member_id: i64, ticket_id: i64) -> Result<TicketThread, HelpError> {
    store::thread(db, member_id, ticket_id)
        .await?
        .ok_or(HelpError::NotFound)
}

pub async fn mark_read(
    db: &Db,
    member_id: i64,
    notification_id: i64,
    now: i64,
) -> Result<UnreadCount, HelpError> {
    if !store::mark_read(db, member_id, notification_id, now).await? {
        return Err(HelpError::NotFound);
    }
    Ok(UnreadCount {
        unread_count: store::unread_count(db, member_id).await?,
    })
}

pub async fn mark_ticket_read(
    db: &Db,
    member_id: i64,
    ticket_id: i64,
    now: i64,
) -> Result<UnreadCount, HelpError> {
    thread(db, member_id, ticket_id).await?;
    store::mark_ticket_read(db, member_id, ticket_id, now).await?;
    Ok(UnreadCount {
        unread_count: store::unread_count(db, member_id).await?,
    })
}

pub(super) fn check_body(body: &str) -> Result<(), HelpError> {
    let len = body.trim().chars().count();
    if (1..=rules::MESSAGE_MAX).contains(&len) {
        Ok(())
    } else {
        Err(HelpError::Invalid(vec![FieldError {
            field: "body".into(),
            message_key: "help.errors.reply".into(),
        }]))
    }
}

/// The member answers in one of their threads (it reopens).
pub async fn reply(
    db: &Db,
    member_id: i64,
    ticket_id: i64,
    body: &str,
    now: i64,
) -> Result<TicketThread, HelpError> {
    check_body(body)?;
    let mut tx = db.begin().await?;
    store::ticket_status(&mut tx, member_id, ticket_id)
        .await?
        .ok_or(HelpError::NotFound)?;
    store::insert_message(
        &mut tx,
        ticket_id,
        member_id,
        "member",
        body.trim(),
        "open",
        now,
    )
    .await?;
    tx.commit().await?;
    thread(db, member_id, ticket_id).await
}

/// A chat message: continues the member's open chat thread on this reason (and order),
/// or starts one.
pub async fn chat(
    db: &Db,
    site_id: u16,
    member_id: i64,
    req: &ChatRequest,
    now: i64,
) -> Result<TicketThread, HelpError> {
    check_body(&req.body)?;
    let config = config::for_site(site_id);
    let reason = config.reason(req.reason.trim()).ok_or_else(|| {
        HelpError::Invalid(vec![FieldError {
            field: "reason".into(),
            message_key: HelpField::Reason.message_key().into(),
        }])
    })?;
    check_order(db, member_id, req.order_id).await?;
    let lang = crate::site::by_id_or_default(site_id).lang;
    let title = crate::site::i18n::t(lang, &format!("help.reason.{}", reason.id));
    let mut tx = db.begin().await?;
    let ticket_id = match store::open_chat(&mut tx, member_id, reason.id, req.order_id).await? {
        Some(id) => id,
        None => {
            store::insert_ticket(
                &mut tx,
                &NewTicket {
                    member_id,
                    site_id,
                    subject_id: reason.id,
                    subject_title: &title,
                    operation_code: None,
                    order_id: req.order_id,
                    channel: "chat",
                },
                now,
            )
            .await?
        }
    };
    store::insert_message(
        &mut tx,
        ticket_id,
        member_id,
        "member",
        req.body.trim(),
        "open",
        now,
    )
    .await?;
    tx.commit().await?;
    thread(db, member_id, ticket_id).await
}

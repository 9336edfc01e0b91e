//! Support's side of the tickets: every member's tickets, with whose they are.
use sqlx::{AnyConnection, Row};

use super::Tx;
use crate::platform::db::Db;

/// A ticket as support sees it: whose, on which site, about what.
pub struct SupportTicket {
    pub id: i64,
    pub member_id: i64,
    pub site_id: i64,
    pub email: String,
    pub first_name: String,
    pub subject_title: String,
    pub status: String,
    pub updated_at: i64,
}

fn support_ticket(r: &sqlx::any::AnyRow) -> Result<SupportTicket, sqlx::Error> {
    Ok(SupportTicket {
        id: r.try_get("id")?,
        member_id: r.try_get("member_id")?,
        site_id: r.try_get("site_id")?,
        email: r.try_get("email")?,
        first_name: r.try_get("first_name")?,
        subject_title: r.try_get("subject_title")?,
        status: r.try_get("status")?,
        updated_at: r.try_get("updated_at")?,
    })
}

const SUPPORT_SELECT: &str =
    "SELECT t.id, t.member_id, t.site_id, m.email, m.first_name, t.subject_title,
        t.status, t.updated_at FROM help_tickets t JOIN members m ON m.id = t.member_id";

pub async fn support_ticket_by_id(
    conn: &mut AnyConnection,
    ticket_id: i64,
) -> Result<Option<SupportTicket>, sqlx::Error> {
    sqlx::query(&format!("{SUPPORT_SELECT} WHERE t.id = $1"))
        .bind(ticket_id)
        .fetch_optional(conn)
        .await?
        .as_ref()
        .map(support_ticket)
        .transpose()
}

/// Tickets waiting for support (open), oldest first, then the rest, newest first.
pub async fn support_tickets(db: &Db, all: bool) -> Result<Vec<SupportTicket>, sqlx::Error> {
    let filter = if all { "" } else { " WHERE t.status = 'open'" };
    sqlx::query(&format!(
        "{SUPPORT_SELECT}{filter} ORDER BY t.updated_at, t.id LIMIT 200"
    ))
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(support_ticket)
    .collect()
}

/// The message centre's notice of a support answer.
pub async fn insert_ticket_notification(
    tx: &mut Tx,
    member_id: i64,
    ticket_id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO notifications (member_id, kind, ticket_id, status, created_at)
         VALUES ($1, 'ticket', $2, 'answered', $3)",
    )
    .bind(member_id)
    .bind(ticket_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

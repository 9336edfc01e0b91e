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
    pub created_at: i64,
    pub subject_id: String,
    pub order_id: Option<i64>,
    pub assignee_id: Option<i64>,
    /// Bumped by every change (a message, a status, an assignment).
    pub version: i64,
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
        created_at: r.try_get("created_at")?,
        subject_id: r.try_get("subject_id")?,
        order_id: r.try_get("order_id")?,
        assignee_id: r.try_get("assignee_id")?,
        version: r.try_get("version")?,
    })
}

const SUPPORT_SELECT: &str =
    "SELECT t.id, t.member_id, t.site_id, m.email, m.first_name, t.subject_title,
        t.status, t.updated_at, t.created_at, t.subject_id, t.order_id, t.assignee_id, t.version
        FROM help_tickets t JOIN members m ON m.id = t.member_id";

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

/// Takes the ticket for one change: bumps its version, if it is still `seen` (none: any).
/// False when someone changed it since.
pub async fn claim_ticket(
    tx: &mut Tx,
    ticket_id: i64,
    seen: Option<i64>,
) -> Result<bool, sqlx::Error> {
    let done = match seen {
        Some(v) => {
            sqlx::query(
                "UPDATE help_tickets SET version = version + 1 WHERE id = $1 AND version = $2",
            )
            .bind(ticket_id)
            .bind(v)
            .execute(&mut **tx)
            .await?
        }
        None => {
            sqlx::query("UPDATE help_tickets SET version = version + 1 WHERE id = $1")
                .bind(ticket_id)
                .execute(&mut **tx)
                .await?
        }
    };
    Ok(done.rows_affected() == 1)
}

pub async fn set_ticket_status(
    tx: &mut Tx,
    ticket_id: i64,
    status: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE help_tickets SET status = $2, updated_at = $3 WHERE id = $1")
        .bind(ticket_id)
        .bind(status)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn assign_ticket(
    tx: &mut Tx,
    ticket_id: i64,
    operator: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE help_tickets SET assignee_id = $2 WHERE id = $1")
        .bind(ticket_id)
        .bind(operator)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The support queue's filters: status (`open`: waiting for support, the default), site,
/// reason (the subject's id) and assignee (an operator id; 0: nobody).
#[derive(Clone, Debug, Default)]
pub struct QueueFilter {
    pub status: String,
    pub site_id: Option<i64>,
    pub reason: String,
    pub assignee: Option<i64>,
}

/// Tickets of a filter, the longest waiting first (the last change is the member's, for
/// an open ticket), at most `limit`.
pub async fn support_queue(
    db: &Db,
    f: &QueueFilter,
    limit: i64,
    offset: i64,
) -> Result<Vec<SupportTicket>, sqlx::Error> {
    let mut w = vec!["t.status = $1".to_string()];
    if f.site_id.is_some() {
        w.push("t.site_id = $2".into());
    }
    if !f.reason.is_empty() {
        w.push("(t.subject_id = $3 OR t.subject_id LIKE $3 || '.%')".into());
    }
    match f.assignee {
        Some(0) => w.push("t.assignee_id IS NULL".into()),
        Some(_) => w.push("t.assignee_id = $4".into()),
        None => {}
    }
    sqlx::query(&format!(
        "{SUPPORT_SELECT} WHERE {} AND $2 = $2 AND $3 = $3 AND $4 = $4 ORDER BY t.updated_at, t.id LIMIT $5 OFFSET $6",
        w.join(" AND ")
    ))
    .bind(&f.status)
    .bind(f.site_id.unwrap_or(0))
    .bind(&f.reason)
    .bind(f.assignee.unwrap_or(0))
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(support_ticket)
    .collect()
}

/// How many tickets are in each status.
pub async fn support_counts(db: &Db) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let rows = sqlx::query("SELECT status, COUNT(*) AS n FROM help_tickets GROUP BY status")
        .fetch_all(&db.pool)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("status")?, r.try_get("n")?)))
        .collect()
}

/// A ticket as support reads it: the ticket and its whole thread.
pub async fn support_thread(
    db: &Db,
    ticket_id: i64,
) -> Result<Option<(SupportTicket, crate::help::model::TicketThread)>, sqlx::Error> {
    let mut conn = db.pool.acquire().await?;
    let Some(t) = support_ticket_by_id(&mut conn, ticket_id).await? else {
        return Ok(None);
    };
    drop(conn);
    let thread = super::thread(db, t.member_id, ticket_id).await?;
    Ok(thread.map(|th| (t, th)))
}

/// One attached file of a ticket's thread: name and bytes.
pub async fn ticket_attachment(
    db: &Db,
    ticket_id: i64,
    attachment_id: i64,
) -> Result<Option<(String, Vec<u8>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT a.name, a.content FROM help_attachments a JOIN help_messages m ON m.id = a.message_id
          WHERE a.id = $1 AND m.ticket_id = $2",
    )
    .bind(attachment_id)
    .bind(ticket_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| Ok((r.try_get("name")?, r.try_get("content")?)))
        .transpose()
}

/// A saved reply of support, in one language.
pub struct SavedReply {
    pub id: i64,
    pub lang: String,
    pub title: String,
    pub body: String,
}

pub async fn saved_replies(db: &Db, lang: Option<&str>) -> Result<Vec<SavedReply>, sqlx::Error> {
    sqlx::query(
        "SELECT id, lang, title, body FROM saved_replies WHERE $1 = '' OR lang = $1 ORDER BY lang, title, id",
    )
    .bind(lang.unwrap_or(""))
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SavedReply {
            id: r.try_get("id")?,
            lang: r.try_get("lang")?,
            title: r.try_get("title")?,
            body: r.try_get("body")?,
        })
    })
    .collect()
}

/// Adds (`id` none) or rewrites a saved reply; its id (none: no such reply).
pub async fn save_reply(
    tx: &mut Tx,
    id: Option<i64>,
    (lang, title, body): (&str, &str, &str),
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    match id {
        None => sqlx::query_scalar(
            "INSERT INTO saved_replies (lang, title, body, updated_at) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(lang)
        .bind(title)
        .bind(body)
        .bind(now)
        .fetch_one(&mut **tx)
        .await
        .map(Some),
        Some(id) => {
            let n = sqlx::query("UPDATE saved_replies SET lang = $2, title = $3, body = $4, updated_at = $5 WHERE id = $1")
                .bind(id)
                .bind(lang)
                .bind(title)
                .bind(body)
                .bind(now)
                .execute(&mut **tx)
                .await?
                .rows_affected();
            Ok((n == 1).then_some(id))
        }
    }
}

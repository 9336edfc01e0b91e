//! The help centre's SQL: tickets, their messages and files, the automatic answers'
//! evaluations, customer care's edits of the articles, and the message centre's reads of
//! `notifications`. Every read and write of a member's rows names the member, so one
//! member never reaches another's.
use sqlx::{Any, AnyConnection, Row, Transaction};

use crate::help::model::*;
use crate::model::upload::Upload;
use crate::platform::db::Db;

pub(crate) type Tx = Transaction<'static, Any>;

mod articles;
mod evaluations;
mod support;
pub use articles::*;
pub use evaluations::*;
pub use support::*;

/// One of the member's orders, for the order select.
pub struct OrderRow {
    pub id: i64,
    pub created_at: i64,
    pub total: i64,
    pub operation_name: String,
    pub status: String,
}

pub async fn member_orders(db: &Db, member_id: i64) -> Result<Vec<OrderRow>, sqlx::Error> {
    sqlx::query(
        "SELECT o.id, o.created_at, o.total, o.status,
                COALESCE((SELECT s.name FROM order_items i JOIN sales s ON s.id = i.sale_id
                           WHERE i.order_id = o.id ORDER BY i.option_id LIMIT 1),
                         (SELECT i.name FROM order_items i WHERE i.order_id = o.id
                           ORDER BY i.option_id LIMIT 1), '') AS operation_name
           FROM orders o WHERE o.member_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT 20",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(OrderRow {
            id: r.try_get("id")?,
            created_at: r.try_get("created_at")?,
            total: r.try_get("total")?,
            operation_name: r.try_get("operation_name")?,
            status: r.try_get("status")?,
        })
    })
    .collect()
}

/// The sales of the member's orders, (sale id, name), newest order first; a sale may
/// come more than once (one per order), `rules::sale_options` keeps the first.
pub async fn member_sales(db: &Db, member_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query(
        "SELECT i.sale_id, COALESCE(s.name, '') AS name, o.created_at, o.id
           FROM orders o JOIN order_items i ON i.order_id = o.id
           LEFT JOIN sales s ON s.id = i.sale_id
          WHERE o.member_id = $1
          ORDER BY o.created_at DESC, o.id DESC, i.sale_id LIMIT 100",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| Ok((r.try_get("sale_id")?, r.try_get("name")?)))
    .collect()
}

/// Whether the member has an order with a line of this sale.
pub async fn bought_from_sale(
    conn: &mut AnyConnection,
    member_id: i64,
    sale_id: i64,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "SELECT o.id FROM orders o JOIN order_items i ON i.order_id = o.id
          WHERE o.member_id = $1 AND i.sale_id = $2 LIMIT 1",
    )
    .bind(member_id)
    .bind(sale_id)
    .fetch_optional(conn)
    .await?
    .is_some())
}

pub async fn owns_order(
    conn: &mut AnyConnection,
    member_id: i64,
    order_id: i64,
) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("SELECT id FROM orders WHERE id = $1 AND member_id = $2")
            .bind(order_id)
            .bind(member_id)
            .fetch_optional(conn)
            .await?
            .is_some(),
    )
}

/// What a new ticket is about.
pub struct NewTicket<'a> {
    pub member_id: i64,
    pub site_id: u16,
    pub subject_id: &'a str,
    pub subject_title: &'a str,
    pub operation_code: Option<&'a str>,
    pub order_id: Option<i64>,
    pub channel: &'a str,
}

pub async fn insert_ticket(tx: &mut Tx, t: &NewTicket<'_>, now: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO help_tickets (member_id, site_id, subject_id, subject_title, operation_code,
                                   order_id, channel, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $8) RETURNING id",
    )
    .bind(t.member_id)
    .bind(i64::from(t.site_id))
    .bind(t.subject_id)
    .bind(t.subject_title)
    .bind(t.operation_code)
    .bind(t.order_id)
    .bind(t.channel)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
}

/// A message in a ticket; the ticket takes the status its author gives it.
pub async fn insert_message(
    tx: &mut Tx,
    ticket_id: i64,
    member_id: i64,
    author: &str,
    body: &str,
    status: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO help_messages (ticket_id, member_id, author, body, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(ticket_id)
    .bind(member_id)
    .bind(author)
    .bind(body)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE help_tickets SET status = $2, updated_at = $3, version = version + 1 WHERE id = $1",
    )
    .bind(ticket_id)
    .bind(status)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn insert_attachment(
    tx: &mut Tx,
    message_id: i64,
    member_id: i64,
    file: &Upload,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO help_attachments (message_id, member_id, name, content_type, size, content)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(message_id)
    .bind(member_id)
    .bind(&file.name)
    .bind(&file.content_type)
    .bind(file.bytes.len() as i64)
    .bind(file.bytes.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The member's ticket's owner-checked status, or `None`.
pub async fn ticket_status(
    conn: &mut AnyConnection,
    member_id: i64,
    ticket_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT status FROM help_tickets WHERE id = $1 AND member_id = $2")
        .bind(ticket_id)
        .bind(member_id)
        .fetch_optional(conn)
        .await
}

/// The open chat thread of the member on this reason (and order), if any.
pub async fn open_chat(
    conn: &mut AnyConnection,
    member_id: i64,
    subject_id: &str,
    order_id: Option<i64>,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM help_tickets
          WHERE member_id = $1 AND channel = 'chat' AND subject_id = $2 AND status <> 'closed'
            AND COALESCE(order_id, 0) = $3
          ORDER BY id DESC LIMIT 1",
    )
    .bind(member_id)
    .bind(subject_id)
    .bind(order_id.unwrap_or(0))
    .fetch_optional(conn)
    .await
}

pub async fn thread(
    db: &Db,
    member_id: i64,
    ticket_id: i64,
) -> Result<Option<TicketThread>, sqlx::Error> {
    let Some(t) = sqlx::query(
        "SELECT id, subject_id, subject_title, status, order_id, channel, created_at
           FROM help_tickets WHERE id = $1 AND member_id = $2",
    )
    .bind(ticket_id)
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let files = sqlx::query(
        "SELECT a.id, a.message_id, a.name, a.content_type, a.size FROM help_attachments a
           JOIN help_messages m ON m.id = a.message_id
          WHERE m.ticket_id = $1 ORDER BY a.id",
    )
    .bind(ticket_id)
    .fetch_all(&db.pool)
    .await?;
    let mut messages = Vec::new();
    for r in sqlx::query(
        "SELECT id, author, body, created_at FROM help_messages WHERE ticket_id = $1 ORDER BY id",
    )
    .bind(ticket_id)
    .fetch_all(&db.pool)
    .await?
    {
        let id: i64 = r.try_get("id")?;
        let mut attachments = Vec::new();
        for f in &files {
            if f.try_get::<i64, _>("message_id")? == id {
                attachments.push(AttachmentInfo {
                    id: f.try_get("id")?,
                    name: f.try_get("name")?,
                    content_type: f.try_get("content_type")?,
                    size: f.try_get("size")?,
                });
            }
        }
        messages.push(ThreadMessage {
            id,
            author: r.try_get("author")?,
            body: r.try_get("body")?,
            created_at: r.try_get("created_at")?,
            attachments,
        });
    }
    Ok(Some(TicketThread {
        id: t.try_get("id")?,
        subject_id: t.try_get("subject_id")?,
        subject_title: t.try_get("subject_title")?,
        status: t.try_get("status")?,
        order_id: t.try_get("order_id")?,
        channel: t.try_get("channel")?,
        created_at: t.try_get("created_at")?,
        messages,
    }))
}

pub async fn tickets(db: &Db, member_id: i64) -> Result<Vec<TicketSummary>, sqlx::Error> {
    sqlx::query(
        "SELECT t.id, t.subject_title, t.status, t.order_id, t.updated_at,
                (SELECT COUNT(*) FROM notifications n
                  WHERE n.member_id = t.member_id AND n.kind = 'ticket' AND n.ticket_id = t.id
                    AND n.read_at IS NULL) AS unread
           FROM help_tickets t WHERE t.member_id = $1 ORDER BY t.updated_at DESC, t.id DESC LIMIT 50",
    )
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(TicketSummary {
            id: r.try_get("id")?,
            subject_title: r.try_get("subject_title")?,
            status: r.try_get("status")?,
            order_id: r.try_get("order_id")?,
            updated_at: r.try_get("updated_at")?,
            unread: r.try_get("unread")?,
        })
    })
    .collect()
}

pub async fn notifications(
    db: &Db,
    member_id: i64,
    limit: i64,
) -> Result<Vec<NotificationItem>, sqlx::Error> {
    sqlx::query(
        "SELECT n.id, n.kind, n.order_id, n.ticket_id, n.status, n.created_at, n.read_at,
                t.subject_title
           FROM notifications n LEFT JOIN help_tickets t ON t.id = n.ticket_id
          WHERE n.member_id = $1 ORDER BY n.id DESC LIMIT $2",
    )
    .bind(member_id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(NotificationItem {
            id: r.try_get("id")?,
            kind: r.try_get("kind")?,
            order_id: r.try_get("order_id")?,
            ticket_id: r.try_get("ticket_id")?,
            status: r.try_get("status")?,
            subject_title: r.try_get("subject_title")?,
            created_at: r.try_get("created_at")?,
            read: r.try_get::<Option<i64>, _>("read_at")?.is_some(),
        })
    })
    .collect()
}

/// [`unread_count`] as a column over a member row `m`, for
/// the session lookups of page views (`crate::platform::session_lookups`).
pub const UNREAD_COUNT_COLUMN: &str = ", (SELECT COUNT(*) FROM notifications n \
     WHERE n.member_id = m.id AND n.read_at IS NULL) AS unread_count";

/// Whether the member has any notification at all (`has_notifications`, 0 or 1), as a
/// column over a member row `m`: a page's bell need not be read for one who has none.
pub const HAS_NOTIFICATIONS_COLUMN: &str =
    ", CAST(CASE WHEN EXISTS (SELECT 1 FROM notifications n \
     WHERE n.member_id = m.id) THEN 1 ELSE 0 END AS BIGINT) AS has_notifications";

pub async fn unread_count(db: &Db, member_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM notifications WHERE member_id = $1 AND read_at IS NULL",
    )
    .bind(member_id)
    .fetch_one(&db.pool)
    .await
}

/// Marks one of the member's notifications read; false when it is not theirs.
pub async fn mark_read(
    db: &Db,
    member_id: i64,
    notification_id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let found = sqlx::query("SELECT id FROM notifications WHERE id = $1 AND member_id = $2")
        .bind(notification_id)
        .bind(member_id)
        .fetch_optional(&db.pool)
        .await?
        .is_some();
    if found {
        sqlx::query("UPDATE notifications SET read_at = $3 WHERE id = $1 AND member_id = $2 AND read_at IS NULL")
            .bind(notification_id)
            .bind(member_id)
            .bind(now)
            .execute(&db.writes)
            .await?;
    }
    Ok(found)
}

/// Marks every notification of one of the member's tickets read.
pub async fn mark_ticket_read(
    db: &Db,
    member_id: i64,
    ticket_id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE notifications SET read_at = $3
          WHERE member_id = $1 AND kind = 'ticket' AND ticket_id = $2 AND read_at IS NULL",
    )
    .bind(member_id)
    .bind(ticket_id)
    .bind(now)
    .execute(&db.writes)
    .await?;
    Ok(())
}

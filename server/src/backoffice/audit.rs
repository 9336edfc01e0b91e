//! The audit log: every operator write records who, what, on which object, a before/after
//! summary, when and from which address, in the transaction of the write itself (a write
//! without its record cannot commit). Append-only: this module only inserts and reads, and
//! a test (`layers.rs`) fails if any code updates or deletes a row of `audit_log`. Rows are
//! never purged (the retention job does not know this table), so they outlive the year the
//! issue asks for.
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

/// Who acted, from where.
#[derive(Clone, Debug)]
pub struct Actor {
    pub operator_id: Option<i64>,
    pub email: String,
    pub ip: String,
}

pub struct Entry<'a> {
    pub action: &'a str,
    pub object_kind: &'a str,
    pub object_id: String,
    pub summary: String,
}

pub async fn record(
    tx: &mut Transaction<'static, Any>,
    actor: &Actor,
    entry: Entry<'_>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_log (at, operator_id, operator_email, action, object_kind, object_id, summary, ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(now)
    .bind(actor.operator_id)
    .bind(&actor.email)
    .bind(entry.action)
    .bind(entry.object_kind)
    .bind(entry.object_id)
    .bind(cut(&entry.summary, 4000))
    .bind(&actor.ip)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// A field's change for a summary: `name: "before" → "after"`, or nothing when equal.
pub fn change(
    name: &str,
    before: impl std::fmt::Display,
    after: impl std::fmt::Display,
) -> Option<String> {
    let (b, a) = (before.to_string(), after.to_string());
    (b != a).then(|| format!("{name}: {b:?} → {a:?}"))
}

#[derive(Clone, Debug)]
pub struct LogRow {
    pub at: i64,
    pub operator_email: String,
    pub action: String,
    pub object_kind: String,
    pub object_id: String,
    pub summary: String,
    pub ip: String,
}

#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Search {
    /// Words found in the operator's email, the action, the object or the summary.
    pub q: String,
    pub object_kind: String,
    pub page: i64,
}

pub const PAGE_SIZE: i64 = 50;

/// One page of the log, newest first, and whether there is a next page.
pub async fn search(db: &Db, s: &Search) -> Result<(Vec<LogRow>, bool), sqlx::Error> {
    let like = format!("%{}%", s.q.trim().to_lowercase().replace(['%', '_'], ""));
    let page = s.page.max(0);
    let rows = sqlx::query(
        "SELECT at, operator_email, action, object_kind, object_id, summary, ip FROM audit_log
         WHERE ($1 = '%%' OR LOWER(operator_email || ' ' || action || ' ' || object_kind || ' ' || object_id || ' ' || summary) LIKE $1)
           AND ($2 = '' OR object_kind = $2)
         ORDER BY id DESC LIMIT $3 OFFSET $4",
    )
    .bind(&like)
    .bind(s.object_kind.trim())
    .bind(PAGE_SIZE + 1)
    .bind(page * PAGE_SIZE)
    .fetch_all(&db.pool)
    .await?;
    let more = rows.len() as i64 > PAGE_SIZE;
    let rows = rows
        .iter()
        .take(PAGE_SIZE as usize)
        .map(|r| {
            Ok(LogRow {
                at: r.try_get("at")?,
                operator_email: r.try_get("operator_email")?,
                action: r.try_get("action")?,
                object_kind: r.try_get("object_kind")?,
                object_id: r.try_get("object_id")?,
                summary: r.try_get("summary")?,
                ip: r.try_get("ip")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok((rows, more))
}

//! The writes of the help-articles editor and what its pages read. An article's `version`
//! counts every write made to it, edits and restores alike. An edited article keeps it in
//! its row; an article at its original text has no row, and its version is the number of
//! its entries in the audit log (each write records exactly one, in its transaction). So
//! the count goes on across a restore: a form shown before a restore and a new edit can
//! never carry the version of that new edit and overwrite it.
use sqlx::{Any, AnyConnection, Row, Transaction};

use app::platform::db::Db;

type Tx = Transaction<'static, Any>;

pub const KIND: &str = "help_article";

/// An article's edited text.
#[derive(Clone, Debug)]
pub struct Edited {
    pub article_id: String,
    pub title: String,
    pub body: String,
    pub version: i64,
    pub updated_by: String,
    pub updated_at: i64,
}

/// The audit log's object id of an article in a language.
pub fn object_id(lang: &str, article_id: &str) -> String {
    format!("{lang}/{article_id}")
}

fn edited_of(r: &sqlx::any::AnyRow) -> Result<Edited, sqlx::Error> {
    Ok(Edited {
        article_id: r.try_get("article_id")?,
        title: r.try_get("title")?,
        body: r.try_get("body")?,
        version: r.try_get("version")?,
        updated_by: r.try_get("email")?,
        updated_at: r.try_get("updated_at")?,
    })
}

const SELECT: &str = "SELECT h.article_id, h.title, h.body, h.version, h.updated_at,
        COALESCE(o.email, '') AS email
   FROM help_articles h LEFT JOIN operators o ON o.id = h.updated_by";

/// The edited articles of a language.
pub async fn edited(db: &Db, lang: &str) -> Result<Vec<Edited>, sqlx::Error> {
    sqlx::query(&format!("{SELECT} WHERE h.lang = $1 ORDER BY h.article_id"))
        .bind(lang)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(edited_of)
        .collect()
}

async fn one(
    conn: &mut AnyConnection,
    lang: &str,
    id: &str,
) -> Result<Option<Edited>, sqlx::Error> {
    sqlx::query(&format!("{SELECT} WHERE h.lang = $1 AND h.article_id = $2"))
        .bind(lang)
        .bind(id)
        .fetch_optional(conn)
        .await?
        .as_ref()
        .map(edited_of)
        .transpose()
}

async fn writes(conn: &mut AnyConnection, lang: &str, id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE object_kind = $1 AND object_id = $2")
        .bind(KIND)
        .bind(object_id(lang, id))
        .fetch_one(conn)
        .await
}

/// An article's edit (none: its original text) and its version, as a form shows them.
pub async fn article(db: &Db, lang: &str, id: &str) -> Result<(Option<Edited>, i64), sqlx::Error> {
    let mut conn = db.pool.acquire().await?;
    match one(&mut conn, lang, id).await? {
        Some(e) => {
            let v = e.version;
            Ok((Some(e), v))
        }
        None => Ok((None, writes(&mut conn, lang, id).await?)),
    }
}

/// The new text of an article, by whom and when.
pub struct NewText<'a> {
    pub lang: &'a str,
    pub article_id: &'a str,
    pub title: &'a str,
    pub body: &'a str,
    pub operator_id: i64,
    pub now: i64,
}

pub enum Written {
    /// Saved; the text it replaced (`None`: the original one).
    Done(Option<Edited>),
    /// The article is not at the version the form showed: nothing written.
    Changed,
}

/// Saves an article's text if it is still at version `seen`.
pub async fn save(tx: &mut Tx, t: &NewText<'_>, seen: i64) -> Result<Written, sqlx::Error> {
    let before = one(tx, t.lang, t.article_id).await?;
    let current = match &before {
        Some(e) => e.version,
        None => writes(tx, t.lang, t.article_id).await?,
    };
    if current != seen {
        return Ok(Written::Changed);
    }
    // The version is checked again in the write itself: a colleague's save committed
    // meanwhile leaves nothing to update, and a first edit made at the same moment wins
    // the key, so this one is told either way.
    let sql = if before.is_some() {
        "UPDATE help_articles SET title = $3, body = $4, version = $5, updated_by = $6, updated_at = $7
          WHERE lang = $1 AND article_id = $2 AND version = $5 - 1"
    } else {
        "INSERT INTO help_articles (lang, article_id, title, body, version, updated_by, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (lang, article_id) DO NOTHING"
    };
    let n = sqlx::query(sql)
        .bind(t.lang)
        .bind(t.article_id)
        .bind(t.title)
        .bind(t.body)
        .bind(seen + 1)
        .bind(t.operator_id)
        .bind(t.now)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(if n == 1 {
        Written::Done(before)
    } else {
        Written::Changed
    })
}

pub enum Restored {
    /// The edit deleted.
    Done(Edited),
    /// Edited again since the form was shown: nothing deleted.
    Changed,
    /// At its original text already: nothing to do.
    Original,
}

/// Deletes an article's edit if it is still at version `seen`.
pub async fn restore(
    tx: &mut Tx,
    lang: &str,
    id: &str,
    seen: i64,
) -> Result<Restored, sqlx::Error> {
    let Some(before) = one(tx, lang, id).await? else {
        return Ok(Restored::Original);
    };
    if before.version != seen {
        return Ok(Restored::Changed);
    }
    let n = sqlx::query(
        "DELETE FROM help_articles WHERE lang = $1 AND article_id = $2 AND version = $3",
    )
    .bind(lang)
    .bind(id)
    .bind(seen)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(if n == 1 {
        Restored::Done(before)
    } else {
        Restored::Changed
    })
}

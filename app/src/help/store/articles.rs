//! Customer care's edits of the help articles (`help_articles`), read to build the
//! answerer. The back office writes them (`server/src/backoffice/help`).
use sqlx::Row;

use crate::help::kb::EditedText;
use crate::platform::db::Db;

pub async fn edited_articles(db: &Db) -> Result<Vec<EditedText>, sqlx::Error> {
    sqlx::query("SELECT lang, article_id, title, body FROM help_articles ORDER BY lang, article_id")
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(EditedText {
                lang: r.try_get("lang")?,
                article_id: r.try_get("article_id")?,
                title: r.try_get("title")?,
                body: r.try_get("body")?,
            })
        })
        .collect()
}

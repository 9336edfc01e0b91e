//! The automatic answers' evaluations: the question, the article, the member's rating.
use sqlx::{AnyConnection, Row};

use super::Tx;
use crate::platform::db::Db;

/// A stored automatic answer: the question it answered and the member's rating.
pub struct Evaluation {
    pub id: String,
    pub member_id: i64,
    pub site_id: i64,
    pub article_id: String,
    pub subject_id: String,
    pub subject_title: String,
    pub question: String,
    pub operation_code: Option<String>,
    pub order_id: Option<i64>,
    pub satisfaction: Option<String>,
    pub ticket_id: Option<i64>,
}

pub async fn insert_evaluation(
    tx: &mut Tx,
    e: &Evaluation,
    score_milli: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO help_evaluations (id, member_id, site_id, article_id, score_milli, subject_id,
                                       subject_title, question, operation_code, order_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&e.id)
    .bind(e.member_id)
    .bind(e.site_id)
    .bind(&e.article_id)
    .bind(score_milli)
    .bind(&e.subject_id)
    .bind(&e.subject_title)
    .bind(&e.question)
    .bind(e.operation_code.as_deref())
    .bind(e.order_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Keeps the files of a question an article answered, until the member rates the answer.
pub async fn insert_evaluation_file(
    tx: &mut Tx,
    evaluation_id: &str,
    member_id: i64,
    file: &crate::model::upload::Upload,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO help_evaluation_files (evaluation_id, member_id, name, content_type, size, content)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(evaluation_id)
    .bind(member_id)
    .bind(&file.name)
    .bind(&file.content_type)
    .bind(file.bytes.len() as i64)
    .bind(file.bytes.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Once the answer is rated: its files go to the ticket's first message (`Some`, a "not
/// helpful" rating) or away (`None`: the answer helped, support needs none of them).
pub async fn settle_evaluation_files(
    tx: &mut Tx,
    evaluation_id: &str,
    to_message: Option<i64>,
) -> Result<(), sqlx::Error> {
    if let Some(message_id) = to_message {
        sqlx::query(
            "INSERT INTO help_attachments (message_id, member_id, name, content_type, size, content)
             SELECT $2, member_id, name, content_type, size, content
               FROM help_evaluation_files WHERE evaluation_id = $1 ORDER BY id",
        )
        .bind(evaluation_id)
        .bind(message_id)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("DELETE FROM help_evaluation_files WHERE evaluation_id = $1")
        .bind(evaluation_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// One of the member's attached files (name, content type, content); `None` for anyone
/// else's or no such file.
pub async fn attachment(
    db: &Db,
    member_id: i64,
    attachment_id: i64,
) -> Result<Option<(String, String, Vec<u8>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT name, content_type, content FROM help_attachments WHERE id = $1 AND member_id = $2",
    )
    .bind(attachment_id)
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("name")?,
            r.try_get("content_type")?,
            r.try_get("content")?,
        ))
    })
    .transpose()
}

pub async fn evaluation(
    conn: &mut AnyConnection,
    member_id: i64,
    id: &str,
) -> Result<Option<Evaluation>, sqlx::Error> {
    sqlx::query(
        "SELECT id, member_id, site_id, article_id, subject_id, subject_title, question,
                operation_code, order_id, satisfaction, ticket_id
           FROM help_evaluations WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member_id)
    .fetch_optional(conn)
    .await?
    .map(|r| {
        Ok(Evaluation {
            id: r.try_get("id")?,
            member_id: r.try_get("member_id")?,
            site_id: r.try_get("site_id")?,
            article_id: r.try_get("article_id")?,
            subject_id: r.try_get("subject_id")?,
            subject_title: r.try_get("subject_title")?,
            question: r.try_get("question")?,
            operation_code: r.try_get("operation_code")?,
            order_id: r.try_get("order_id")?,
            satisfaction: r.try_get("satisfaction")?,
            ticket_id: r.try_get("ticket_id")?,
        })
    })
    .transpose()
}

pub async fn rate_evaluation(
    tx: &mut Tx,
    id: &str,
    satisfaction: &str,
    ticket_id: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE help_evaluations SET satisfaction = $2, ticket_id = $3 WHERE id = $1")
        .bind(id)
        .bind(satisfaction)
        .bind(ticket_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

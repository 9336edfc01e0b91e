//! The "secure your account" links of the notices sent after a sensitive change.
use sqlx::{Any, Row, Transaction};

use crate::platform::db::Db;

pub async fn insert(
    db: &Db,
    token_hash: &str,
    member_id: i64,
    email: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO account_secure_links (token_hash, member_id, email, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(member_id)
    .bind(email)
    .bind(now)
    .bind(expires_at)
    .execute(&db.writes)
    .await?;
    Ok(())
}

/// The address a live link was sent to, without using it (the page before the button).
pub async fn live(db: &Db, token_hash: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT email FROM account_secure_links WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Uses a live link (one guarded DELETE: two clicks race to one winner): its member and
/// the address it was sent to.
pub async fn consume(
    tx: &mut Transaction<'static, Any>,
    token_hash: &str,
    now: i64,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    let row = sqlx::query(
        "DELETE FROM account_secure_links WHERE token_hash = $1 AND expires_at > $2
         RETURNING member_id, email",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| Ok((r.try_get("member_id")?, r.try_get("email")?)))
        .transpose()
}

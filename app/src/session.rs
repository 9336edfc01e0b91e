//! Server-side sessions: a row per session, looked up by the cookie's token.
//! (Sign-in creates them with the members work; tests create them directly.)
use rand::RngCore;
use sqlx::Row;

use crate::db::Db;

pub const COOKIE: &str = "rosace_session";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionMember {
    pub member_id: i64,
    pub first_name: String,
}

/// 128 random bits, hex encoded.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub async fn member_for_token(
    db: &Db,
    token: &str,
    now: i64,
) -> Result<Option<SessionMember>, sqlx::Error> {
    if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let row = sqlx::query(
        "SELECT m.id, m.first_name FROM sessions s JOIN members m ON m.id = s.member_id
          WHERE s.token = $1 AND s.expires_at > $2",
    )
    .bind(token)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(SessionMember {
            member_id: r.try_get("id")?,
            first_name: r.try_get("first_name")?,
        })
    })
    .transpose()
}

/// Creates a session row for a member and returns its token.
pub async fn create(
    db: &Db,
    member_id: i64,
    now: i64,
    ttl_secs: i64,
) -> Result<String, sqlx::Error> {
    let token = new_token();
    sqlx::query(
        "INSERT INTO sessions (token, member_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)",
    )
    .bind(&token)
    .bind(member_id)
    .bind(now)
    .bind(now + ttl_secs)
    .execute(&db.pool)
    .await?;
    Ok(token)
}

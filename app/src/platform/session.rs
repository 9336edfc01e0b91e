//! Server-side sessions (OWASP ASVS 5.0 §7): a row per session keyed by the hash of a
//! 128-bit random token; idle and absolute timeouts, longer with "remember me"; a new token
//! at every sign-in; logout deletes the row.
use blake2::{Blake2s256, Digest};
use rand::RngCore;
use sqlx::{Any, Row, Transaction};

use crate::platform::db::Db;

pub const COOKIE: &str = "rosace_session";
/// Cookie name when served over HTTPS (`__Host-` binds it to the host, path `/`, Secure).
pub const SECURE_COOKIE: &str = "__Host-rosace_session";

/// (idle, absolute) lifetimes in seconds.
pub fn lifetimes(remember: bool) -> (i64, i64) {
    if remember {
        (14 * 86_400, 30 * 86_400)
    } else {
        (30 * 60, 12 * 3_600)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionMember {
    pub member_id: i64,
    pub first_name: String,
    pub site_id: u16,
    pub token_hash: String,
}

/// What the request's visitor's CSRF tokens are bound to (their session, else their
/// pre-session id), in the request's extensions for code that runs inside a page render
/// and must tell this browser from another (a pending social sign-in, review N5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding(pub String);

impl Binding {
    /// The binding of the request being rendered; `None` outside a request.
    #[cfg(feature = "ssr")]
    pub fn current() -> Option<Binding> {
        let parts = leptos::prelude::use_context::<axum::http::request::Parts>()?;
        parts.extensions.get::<Binding>().cloned()
    }
}

/// 128 random bits, hex encoded.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

pub fn hex(bytes: &[u8]) -> String {
    // Every page view makes a few of these (tokens, nonces, hashes): a table lookup per
    // nibble instead of a formatted string per byte (`format!` showed in the page
    // profile).
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// Only hashes are stored: a database leak gives no usable session.
pub fn hash_token(token: &str) -> String {
    hex(&Blake2s256::digest(token.as_bytes()))
}

/// The idle lifetimes (remembered, plain) of [`lifetimes`], for a statement that slides
/// sessions of both kinds at once.
pub fn idle_lifetimes() -> (i64, i64) {
    (lifetimes(true).0, lifetimes(false).0)
}

/// A token as [`new_token`] makes them; anything else is no session, unread.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The member of a live session; slides the idle expiry (at most once a minute).
pub async fn member_for_token(
    db: &Db,
    token: &str,
    now: i64,
) -> Result<Option<SessionMember>, sqlx::Error> {
    Ok(member_with(db, token, now, "", |_| Ok(()))
        .await?
        .map(|(member, ())| member))
}

/// [`member_for_token`] with more of the member's values read in the same query: `columns`
/// is a select list over `m` (the member's row) and `$2` (`now`), starting with a comma,
/// and `read` takes them from the row. A page view needs several of the member's values
/// before it renders; one query instead of one each is most of what a signed-in member's
/// page costs beyond a visitor's.
pub async fn member_with<T>(
    db: &Db,
    token: &str,
    now: i64,
    columns: &str,
    read: impl FnOnce(&sqlx::any::AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Option<(SessionMember, T)>, sqlx::Error> {
    if !is_well_formed(token) {
        return Ok(None);
    }
    let hash = hash_token(token);
    let sql = format!(
        "SELECT m.id, m.first_name, m.site_id, s.remember, s.last_seen_at{columns} FROM sessions s
           JOIN members m ON m.id = s.member_id
          WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.idle_expires_at > $2 AND m.status = 1"
    );
    let row = sqlx::query(&sql)
        .bind(&hash)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?;
    let Some(r) = row else { return Ok(None) };
    let last_seen: i64 = r.try_get("last_seen_at")?;
    if now - last_seen >= 60 {
        let (idle, _) = lifetimes(r.try_get::<i64, _>("remember")? == 1);
        sqlx::query(
            "UPDATE sessions SET last_seen_at = $1, idle_expires_at = $2 WHERE token_hash = $3",
        )
        .bind(now)
        .bind(now + idle)
        .bind(&hash)
        .execute(&db.writes)
        .await?;
    }
    let extra = read(&r)?;
    Ok(Some((member_of_row(&r, hash)?, extra)))
}

/// The member of a session row read with `m.id, m.first_name, m.site_id` (here and in the
/// grouped lookups of [`super::session_lookups`]).
pub(super) fn member_of_row(
    r: &sqlx::any::AnyRow,
    token_hash: String,
) -> Result<SessionMember, sqlx::Error> {
    Ok(SessionMember {
        member_id: r.try_get("id")?,
        first_name: r.try_get("first_name")?,
        site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
        token_hash,
    })
}

/// A member keeps at most this many sessions: a new one past it ends the oldest (review
/// L11), so sign-ins in a loop cannot pile rows up.
pub const MAX_PER_MEMBER: i64 = 20;

/// Creates a session row and returns its token (shown to the browser once, as a cookie).
pub async fn create(
    db: &Db,
    member_id: i64,
    remember: bool,
    now: i64,
) -> Result<String, sqlx::Error> {
    let mut tx = db.begin().await?;
    let token = insert(&mut tx, member_id, remember, now).await?;
    tx.commit().await?;
    Ok(token)
}

/// [`create`] inside the caller's transaction (a password change and its new session
/// commit together). Past [`MAX_PER_MEMBER`], the member's oldest other sessions end.
pub async fn insert(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    remember: bool,
    now: i64,
) -> Result<String, sqlx::Error> {
    let token = new_token();
    let hash = hash_token(&token);
    let (idle, absolute) = lifetimes(remember);
    sqlx::query(
        "INSERT INTO sessions (token_hash, member_id, remember, created_at, last_seen_at, idle_expires_at, expires_at)
         VALUES ($1, $2, $3, $4, $4, $5, $6)",
    )
    .bind(&hash)
    .bind(member_id)
    .bind(i64::from(remember))
    .bind(now)
    .bind(now + idle)
    .bind(now + absolute)
    .execute(&mut **tx)
    .await?;
    // The new session always stays; of the others, the newest MAX - 1.
    sqlx::query(
        "DELETE FROM sessions WHERE member_id = $1 AND token_hash <> $2 AND token_hash NOT IN (
             SELECT token_hash FROM sessions WHERE member_id = $1 AND token_hash <> $2
              ORDER BY created_at DESC, last_seen_at DESC LIMIT $3)",
    )
    .bind(member_id)
    .bind(&hash)
    .bind(MAX_PER_MEMBER - 1)
    .execute(&mut **tx)
    .await?;
    Ok(token)
}

/// Ends every session of the member but `keep` (a token hash): "sign out everywhere else".
/// The number of sessions ended.
pub async fn end_others(db: &Db, member_id: i64, keep: &str) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM sessions WHERE member_id = $1 AND token_hash <> $2")
            .bind(member_id)
            .bind(keep)
            .execute(&db.writes)
            .await?
            .rows_affected(),
    )
}

pub async fn delete(db: &Db, token: &str) -> Result<(), sqlx::Error> {
    if is_well_formed(token) {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(hash_token(token))
            .execute(&db.writes)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_hashes_differ_from_tokens() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(is_well_formed(&a));
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
        assert!(!is_well_formed("zz"));
    }

    #[test]
    fn hex_is_two_lowercase_digits_per_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn remember_me_lives_longer() {
        let (idle, abs) = lifetimes(false);
        let (ridle, rabs) = lifetimes(true);
        assert!(idle < abs && ridle > idle && rabs > abs);
    }
}

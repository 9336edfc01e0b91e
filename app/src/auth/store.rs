use sqlx::{Any, Row, Transaction};

use crate::auth::rules::MemberStatus;
use crate::platform::db::Db;

#[derive(Clone, Debug)]
pub struct MemberRow {
    pub id: i64,
    pub site_id: u16,
    pub first_name: String,
    pub password_hash: String,
    pub status: MemberStatus,
    pub failed_logins: i64,
    pub locked_until: i64,
}

fn member(r: &sqlx::any::AnyRow) -> Result<MemberRow, sqlx::Error> {
    Ok(MemberRow {
        id: r.try_get("id")?,
        site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
        first_name: r.try_get("first_name")?,
        password_hash: r.try_get("password_hash")?,
        status: MemberStatus::from_db(r.try_get("status")?),
        failed_logins: r.try_get("failed_logins")?,
        locked_until: r.try_get("locked_until")?,
    })
}

const MEMBER_COLUMNS: &str =
    "id, site_id, first_name, password_hash, status, failed_logins, locked_until";

pub async fn member_by_email(
    db: &Db,
    site_id: u16,
    email: &str,
) -> Result<Option<MemberRow>, sqlx::Error> {
    let sql = format!("SELECT {MEMBER_COLUMNS} FROM members WHERE site_id = $1 AND email = $2");
    sqlx::query(&sql)
        .bind(i64::from(site_id))
        .bind(email)
        .fetch_optional(&db.pool)
        .await?
        .as_ref()
        .map(member)
        .transpose()
}

pub async fn member_by_id(db: &Db, id: i64) -> Result<Option<MemberRow>, sqlx::Error> {
    let sql = format!("SELECT {MEMBER_COLUMNS} FROM members WHERE id = $1");
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .as_ref()
        .map(member)
        .transpose()
}

/// Counts a failed password; locks the account when the threshold is reached.
/// One statement, so concurrent failures are all counted.
pub async fn record_failure(
    db: &Db,
    id: i64,
    threshold: i64,
    lock_until: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE members SET failed_logins = failed_logins + 1,
                locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3 ELSE locked_until END
          WHERE id = $1",
    )
    .bind(id)
    .bind(threshold)
    .bind(lock_until)
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn reset_failures(db: &Db, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE members SET failed_logins = 0, locked_until = 0 WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

pub struct NewMember<'a> {
    pub site_id: u16,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub civility: i64,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub birth_date: Option<String>,
    pub zip_code: &'a str,
    pub city: &'a str,
    pub optin_partner: bool,
    pub sponsor_code: &'a str,
}

/// Inserts a not-yet-activated member; `None` when the email is taken on this site.
pub async fn insert_member(
    tx: &mut Transaction<'_, Any>,
    m: &NewMember<'_>,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO members (site_id, email, password_hash, civility, first_name, last_name, status,
             created_at, birth_date, zip_code, city, optin_partner, sponsor_code)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (site_id, email) DO NOTHING
         RETURNING id",
    )
    .bind(i64::from(m.site_id))
    .bind(m.email)
    .bind(m.password_hash)
    .bind(m.civility)
    .bind(m.first_name)
    .bind(m.last_name)
    .bind(now)
    .bind(m.birth_date.clone())
    .bind(m.zip_code)
    .bind(m.city)
    .bind(i64::from(m.optin_partner))
    .bind(m.sponsor_code)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.try_get("id")).transpose()
}

pub async fn insert_cypher(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    kind: &str,
    cypher_hash: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO member_cyphers (cypher_hash, member_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(cypher_hash)
    .bind(member_id)
    .bind(kind)
    .bind(now)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Marks a live cypher used and returns its member; a second use finds nothing.
/// The guarded UPDATE makes concurrent uses race-free: only one can flip `used_at`.
pub async fn consume_cypher(
    tx: &mut Transaction<'_, Any>,
    cypher_hash: &str,
    kind: &str,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "UPDATE member_cyphers SET used_at = $3
          WHERE cypher_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3
         RETURNING member_id",
    )
    .bind(cypher_hash)
    .bind(kind)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.try_get("member_id")).transpose()
}

pub async fn event(
    db: &Db,
    site_id: u16,
    member_id: Option<i64>,
    kind: &str,
    client: &str,
    detail: &str,
    now: i64,
) {
    let res = sqlx::query(
        "INSERT INTO auth_events (site_id, member_id, kind, client_key, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(i64::from(site_id))
    .bind(member_id)
    .bind(kind)
    .bind(client)
    .bind(detail)
    .bind(now)
    .execute(&db.pool)
    .await;
    tracing::info!(site_id, ?member_id, kind, client, detail, "auth event");
    if let Err(e) = res {
        tracing::error!(error = %e, "cannot store auth event");
    }
}

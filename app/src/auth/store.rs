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
}

fn member(r: &sqlx::any::AnyRow) -> Result<MemberRow, sqlx::Error> {
    Ok(MemberRow {
        id: r.try_get("id")?,
        site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
        first_name: r.try_get("first_name")?,
        password_hash: r.try_get("password_hash")?,
        status: MemberStatus::from_db(r.try_get("status")?),
    })
}

const MEMBER_COLUMNS: &str = "id, site_id, first_name, password_hash, status";

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

// Lockout (security review M2). Failed passwords are counted per account *and client
// address*, not per account alone: with a per-account counter anyone who knows an email
// could keep its owner locked out for good (five wrong passwords every 15 minutes from
// anywhere). Counted per client, the attacker locks only themselves out of that account;
// the member, from their own address, still signs in. What bounds guessing instead: this
// lock per (account, client), the per-client login limit across all accounts
// (`login_rate_limit`), and the trusted-proxy rule that stops a client from choosing its
// address (M1). Residual risk, written in the README: an attacker with many addresses gets
// `lockout_threshold` guesses per address and lockout period on one account.
//
// The counters live in `rate_limits` (bucket `lock:{member}:{client}`, one row with
// `window_start` 0): `expires_at` is when the counter lapses, or the lock ends; the purge
// deletes them afterwards, so nothing about a client is kept past the lockout period.

fn lock_bucket(member_id: i64, client: &str) -> String {
    format!("lock:{member_id}:{client}")
}

/// Until when `client` is locked out of the account, if it is.
pub async fn locked_until(
    db: &Db,
    member_id: i64,
    client: &str,
    threshold: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    crate::platform::ratelimit::locked_until(db, &lock_bucket(member_id, client), threshold, now)
        .await
}

/// The account-wide counter (review N8): every client's failures together. Its name
/// matches [`clear_failures`]' pattern, so a new password clears it with the rest; no
/// client key is `*` (they are addresses).
fn account_bucket(member_id: i64) -> String {
    lock_bucket(member_id, "*")
}

/// Until when password sign-in to the account is paused for every client, if it is. A
/// ceiling of 0 turns the pause off.
pub async fn account_paused_until(
    db: &Db,
    member_id: i64,
    ceiling: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    if ceiling <= 0 {
        return Ok(None);
    }
    crate::platform::ratelimit::locked_until(db, &account_bucket(member_id), ceiling, now).await
}

/// The account's pause reached by a failed password, whoever tried it.
pub struct Pause {
    pub until: i64,
    /// This failure is the one that reached the ceiling (failures in flight at that moment
    /// are counted past it): the member is told once.
    pub reached_now: bool,
}

/// Counts a failed password on the account, whoever tried; the pause when the failures of
/// the period reach the ceiling (0: no ceiling).
pub async fn record_account_failure(
    db: &Db,
    member_id: i64,
    ceiling: i64,
    period_secs: i64,
    now: i64,
) -> Result<Option<Pause>, sqlx::Error> {
    if ceiling <= 0 {
        return Ok(None);
    }
    let bucket = account_bucket(member_id);
    let (hits, until) =
        crate::platform::ratelimit::count_failure(db, &bucket, ceiling, period_secs, now).await?;
    Ok((hits >= ceiling).then_some(Pause {
        until,
        reached_now: hits == ceiling,
    }))
}

/// Counts a failed password of `client` on the account; answers the end of the lock when
/// this failure reaches the threshold. A counter whose period has passed (a lock that
/// ended, or failures older than `lockout_secs`) starts again from one, so a lock always
/// ends. One statement, so concurrent failures are all counted.
pub async fn record_failure(
    db: &Db,
    member_id: i64,
    client: &str,
    threshold: i64,
    lockout_secs: i64,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    crate::platform::ratelimit::record_failure(
        db,
        &lock_bucket(member_id, client),
        threshold,
        lockout_secs,
        now,
    )
    .await
}

/// A right password from `client`: its counter on the account starts again.
pub async fn reset_failures(db: &Db, member_id: i64, client: &str) -> Result<(), sqlx::Error> {
    crate::platform::ratelimit::reset_failures(db, &lock_bucket(member_id, client)).await
}

/// A new password (recovery): every client's counter on the account starts again.
pub async fn clear_failures<'e, E: sqlx::Executor<'e, Database = Any>>(
    executor: E,
    member_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rate_limits WHERE bucket LIKE $1 AND window_start = 0")
        .bind(format!("lock:{member_id}:%"))
        .execute(executor)
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
    /// ISO 3166-1 alpha-2.
    pub country_code: String,
    pub job_id: Option<i64>,
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
             created_at, birth_date, zip_code, city, optin_partner, sponsor_code, terms_version,
             country_code, job_id)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $11, $12, $13, $14, $15)
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
    // The registration form requires the general conditions: those in force.
    .bind(crate::onboarding::rules::TERMS_VERSION)
    .bind(m.country_code.as_str())
    .bind(m.job_id)
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

/// Marks every unused recovery and autologin link of the member used (a new password
/// ends them all; review L8).
pub async fn use_up_links(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE member_cyphers SET used_at = $2
          WHERE member_id = $1 AND used_at IS NULL AND kind IN ('recovery', 'autologin')",
    )
    .bind(member_id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// The member of a live (unused, unexpired) cypher, without using it.
pub async fn live_cypher_member(
    db: &Db,
    cypher_hash: &str,
    kind: &str,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT member_id FROM member_cyphers
          WHERE cypher_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(cypher_hash)
    .bind(kind)
    .bind(now)
    .fetch_optional(&db.pool)
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
    .execute(&db.writes)
    .await;
    tracing::info!(site_id, ?member_id, kind, client, detail, "auth event");
    if let Err(e) = res {
        tracing::error!(error = %e, "cannot store auth event");
    }
}

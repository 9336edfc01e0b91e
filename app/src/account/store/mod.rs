//! My account's SQL, always by the session's member id: one member never reaches
//! another's row. Closing an account (deactivate, erase) is in `closing`.
pub mod closing;
pub mod export;
pub mod secure;

use sqlx::{Any, Row, Transaction};

use crate::account::model::MemberProfile;
use crate::account::rules::{display_birth_date, Gender, ValidProfile};
use crate::platform::db::Db;
use crate::platform::session;

/// What the checks of an email or password change need to know of the member.
#[derive(Clone, Debug)]
pub struct MemberSecrets {
    pub site_id: u16,
    pub email: String,
    pub first_name: String,
    pub password_hash: String,
}

pub async fn profile(
    db: &Db,
    member_id: i64,
    now: i64,
) -> Result<Option<MemberProfile>, sqlx::Error> {
    // What no longer counts as a purchase: the orders without an invoice.
    let unpaid = crate::orders::invoice::NOT_INVOICEABLE
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(r) = sqlx::query(&format!(
        "SELECT m.id, m.site_id, m.first_name, m.last_name, m.civility, m.birth_date, m.phone,
                m.email, m.job_id, m.perso_gdpr,
                (SELECT COUNT(*) FROM orders o WHERE o.member_id = m.id AND o.status NOT IN ({unpaid})) AS order_number,
                (SELECT MAX(o.created_at) FROM orders o WHERE o.member_id = m.id AND o.status NOT IN ({unpaid})) AS last_order_at
           FROM members m WHERE m.id = $1"
    ))
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    let pending: Option<String> = sqlx::query_scalar(
        "SELECT new_email FROM member_email_changes
          WHERE member_id = $1 AND used_at IS NULL AND expires_at > $2
          ORDER BY created_at DESC LIMIT 1",
    )
    .bind(member_id)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    Ok(Some(MemberProfile {
        member_id: r.try_get("id")?,
        first_name: r.try_get("first_name")?,
        last_name: r.try_get("last_name")?,
        gender: Gender::from_civility(r.try_get("civility")?),
        birth_date: r
            .try_get::<Option<String>, _>("birth_date")?
            .map(|d| {
                let site = u16::try_from(r.try_get::<i64, _>("site_id").unwrap_or(1)).unwrap_or(1);
                display_birth_date(&d, crate::auth::rules::birth_date_separator(site))
            })
            .unwrap_or_default(),
        phone: r.try_get("phone")?,
        email: r.try_get("email")?,
        job_id: r.try_get("job_id")?,
        pending_email: pending,
        order_number: r.try_get("order_number")?,
        perso_status_gdpr: r.try_get("perso_gdpr")?,
        segment_id: crate::account::rules::Segment::of(
            r.try_get("order_number")?,
            r.try_get("last_order_at")?,
            now,
        )
        .id()
        .into(),
    }))
}

pub async fn secrets(db: &Db, member_id: i64) -> Result<Option<MemberSecrets>, sqlx::Error> {
    sqlx::query("SELECT site_id, email, first_name, password_hash FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| {
            Ok(MemberSecrets {
                site_id: u16::try_from(r.try_get::<i64, _>("site_id")?).unwrap_or(1),
                email: r.try_get("email")?,
                first_name: r.try_get("first_name")?,
                password_hash: r.try_get("password_hash")?,
            })
        })
        .transpose()
}

/// The jobs list: (id, translation key), in display order.
pub async fn jobs(db: &Db) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query("SELECT id, label_key FROM jobs ORDER BY sort_order, id")
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("label_key")?)))
        .collect()
}

pub async fn update_profile(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    p: &ValidProfile,
    job_id: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE members SET first_name = $2, last_name = $3, civility = $4, birth_date = $5,
                phone = $6, job_id = $7
          WHERE id = $1",
    )
    .bind(member_id)
    .bind(&p.first_name)
    .bind(&p.last_name)
    .bind(p.gender.civility())
    .bind(p.birth_date.clone())
    .bind(&p.phone)
    .bind(job_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether another member of the site uses `email` (pending changes to it included).
pub async fn email_in_use(
    tx: &mut Transaction<'static, Any>,
    site_id: u16,
    email: &str,
    member_id: i64,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM members WHERE site_id = $1 AND email = $2 AND id <> $3",
    )
    .bind(i64::from(site_id))
    .bind(email)
    .bind(member_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(n > 0)
}

/// A new pending change replaces the member's earlier ones: only the latest link works.
pub async fn insert_email_change(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    token_hash: &str,
    new_email: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM member_email_changes WHERE member_id = $1 AND used_at IS NULL")
        .bind(member_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO member_email_changes (token_hash, member_id, new_email, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(member_id)
    .bind(new_email)
    .bind(now)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Drops the member's pending email changes: their links then find nothing (a password
/// change ends them, as it ends recovery and autologin links).
pub async fn cancel_email_changes(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM member_email_changes WHERE member_id = $1 AND used_at IS NULL")
            .bind(member_id)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}

/// Marks the member's live link used and gives its address; a second use, another
/// member's link or an expired one finds nothing (one guarded UPDATE: race-free).
pub async fn consume_email_change(
    tx: &mut Transaction<'static, Any>,
    token_hash: &str,
    member_id: i64,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE member_email_changes SET used_at = $3
          WHERE token_hash = $1 AND member_id = $2 AND used_at IS NULL AND expires_at > $3
         RETURNING new_email",
    )
    .bind(token_hash)
    .bind(member_id)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await
}

pub async fn set_email(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    email: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE members SET email = $2 WHERE id = $1")
        .bind(member_id)
        .bind(email)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn set_password_hash(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE members SET password_hash = $2, failed_logins = 0, locked_until = 0 WHERE id = $1",
    )
    .bind(member_id)
    .bind(hash)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether the session (by token hash) was opened with "remember me".
pub async fn session_remembered(db: &Db, token_hash: &str) -> Result<bool, sqlx::Error> {
    let v: Option<i64> = sqlx::query_scalar("SELECT remember FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .fetch_optional(&db.pool)
        .await?;
    Ok(v == Some(1))
}

/// Ends every session of the member but `keep` (a token hash), if given.
pub async fn end_sessions(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    keep: Option<&str>,
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM sessions WHERE member_id = $1 AND token_hash <> $2")
            .bind(member_id)
            .bind(keep.unwrap_or(""))
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}

/// A new session inside the caller's transaction (`platform::session::insert`: the same
/// row and the same cap per member), so a password change and its new session commit
/// together.
pub async fn new_session(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    remember: bool,
    now: i64,
) -> Result<String, sqlx::Error> {
    session::insert(tx, member_id, remember, now).await
}

//! The operators' SQL: accounts, sessions, invitations and recovery codes. Tokens are
//! stored hashed (`platform::session::hash_token`), as the members' are.
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;
use app::platform::session::hash_token;

use super::roles::Role;

#[derive(Clone, Debug)]
pub struct OperatorRow {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub lang: String,
    pub password_hash: String,
    pub totp_secret: String,
    pub totp_last_step: i64,
    pub active: bool,
}

const COLUMNS: &str =
    "id, email, name, role, lang, password_hash, totp_secret, totp_last_step, active";

fn row_to_operator(r: &sqlx::any::AnyRow) -> Result<OperatorRow, sqlx::Error> {
    let role: String = r.try_get("role")?;
    Ok(OperatorRow {
        id: r.try_get("id")?,
        email: r.try_get("email")?,
        name: r.try_get("name")?,
        role: Role::parse(&role).unwrap_or(Role::Moderator),
        lang: r.try_get("lang")?,
        password_hash: r.try_get("password_hash")?,
        totp_secret: r.try_get("totp_secret")?,
        totp_last_step: r.try_get("totp_last_step")?,
        active: r.try_get::<i64, _>("active")? != 0,
    })
}

pub async fn by_email(db: &Db, email: &str) -> Result<Option<OperatorRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM operators WHERE email = $1");
    sqlx::query(&sql)
        .bind(email.trim().to_lowercase())
        .fetch_optional(&db.pool)
        .await?
        .as_ref()
        .map(row_to_operator)
        .transpose()
}

pub async fn by_id(db: &Db, id: i64) -> Result<Option<OperatorRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM operators WHERE id = $1");
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .as_ref()
        .map(row_to_operator)
        .transpose()
}

pub async fn list(db: &Db) -> Result<Vec<OperatorRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM operators ORDER BY email");
    sqlx::query(&sql)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(row_to_operator)
        .collect()
}

/// A new operator without a password or second factor yet (they choose both through
/// their set-up link). `None` when the email is taken.
pub async fn insert(
    tx: &mut Transaction<'static, Any>,
    email: &str,
    name: &str,
    role: Role,
    lang: &str,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO operators (email, name, role, lang, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email) DO NOTHING RETURNING id",
    )
    .bind(email.trim().to_lowercase())
    .bind(name)
    .bind(role.as_str())
    .bind(lang)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await
}

/// A set-up link's token for `operator_id`, good until `expires_at` and once.
pub async fn insert_invite(
    tx: &mut Transaction<'static, Any>,
    operator_id: i64,
    token: &str,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO operator_invites (token_hash, operator_id, expires_at) VALUES ($1, $2, $3)",
    )
    .bind(hash_token(token))
    .bind(operator_id)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The operator a set-up link is for, while it is unused and not expired.
pub async fn invite(db: &Db, token: &str, now: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT operator_id FROM operator_invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(hash_token(token))
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Uses the set-up link: true when this call was the one that used it.
pub async fn use_invite(
    tx: &mut Transaction<'static, Any>,
    token: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE operator_invites SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(hash_token(token))
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
}

/// Sets the password, the second factor and fresh recovery codes (the old ones go).
pub async fn set_credentials(
    tx: &mut Transaction<'static, Any>,
    operator_id: i64,
    password_hash: &str,
    totp_secret: &str,
    totp_step: i64,
    recovery_codes: &[String],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE operators SET password_hash = $2, totp_secret = $3, totp_last_step = $4
         WHERE id = $1",
    )
    .bind(operator_id)
    .bind(password_hash)
    .bind(totp_secret)
    .bind(totp_step)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM operator_recovery_codes WHERE operator_id = $1")
        .bind(operator_id)
        .execute(&mut **tx)
        .await?;
    for code in recovery_codes {
        sqlx::query("INSERT INTO operator_recovery_codes (operator_id, code_hash) VALUES ($1, $2)")
            .bind(operator_id)
            .bind(hash_token(code))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// A good second factor: the step remembered (a code is good once).
/// False when another request used this step or a later one first.
pub async fn accept_step(db: &Db, operator_id: i64, step: i64) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE operators SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2",
    )
    .bind(operator_id)
    .bind(step)
    .execute(&db.writes)
    .await?
    .rows_affected()
        == 1)
}

/// Uses a recovery code: true when it was the operator's and unused.
pub async fn use_recovery_code(
    db: &Db,
    operator_id: i64,
    code: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE operator_recovery_codes SET used_at = $3
         WHERE operator_id = $1 AND code_hash = $2 AND used_at IS NULL",
    )
    .bind(operator_id)
    .bind(hash_token(code))
    .bind(now)
    .execute(&db.writes)
    .await?
    .rows_affected()
        == 1)
}

pub async fn unused_recovery_codes(db: &Db, operator_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM operator_recovery_codes WHERE operator_id = $1 AND used_at IS NULL",
    )
    .bind(operator_id)
    .fetch_one(&db.pool)
    .await
}

pub async fn set_active(
    tx: &mut Transaction<'static, Any>,
    operator_id: i64,
    active: bool,
) -> Result<u64, sqlx::Error> {
    let n = sqlx::query("UPDATE operators SET active = $2 WHERE id = $1")
        .bind(operator_id)
        .bind(i64::from(active))
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if !active {
        sqlx::query("DELETE FROM operator_sessions WHERE operator_id = $1")
            .bind(operator_id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(n)
}

pub async fn set_role(
    tx: &mut Transaction<'static, Any>,
    operator_id: i64,
    role: Role,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("UPDATE operators SET role = $2 WHERE id = $1")
        .bind(operator_id)
        .bind(role.as_str())
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

/// The number of active admins with a second factor set: the last one cannot go.
pub async fn active_admins(tx: &mut Transaction<'static, Any>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM operators WHERE role = 'admin' AND active = 1 AND totp_secret <> ''",
    )
    .fetch_one(&mut **tx)
    .await
}

// ------------------------------------------------------------------ sessions

#[derive(Clone, Debug)]
pub struct SessionRow {
    pub operator_id: i64,
    pub xsrf: String,
    pub second_factor: bool,
    pub created_at: i64,
    pub last_seen_at: i64,
}

pub async fn insert_session(
    db: &Db,
    token: &str,
    operator_id: i64,
    xsrf: &str,
    second_factor: bool,
    now: i64,
    ip: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO operator_sessions (token_hash, operator_id, xsrf, second_factor, created_at, last_seen_at, ip)
         VALUES ($1, $2, $3, $4, $5, $5, $6)",
    )
    .bind(hash_token(token))
    .bind(operator_id)
    .bind(xsrf)
    .bind(i64::from(second_factor))
    .bind(now)
    .bind(ip)
    .execute(&db.writes)
    .await?;
    Ok(())
}

pub async fn session(db: &Db, token: &str) -> Result<Option<SessionRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT operator_id, xsrf, second_factor, created_at, last_seen_at FROM operator_sessions WHERE token_hash = $1",
    )
    .bind(hash_token(token))
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(SessionRow {
            operator_id: r.try_get("operator_id")?,
            xsrf: r.try_get("xsrf")?,
            second_factor: r.try_get::<i64, _>("second_factor")? != 0,
            created_at: r.try_get("created_at")?,
            last_seen_at: r.try_get("last_seen_at")?,
        })
    })
    .transpose()
}

pub async fn touch_session(db: &Db, token: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE operator_sessions SET last_seen_at = $2 WHERE token_hash = $1")
        .bind(hash_token(token))
        .bind(now)
        .execute(&db.writes)
        .await?;
    Ok(())
}

pub async fn delete_session(db: &Db, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM operator_sessions WHERE token_hash = $1")
        .bind(hash_token(token))
        .execute(&db.writes)
        .await?;
    Ok(())
}

/// Every operator's id and name, for showing who works what.
pub async fn operator_names(db: &Db) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("SELECT id, name FROM operators ORDER BY name, id")
        .fetch_all(&db.pool)
        .await
}

/// The active operators whose role has `permission` (those a ticket can be given to).
pub async fn operators_with(
    db: &Db,
    permission: super::roles::Permission,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    Ok(list(db)
        .await?
        .into_iter()
        .filter(|o| o.active && super::roles::allows(o.role, permission))
        .map(|o| (o.id, o.name))
        .collect())
}

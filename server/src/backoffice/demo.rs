//! Development demo data: one operator per role, with the published password and TOTP
//! secret of `docs/backoffice.md`. Like the demo members, a production server refuses to
//! start while they exist (`startup::demo_policy`).
use app::platform::db::Db;

use super::roles::Role;

pub const PASSWORD: &str = "Rosace-operator-2026";
/// Base32, as an authenticator app takes it ("Rosace demo TOTP!!!!" in ASCII).
pub const TOTP_SECRET: &str = "KJXXGYLDMUQGIZLNN4QFIT2UKAQSCIJB";

pub const OPERATORS: [(&str, &str, Role); 4] = [
    ("admin@rosace.test", "Ada Admin", Role::Admin),
    ("merch@rosace.test", "Marc Merchandiser", Role::Merchandiser),
    ("care@rosace.test", "Camille Care", Role::CustomerCare),
    ("moderator@rosace.test", "Mo Moderator", Role::Moderator),
];

/// Adds the demo operators that are missing (existing ones are left as they are).
pub async fn ensure(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    let present: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM operators WHERE email LIKE '%@rosace.test'")
            .fetch_one(&db.pool)
            .await?;
    if present >= OPERATORS.len() as i64 {
        return Ok(());
    }
    let hash = app::platform::password::hash_async(PASSWORD)
        .await
        .map_err(sqlx::Error::Protocol)?;
    for (email, name, role) in OPERATORS {
        sqlx::query(
            "INSERT INTO operators (email, name, role, lang, password_hash, totp_secret, created_at)
             VALUES ($1, $2, $3, 'en', $4, $5, $6) ON CONFLICT (email) DO NOTHING",
        )
        .bind(email)
        .bind(name)
        .bind(role.as_str())
        .bind(&hash)
        .bind(TOTP_SECRET)
        .bind(now)
        .execute(&db.writes)
        .await?;
    }
    Ok(())
}

/// Whether any demo operator (published credentials) can sign in on this database.
pub async fn present(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM operators WHERE email LIKE '%@rosace.test' AND totp_secret = $1 AND active = 1",
    )
    .bind(TOTP_SECRET)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}

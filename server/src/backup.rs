//! Online backup of the embedded SQLite database: `server backup <file>` (or
//! `scripts/backup.sh`) while the shop serves.
//!
//! `VACUUM INTO` copies the database as one read transaction sees it: with the WAL the shop
//! keeps writing meanwhile, and the copy holds exactly the transactions committed before it
//! began (an order and its payment are one transaction, so both or neither). The copy is a
//! plain database file, compacted, with no WAL beside it: restoring is putting it in place
//! of `rosace.db` while the shop is stopped. SQLite's own `.backup` would do the same but
//! needs the sqlite3 program, which a server may not have; this needs only the shop.
//! PostgreSQL has its own tools (`pg_dump`, base backups with WAL archiving): see the README.
use std::path::Path;

use app::platform::db::{Backend, Db};

#[derive(Debug)]
pub enum BackupError {
    /// The database is PostgreSQL: use its tools.
    NotSqlite,
    /// The destination exists; a backup never overwrites.
    Exists,
    Db(sqlx::Error),
}

impl std::fmt::Display for BackupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackupError::NotSqlite => write!(
                f,
                "the database is PostgreSQL: back it up with pg_dump or a base backup (README, Backups)"
            ),
            BackupError::Exists => write!(f, "the destination exists; a backup never overwrites"),
            BackupError::Db(e) => write!(f, "backup failed: {e}"),
        }
    }
}

/// Writes a consistent copy of the database to `dest` (a new file).
pub async fn sqlite_online_backup(db: &Db, dest: &Path) -> Result<(), BackupError> {
    if db.backend != Backend::Sqlite {
        return Err(BackupError::NotSqlite);
    }
    if dest.exists() {
        return Err(BackupError::Exists);
    }
    if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| BackupError::Db(sqlx::Error::Io(e)))?;
    }
    sqlx::query("VACUUM INTO $1")
        .bind(dest.to_string_lossy().into_owned())
        .execute(&db.pool)
        .await
        .map_err(BackupError::Db)?;
    Ok(())
}

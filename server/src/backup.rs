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
//!
//! A backup holds every member's name, address and help attachments, and their bank
//! details sealed by the wallet key: it is written readable by its owner only, in folders
//! it makes the same way, and never inside a folder that holds the wallet key file (a copy
//! of that folder would carry the sealed data and its key together; review N9).
use std::path::Path;

use app::platform::db::{Backend, Db};

#[derive(Debug)]
pub enum BackupError {
    /// The database is PostgreSQL: use its tools.
    NotSqlite,
    /// The destination exists; a backup never overwrites.
    Exists,
    /// The destination is inside this folder, which holds the wallet key file.
    BesideKey(std::path::PathBuf),
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
            BackupError::BesideKey(dir) => write!(
                f,
                "{} holds the wallet key ({}): write backups to a folder outside it, so that a copy \
                 of one never carries the other",
                dir.display(),
                app::wallet::crypto::KEY_FILE
            ),
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
    let io = |e| BackupError::Db(sqlx::Error::Io(e));
    let absolute = std::path::absolute(dest).map_err(io)?;
    if let Some(dir) = absolute
        .ancestors()
        .skip(1)
        .find(|dir| dir.join(app::wallet::crypto::KEY_FILE).is_file())
    {
        return Err(BackupError::BesideKey(dir.to_path_buf()));
    }
    if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
        private_dir_builder().create(dir).map_err(io)?;
    }
    // SQLite writes into an empty file it finds and keeps that file's mode: made here,
    // owner-only, before the copy starts.
    private_file(dest).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => BackupError::Exists,
        _ => io(e),
    })?;
    sqlx::query("VACUUM INTO $1")
        .bind(dest.to_string_lossy().into_owned())
        .execute(&db.pool)
        .await
        .map_err(|e| {
            // No half-made file left behind to block the next attempt.
            let _ = std::fs::remove_file(dest);
            BackupError::Db(e)
        })?;
    Ok(())
}

fn private_dir_builder() -> std::fs::DirBuilder {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
}

fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

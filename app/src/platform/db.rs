//! One pool over SQLite (default, embedded) or PostgreSQL (`DATABASE_URL=postgres://…`).
//! Queries use `$N` placeholders, which both engines accept.
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
}

impl Db {
    /// A write transaction. On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`): a
    /// deferred one that reads first and then writes fails at once with "database is locked"
    /// when another connection wrote in between (found by scripts/fuzz.sh with two clients),
    /// where an immediate one waits its turn (`busy_timeout`). PostgreSQL: a plain `BEGIN`.
    pub async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let options = AnyConnectOptions::from_str(url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the single writer; the busy timeout makes
                        // writers queue instead of failing under load.
                        conn.execute(
                            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; \
                             PRAGMA busy_timeout=10000; PRAGMA foreign_keys=ON;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Db { pool, backend })
    }

    pub async fn migrate(&self) -> Result<(), sqlx::migrate::MigrateError> {
        match self.backend {
            Backend::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&self.pool).await,
            Backend::Postgres => {
                sqlx::migrate!("./migrations/postgres")
                    .run(&self.pool)
                    .await
            }
        }
    }
}

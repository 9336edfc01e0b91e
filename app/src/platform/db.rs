//! One pool over SQLite (default, embedded) or PostgreSQL (`DATABASE_URL=postgres://…`).
//! Queries use `$N` placeholders, which both engines accept.
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Connection, Executor};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// Where writes go. SQLite: its one write connection, so that writers wait their turn
    /// here, in arrival order, instead of in SQLite's busy handler, which sleeps (up to
    /// 100 ms a time) while holding a connection of the pool that readers then lack: at a
    /// sale opening, reads waited for connections behind sleeping writers. PostgreSQL:
    /// the pool itself (row locks order its writers).
    pub writes: AnyPool,
    /// Where contended write transactions ([`Db::begin_contended`]) run: those that wait
    /// on a lock every buyer of a sale opening takes (the scarce option's stock row, the
    /// checkout line's lock). SQLite: the write connection, as every write. PostgreSQL: a
    /// few connections of their own (half of the shop's), so that those transactions
    /// wait here, in arrival order, instead of holding the connections the pages read
    /// with while they wait on the lock (before: every page's p99 near a second at a sale
    /// opening, the home's included, `scripts/bench/bench-sale-opening.sh postgres`).
    pub contended: AnyPool,
}

impl Db {
    /// A write transaction. On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`): a
    /// deferred one that reads first and then writes fails at once with "database is locked"
    /// when another connection wrote in between (found by scripts/fuzz.sh with two clients),
    /// where an immediate one waits its turn (`busy_timeout`). PostgreSQL: a plain `BEGIN`.
    pub async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        begin_on(&self.writes, self.backend).await
    }

    /// A write transaction that takes a lock every buyer of a sale opening waits on (see
    /// [`Db::contended`]); otherwise as [`Db::begin`]. It must not be started while the
    /// caller holds another contended transaction (the pool is small).
    pub async fn begin_contended(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        begin_on(&self.contended, self.backend).await
    }

    /// `max_connections` in all: on PostgreSQL half of them (at least one) for the
    /// contended transactions and the rest for everything else.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        Db::connect_split(url, max_connections, contended_share(max_connections)).await
    }

    /// `max_connections` in all, `contended` of them for the contended transactions
    /// (PostgreSQL; SQLite has its one write connection for every write).
    pub async fn connect_split(
        url: &str,
        max_connections: u32,
        contended: u32,
    ) -> Result<Db, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let options = AnyConnectOptions::from_str(url)?;
        let contended = contended.clamp(1, max_connections.max(2) - 1);
        let shared = match backend {
            Backend::Sqlite => max_connections,
            Backend::Postgres => max_connections.saturating_sub(contended).max(1),
        };
        let pool = pool_options(backend)
            .max_connections(shared)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await?;
        // A writer may wait behind a whole sale opening's writes: a longer timeout.
        let dedicated = |size: u32| {
            pool_options(backend)
                .max_connections(size)
                .min_connections(1)
                .acquire_timeout(Duration::from_secs(30))
                .connect_with(options.clone())
        };
        let (writes, contended) = match backend {
            Backend::Sqlite => {
                let writes = dedicated(1).await?;
                (writes.clone(), writes)
            }
            Backend::Postgres => (pool.clone(), dedicated(contended).await?),
        };
        Ok(Db {
            pool,
            backend,
            writes,
            contended,
        })
    }

    pub async fn migrate(&self) -> Result<(), sqlx::migrate::MigrateError> {
        match self.backend {
            Backend::Sqlite => migrations::sqlite().run(&self.pool).await,
            Backend::Postgres => {
                migrations::postgres().run(&self.pool).await?;
                // Code, not schema: replaced as a whole on every start (see the file).
                sqlx::raw_sql(include_str!("../../migrations/routines/checkout_line.sql"))
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }
        }
    }
}

/// How many of `max_connections` the contended transactions get by default on PostgreSQL:
/// half. At a 5,000-member sale opening (`scripts/bench/bench-sale-opening.sh postgres`,
/// 16 connections) 8 of them gave 51.4 / 39.5 purchases/s against 44.0 / 35.1 with 4, and
/// pages the same p99 (243 ms) with the 8 left.
pub fn contended_share(max_connections: u32) -> u32 {
    (max_connections / 2).max(1)
}

/// A write transaction on `pool` (SQLite: `BEGIN IMMEDIATE`) that a caller going away
/// cannot leave half-begun. sqlx 0.8.6 starts a transaction in two steps and counts it only
/// after the second: a caller dropped in between (a client that aborts its request, a
/// timeout) hands the connection back inside a transaction it does not know of. On SQLite
/// that connection then keeps the write lock while it idles in the pool (the
/// shop locked for six minutes); on PostgreSQL its next user's writes run inside a
/// transaction nobody commits. So the begin runs in a task of its own, which finishes even
/// when the caller is gone: the transaction it makes is then dropped, and rolled back, as
/// any unfinished one is. `server/tests/api/no_wedge.rs` and `db/tests.rs` cancel begins at
/// random points under load.
pub async fn begin_on(
    pool: &AnyPool,
    backend: Backend,
) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
    let pool = pool.clone();
    let begin = tokio::spawn(async move {
        match backend {
            Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => pool.begin().await,
        }
    });
    begin.await.map_err(|_| sqlx::Error::WorkerCrashed)?
}

/// The options every pool of the shop starts from (the main one, the cart's SQLite write
/// connection). SQLite: WAL lets readers run beside the single writer; the busy timeout
/// makes writers queue instead of failing under load; the database file is read through a
/// memory map (up to 256 MiB): each write makes every other connection drop its page
/// cache, and without the map each page read again is a `read` call and a copy (refused
/// adds at a sale opening, one session read each: 9,300-9,600 req/s before, 10,900-11,400
/// after, `scripts/bench/bench-cart.sh`). On both engines a connection that
/// comes back to the pool inside a transaction is closed (which rolls the transaction back)
/// instead of handed out again: a second guard beside [`begin_on`], for any other way a
/// transaction could be left open.
pub fn pool_options(backend: Backend) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    conn.execute(
                        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; \
                         PRAGMA busy_timeout=10000; PRAGMA foreign_keys=ON; \
                         PRAGMA mmap_size=268435456;",
                    )
                    .await?;
                }
                Ok(())
            })
        })
        .before_acquire(|conn, _meta| Box::pin(async move { Ok(!conn.is_in_transaction()) }))
}

mod migrations;
#[cfg(test)]
mod tests;

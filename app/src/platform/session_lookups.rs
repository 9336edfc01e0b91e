//! Session lookups read together. Every request of a signed-in member first reads their
//! session; at a sale opening that is one query per request, each a hand-off to a database
//! thread (SQLite) or a round trip and a pooled connection held (PostgreSQL), and it was
//! the largest share of an add's cost after the add's own batch (issue #29), and on
//! PostgreSQL what a member's page waited for. Lookups now wait in a queue; a reader
//! takes the ones waiting (up to [`BATCH`]) and answers them with one query, the way the
//! cart's add writer groups adds. A kind of lookup may read more of the member's values in
//! the same query ([`SessionLookups::start_with`]: a page view's). Nothing is cached: every
//! answer comes from a read made after its request arrived, so a session ended a moment ago
//! is never taken for a live one. The same lookup, alone, is
//! [`super::session::member_with`].
use std::collections::HashMap;
use std::sync::Arc;

use sqlx::any::AnyRow;
use sqlx::Row;
use tokio::sync::{mpsc, oneshot, Semaphore};

use super::db::Db;
use super::session::{hash_token, idle_lifetimes, is_well_formed, member_of_row, SessionMember};
use super::sql;

/// Most lookups one query answers.
const BATCH: usize = 128;
/// Queries in flight at once: while they run, the next lookups gather into a larger batch.
const IN_FLIGHT: usize = 4;

type Answer<T> = Result<Option<(SessionMember, T)>, String>;

/// How a kind of lookup reads the member's values beside the session: a select list over
/// `m` (the member's row) and `$2` (now), starting with a comma, and what takes them from
/// a row (as [`super::session::member_with`]'s).
pub type ReadValues<T> = fn(&AnyRow) -> Result<T, sqlx::Error>;

struct Lookup<T> {
    hash: String,
    now: i64,
    reply: oneshot::Sender<Answer<T>>,
}

/// The queue of one reader task.
#[derive(Debug)]
pub struct SessionLookups<T = ()> {
    queue: mpsc::Sender<Lookup<T>>,
}

impl<T> Clone for SessionLookups<T> {
    fn clone(&self) -> Self {
        SessionLookups {
            queue: self.queue.clone(),
        }
    }
}

impl SessionLookups<()> {
    /// Starts the reader task of plain lookups (the session's member alone) on `db`.
    pub fn start(db: Db) -> SessionLookups<()> {
        SessionLookups::start_with(db, String::new(), |_| Ok(()))
    }

    /// The member of a live session, as [`super::session::member_for_token`] answers it.
    pub async fn member(
        &self,
        token: &str,
        now: i64,
    ) -> Result<Option<SessionMember>, sqlx::Error> {
        Ok(self.member_with(token, now).await?.map(|(m, ())| m))
    }
}

impl<T: Clone + Send + 'static> SessionLookups<T> {
    /// Starts a reader task (inside a Tokio runtime) whose lookups also read `columns`
    /// with `read` (see [`ReadValues`]).
    pub fn start_with(db: Db, columns: String, read: ReadValues<T>) -> SessionLookups<T> {
        let (queue, lookups) = mpsc::channel(4096);
        let reader = Reader { db, columns, read };
        tokio::spawn(run(Arc::new(reader), lookups));
        SessionLookups { queue }
    }

    /// The member of a live session and their values, as
    /// [`super::session::member_with`] answers them.
    pub async fn member_with(
        &self,
        token: &str,
        now: i64,
    ) -> Result<Option<(SessionMember, T)>, sqlx::Error> {
        if !is_well_formed(token) {
            return Ok(None);
        }
        let (reply, answer) = oneshot::channel();
        let lookup = Lookup {
            hash: hash_token(token),
            now,
            reply,
        };
        let stopped = || sqlx::Error::Protocol("the session reader stopped".into());
        self.queue.send(lookup).await.map_err(|_| stopped())?;
        answer
            .await
            .map_err(|_| stopped())?
            .map_err(sqlx::Error::Protocol)
    }
}

struct Reader<T> {
    db: Db,
    columns: String,
    read: ReadValues<T>,
}

async fn run<T: Clone + Send + 'static>(
    reader: Arc<Reader<T>>,
    mut lookups: mpsc::Receiver<Lookup<T>>,
) {
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(first) = lookups.recv().await {
        // A free slot first, then the batch: lookups that arrive while every slot is busy
        // join it.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let batch = super::group_commit::with_waiting(first, &mut lookups, BATCH);
        let reader = reader.clone();
        tokio::spawn(async move {
            answer(&reader, batch).await;
            drop(slot);
        });
    }
}

/// Reads the batch's sessions in one query and answers each lookup; then slides the idle
/// expiry of those last seen a minute ago or more, in one statement.
async fn answer<T: Clone>(reader: &Reader<T>, batch: Vec<Lookup<T>>) {
    // The latest clock of the batch: a session that ends within the batch's moment counts
    // as ended for all of it (stricter than each lookup's own clock, never looser).
    let now = batch.iter().map(|l| l.now).max().unwrap_or(0);
    let found = match read(reader, &batch, now).await {
        Ok(found) => found,
        Err(e) => {
            let message = e.to_string();
            for l in batch {
                let _ = l.reply.send(Err(message.clone()));
            }
            return;
        }
    };
    let mut due = Vec::new();
    for l in batch {
        let row = found.get(&l.hash);
        if let Some(r) = row {
            if now - r.last_seen >= 60 && !due.contains(&l.hash) {
                due.push(l.hash.clone());
            }
        }
        let _ = l
            .reply
            .send(Ok(row.map(|r| (r.member.clone(), r.values.clone()))));
    }
    if !due.is_empty() {
        if let Err(e) = touch(&reader.db, &due, now).await {
            tracing::warn!(error = %e, sessions = due.len(), "sessions' idle expiry not slid");
        }
    }
}

struct Found<T> {
    member: SessionMember,
    values: T,
    last_seen: i64,
}

async fn read<T>(
    reader: &Reader<T>,
    batch: &[Lookup<T>],
    now: i64,
) -> Result<HashMap<String, Found<T>>, sqlx::Error> {
    let db = &reader.db;
    let query = format!(
        "SELECT s.token_hash, m.id, m.first_name, m.site_id, s.last_seen_at{} FROM sessions s
           JOIN members m ON m.id = s.member_id
          WHERE {} AND s.expires_at > $2 AND s.idle_expires_at > $2 AND m.status = 1",
        reader.columns,
        sql::in_hex_keys(db.backend, "s.token_hash")
    );
    let rows = sqlx::query(&query)
        .bind(sql::hex_keys(
            db.backend,
            batch.iter().map(|l| l.hash.as_str()),
        ))
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    let mut found = HashMap::with_capacity(rows.len());
    for r in rows {
        let hash: String = r.try_get("token_hash")?;
        let member = member_of_row(&r, hash.clone())?;
        let last_seen = r.try_get("last_seen_at")?;
        let values = (reader.read)(&r)?;
        found.insert(
            hash,
            Found {
                member,
                values,
                last_seen,
            },
        );
    }
    Ok(found)
}

/// The idle expiry of these sessions starts again at `now` (each by its own lifetime).
async fn touch(db: &Db, hashes: &[String], now: i64) -> Result<(), sqlx::Error> {
    let (remembered, plain) = idle_lifetimes();
    let query = format!(
        "UPDATE sessions SET last_seen_at = $2,
                idle_expires_at = $2 + CASE WHEN remember = 1 THEN $3 ELSE $4 END
          WHERE {}",
        sql::in_hex_keys(db.backend, "token_hash")
    );
    sqlx::query(&query)
        .bind(sql::hex_keys(db.backend, hashes.iter().map(String::as_str)))
        .bind(now)
        .bind(remembered)
        .bind(plain)
        .execute(&db.writes)
        .await?;
    Ok(())
}

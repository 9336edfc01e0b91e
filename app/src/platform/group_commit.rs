//! Group commit of small writes that every page view of a kind makes (experiment
//! exposures, a search's recent query). One write transaction per view made the writes
//! queue up behind each other on SQLite's single writer; views now hand their write to one
//! writer task, which runs all that are waiting in one transaction. Each view still waits
//! for its own commit, so what is recorded, and when, is what it was.
use std::future::Future;
use std::pin::Pin;

use sqlx::{Any, Transaction};
use tokio::sync::{mpsc, oneshot};

use crate::platform::db::{Backend, Db};

/// A write that a [`GroupWriter`] runs inside a shared transaction.
pub trait GroupWrite: Send + Sync + 'static {
    /// What the write's failure is called in the log.
    const NAME: &'static str;

    /// Writes a batch inside `tx`, with the result of running its writes one after the
    /// other in order. A fixed number of statements for the whole batch, not a few per
    /// write: each statement is a round trip to the database (or a hand-off to SQLite's
    /// worker thread), and the views wait for the batch's commit.
    fn write_all<'a>(
        backend: Backend,
        batch: &'a [&'a Self],
        tx: &'a mut Transaction<'static, Any>,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>>;
}

type Reply = oneshot::Sender<Result<(), String>>;

/// The queue of one writer task.
#[derive(Debug)]
pub struct GroupWriter<W: GroupWrite> {
    queue: mpsc::Sender<(W, Reply)>,
}

impl<W: GroupWrite> Clone for GroupWriter<W> {
    fn clone(&self) -> Self {
        GroupWriter {
            queue: self.queue.clone(),
        }
    }
}

/// Most writes one transaction carries.
const BATCH: usize = 256;

impl<W: GroupWrite> GroupWriter<W> {
    /// Starts the writer task on `db` (inside a Tokio runtime).
    pub fn start(db: Db) -> GroupWriter<W> {
        let (queue, jobs) = mpsc::channel(4096);
        tokio::spawn(run(db, jobs));
        GroupWriter { queue }
    }

    /// Runs `write`; returns once it is committed.
    pub async fn write(&self, write: W) -> Result<(), String> {
        let (reply, done) = oneshot::channel();
        self.queue
            .send((write, reply))
            .await
            .map_err(|_| format!("the {} writer stopped", W::NAME))?;
        done.await
            .map_err(|_| format!("the {} writer dropped the write", W::NAME))?
    }
}

/// `first` and what else is waiting in `queue` now, at most `max` in all: one batch of a
/// group-commit writer (this one's, and the cart's add writer).
pub fn with_waiting<T>(first: T, queue: &mut mpsc::Receiver<T>, max: usize) -> Vec<T> {
    let mut batch = vec![first];
    while batch.len() < max {
        match queue.try_recv() {
            Ok(j) => batch.push(j),
            Err(_) => break,
        }
    }
    batch
}

async fn run<W: GroupWrite>(db: Db, mut jobs: mpsc::Receiver<(W, Reply)>) {
    while let Some(first) = jobs.recv().await {
        let batch = with_waiting(first, &mut jobs, BATCH);
        let writes: Vec<&W> = batch.iter().map(|(w, _)| w).collect();
        if let Err(e) = commit(&db, &writes).await {
            // One bad write must not fail the others: each on its own, as before.
            tracing::warn!(error = %e, writes = batch.len(), "{} batch failed; one by one", W::NAME);
            for (w, reply) in batch {
                let _ = reply.send(commit(&db, &[&w]).await.map_err(|e| e.to_string()));
            }
            continue;
        }
        for (_, reply) in batch {
            let _ = reply.send(Ok(()));
        }
    }
}

async fn commit<W: GroupWrite>(db: &Db, writes: &[&W]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    W::write_all(db.backend, writes, &mut tx).await?;
    tx.commit().await
}

//! Group commit of page-view exposures. Every page view of a member (and of a visitor who
//! accepted the analytics cookies) records its experiments' exposures before the page
//! renders: one write transaction per view made the writes queue up behind each other on
//! SQLite's single writer. Views now hand their exposures to one writer task, which
//! records all that are waiting in one transaction; each view still waits for its own
//! commit, so what is recorded, and when, is what it was.
use tokio::sync::{mpsc, oneshot};

use super::store;
use crate::platform::db::Db;

/// One page view's exposures (see `service::page_view`).
#[derive(Clone, Debug)]
pub struct Exposure {
    pub site_id: u16,
    pub visitor: String,
    pub member_id: Option<i64>,
    pub assigned: Vec<(String, String)>,
    pub now: i64,
    /// The browser's anonymous id, linked to the member now signed in.
    pub link_anonymous: Option<String>,
}

type Reply = oneshot::Sender<Result<(), String>>;

/// The queue of the writer task.
#[derive(Clone, Debug)]
pub struct ExposureWriter {
    queue: mpsc::Sender<(Exposure, Reply)>,
}

/// Most views one transaction records.
const BATCH: usize = 256;

impl ExposureWriter {
    /// Starts the writer task on `db` (inside a Tokio runtime).
    pub fn start(db: Db) -> ExposureWriter {
        let (queue, jobs) = mpsc::channel(4096);
        tokio::spawn(run(db, jobs));
        ExposureWriter { queue }
    }

    /// Records `exposure`; returns once it is committed.
    pub async fn record(&self, exposure: Exposure) -> Result<(), String> {
        let (reply, done) = oneshot::channel();
        self.queue
            .send((exposure, reply))
            .await
            .map_err(|_| "the exposure writer stopped".to_string())?;
        done.await
            .map_err(|_| "the exposure writer dropped the view".to_string())?
    }
}

async fn run(db: Db, mut jobs: mpsc::Receiver<(Exposure, Reply)>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match jobs.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let views: Vec<&Exposure> = batch.iter().map(|(e, _)| e).collect();
        if let Err(e) = write(&db, &views).await {
            // One bad view must not fail the others: each on its own, as before.
            tracing::warn!(error = %e, views = batch.len(), "exposure batch failed; one by one");
            for (exposure, reply) in batch {
                let _ = reply.send(write(&db, &[&exposure]).await.map_err(|e| e.to_string()));
            }
            continue;
        }
        for (_, reply) in batch {
            let _ = reply.send(Ok(()));
        }
    }
}

async fn write(db: &Db, views: &[&Exposure]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for e in views {
        store::expose(
            &mut tx,
            e.site_id,
            &e.visitor,
            e.member_id,
            &e.assigned,
            e.now,
        )
        .await?;
        if let (Some(member), Some(anon)) = (e.member_id, &e.link_anonymous) {
            store::link_member(&mut tx, anon, member).await?;
        }
    }
    tx.commit().await
}

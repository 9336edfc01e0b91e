//! The add path's writes: a batching writer (group commit) per process, on both engines.
//! Adds wait in a queue; the writer takes the ones waiting (up to [`ADD_BATCH`]) and runs
//! them together in one transaction with a fixed number of statements, whatever the
//! batch's size ([`sql`]): it reads the members' carts and lines and the options' units
//! left, decides every add in arrival order as if it ran alone after the ones before it
//! ([`decide`]), then writes the accepted adds' lines, cart rows and stock moves at once.
//! A refused add writes nothing. The stock row is updated last (a conditional update
//! that must find the units the decision counted on), so on PostgreSQL its lock is held
//! only until the commit that follows.
mod decide;
mod sql;

use super::error::{CartFailure, CartResult};
use super::member::{AddLine, AddOptions, Member};
use super::rules::CartError;
use super::settings::CartSettings;
use super::store::OptionInfo;
use crate::model::cart::Cart;
use crate::platform::db::Db;

/// An add waiting for the writer.
pub struct AddJob {
    pub m: Member,
    pub lines: Vec<AddLine>,
    pub infos: Vec<OptionInfo>,
    pub per_product: Vec<(i64, i64)>,
    pub cart_type: String,
    pub opts: AddOptions,
    pub now: i64,
}

/// An add's answer: accepted with the member's cart as it is after the batch (`None` when
/// that read failed: the add is done, the caller reads the cart itself), or refused.
pub type AddReply = tokio::sync::oneshot::Sender<CartResult<Option<Cart>>>;

/// Most adds one writer transaction carries (group commit).
const ADD_BATCH: usize = 128;

/// The add writer: takes the adds that are waiting and runs them in one transaction on
/// its own connection (`db`: SQLite's one write connection, or a PostgreSQL connection of
/// its own). Each batch runs in a task of its own: should it panic, its adds are answered
/// with an error (their reply channels are dropped) and the writer goes on with the next
/// ones, instead of every later add waiting for a writer that is gone. `reads` is the
/// shop's pool, where the batch's answers (the members' carts) are read in one query.
pub async fn add_writer(
    db: Db,
    reads: Db,
    settings: CartSettings,
    mut queue: tokio::sync::mpsc::Receiver<(AddJob, AddReply)>,
) {
    while let Some(first) = queue.recv().await {
        let jobs = crate::platform::group_commit::with_waiting(first, &mut queue, ADD_BATCH);
        let (db, reads, settings) = (db.clone(), reads.clone(), settings.clone());
        let batch = tokio::spawn(async move { run_and_answer(&db, reads, &settings, jobs).await });
        if let Err(e) = batch.await {
            tracing::error!(error = %e, "cart add batch ended without answers");
        }
    }
}

/// Runs a batch and answers each add. When the batch's transaction fails as a whole on a
/// database error (a constraint one add broke, a deadlock again), its adds are run again
/// one by one, so that one add's failure is its own. Any other error
/// (the connection is gone, the pool timed out) is every add's answer at once: running
/// them again one by one would only make each wait as long again.
async fn run_and_answer(
    db: &Db,
    reads: Db,
    settings: &CartSettings,
    jobs: Vec<(AddJob, AddReply)>,
) {
    let refs: Vec<&AddJob> = jobs.iter().map(|(j, _)| j).collect();
    let mut outcome = sql::run_batch(db, settings, &refs).await;
    if outcome.as_ref().is_err_and(is_transient) {
        // PostgreSQL chose this batch to end a deadlock (with the sweeper, say, which
        // takes stock rows before cart rows) or a serialization failure: the other
        // transaction has gone on meanwhile, so the batch as a whole runs once more.
        outcome = sql::run_batch(db, settings, &refs).await;
    }
    let results: Vec<CartResult<()>> = match outcome {
        Ok(results) => results
            .into_iter()
            .map(|r| r.map_err(CartFailure::Cart))
            .collect(),
        Err(e @ sqlx::Error::Database(_)) if refs.len() > 1 => {
            tracing::warn!(error = %e, adds = refs.len(), "cart add batch failed: adds run one by one");
            let mut out = Vec::with_capacity(refs.len());
            for job in &refs {
                out.push(match sql::run_batch(db, settings, &[job]).await {
                    Ok(mut r) => r
                        .pop()
                        .unwrap_or(Err(CartError::Unexpected))
                        .map_err(CartFailure::Cart),
                    Err(e) => Err(CartFailure::Db(e)),
                });
            }
            out
        }
        Err(e) => {
            tracing::error!(error = %e, adds = refs.len(), "cart add batch failed");
            let message = e.to_string();
            let mut out: Vec<CartResult<()>> = (1..refs.len())
                .map(|_| Err(CartFailure::Db(sqlx::Error::Protocol(message.clone()))))
                .collect();
            out.push(Err(CartFailure::Db(e)));
            out
        }
    };
    // The accepted adds are answered with their members' carts, read together in one
    // query on the shop's pool (one query per add was half of what an add cost), in a task
    // of their own: the writer goes on with the next batch meanwhile.
    let mut members: Vec<i64> = jobs
        .iter()
        .zip(&results)
        .filter(|(_, r)| r.is_ok())
        .map(|((job, _), _)| job.m.id)
        .collect();
    members.sort_unstable();
    members.dedup();
    let now = jobs.iter().map(|(job, _)| job.now).max().unwrap_or(0);
    tokio::spawn(async move {
        let carts = if members.is_empty() {
            std::collections::HashMap::new()
        } else {
            super::store::views(&reads, &members, now)
                .await
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "carts after an add batch not read");
                    std::collections::HashMap::new()
                })
        };
        for ((job, reply), r) in jobs.into_iter().zip(results) {
            let _ = reply.send(r.map(|()| carts.get(&job.m.id).cloned()));
        }
    });
}

/// A failure that says nothing about the batch's adds: a deadlock (`40P01`) or a
/// serialization failure (`40001`), PostgreSQL's SQLSTATEs.
fn is_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => d.code().is_some_and(|c| c == "40P01" || c == "40001"),
        _ => false,
    }
}

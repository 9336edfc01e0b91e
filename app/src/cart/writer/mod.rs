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

use super::rules::CartError;
use super::service::{AddLine, AddOptions, CartFailure, CartResult, CartSettings, Member};
use super::store::OptionInfo;
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

pub type AddReply = tokio::sync::oneshot::Sender<CartResult<()>>;

/// Most adds one writer transaction carries (group commit).
const ADD_BATCH: usize = 128;

/// The add writer: takes the adds that are waiting and runs them in one transaction on
/// its own connection (`db`: SQLite's one write connection, or a PostgreSQL connection of
/// its own). When a batch fails as a whole (a deadlock with another transaction, a
/// constraint), its adds are run again one by one, so one add's failure is its own.
pub async fn add_writer(
    db: Db,
    settings: CartSettings,
    mut queue: tokio::sync::mpsc::Receiver<(AddJob, AddReply)>,
) {
    while let Some(first) = queue.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < ADD_BATCH {
            match queue.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        let refs: Vec<&AddJob> = jobs.iter().map(|(j, _)| j).collect();
        let results: Vec<CartResult<()>> = match sql::run_batch(&db, &settings, &refs).await {
            Ok(results) => results
                .into_iter()
                .map(|r| r.map_err(CartFailure::Cart))
                .collect(),
            Err(e) if refs.len() > 1 => {
                tracing::warn!(error = %e, adds = refs.len(), "cart add batch failed: adds run one by one");
                let mut out = Vec::with_capacity(refs.len());
                for job in &refs {
                    out.push(match sql::run_batch(&db, &settings, &[job]).await {
                        Ok(mut r) => r
                            .pop()
                            .unwrap_or(Err(CartError::Unexpected))
                            .map_err(CartFailure::Cart),
                        Err(e) => Err(CartFailure::Db(e)),
                    });
                }
                out
            }
            Err(e) => vec![Err(CartFailure::Db(e))],
        };
        for ((_, reply), r) in jobs.into_iter().zip(results) {
            let _ = reply.send(r);
        }
    }
}

//! Nothing wedges under load, at the lowest level: on a real SQLite file whose
//! write lock another connection takes now and then, write transactions are started and
//! their callers dropped at random points (a client that goes away). Afterwards no pooled
//! connection is inside a transaction and every write starts at once.
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sqlx::{Connection, Executor};

use super::Db;

/// Runs `fut` until it has been pending `pendings + 1` times, then drops it: a caller
/// cancelled at that await point. `None` when it was dropped before it finished.
async fn cancel_after<F: Future>(fut: F, pendings: u32) -> Option<F::Output> {
    let mut fut = std::pin::pin!(fut);
    let mut left = pendings;
    std::future::poll_fn(|cx| match fut.as_mut().poll(cx) {
        Poll::Ready(out) => Poll::Ready(Some(out)),
        Poll::Pending if left == 0 => Poll::Ready(None),
        Poll::Pending => {
            left -= 1;
            Poll::Pending
        }
    })
    .await
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const POOL: u32 = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_begins_leave_no_connection_in_a_transaction() {
    let dir = std::env::temp_dir().join(format!("rosace-db-{:016x}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    let _cleanup = TempDir(dir.clone());
    let url = format!("sqlite://{}/wedge.db?mode=rwc", dir.display());
    let db = Db::connect(&url, POOL).await.unwrap();
    db.pool
        .execute("CREATE TABLE t (n INTEGER NOT NULL)")
        .await
        .unwrap();
    let seed: u64 = rand::random();
    eprintln!("seed {seed}");

    // Another writer of the file (outside the pool) takes the write lock now and then, so
    // the pool's `BEGIN IMMEDIATE`s wait for it (busy_timeout), as under load.
    let stop = Arc::new(AtomicBool::new(false));
    let holder = tokio::spawn({
        let (url, stop) = (url.clone(), stop.clone());
        async move {
            let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
            conn.execute("PRAGMA busy_timeout=200").await.unwrap();
            let mut rng = StdRng::seed_from_u64(seed);
            while !stop.load(Ordering::Relaxed) {
                // A wedged pool makes these fail: the checks below say why.
                if conn.execute("BEGIN IMMEDIATE").await.is_ok() {
                    let _ = conn.execute("INSERT INTO t VALUES (0)").await;
                    tokio::time::sleep(Duration::from_micros(rng.gen_range(0..1500))).await;
                    let _ = conn.execute("COMMIT").await;
                }
                tokio::time::sleep(Duration::from_micros(rng.gen_range(0..1500))).await;
            }
        }
    });

    // Callers that start a write and go away at a random await point or after a random
    // delay; the ones that get their transaction write, then commit or drop it.
    let mut storm = tokio::task::JoinSet::new();
    for n in 0..8u64 {
        let db = db.clone();
        let mut rng = StdRng::seed_from_u64(seed ^ (n + 1));
        storm.spawn(async move {
            for _ in 0..150 {
                let begun = if rng.gen_bool(0.7) {
                    cancel_after(db.begin(), rng.gen_range(0..5)).await
                } else {
                    let delay = Duration::from_micros(rng.gen_range(0..3000));
                    tokio::time::timeout(delay, db.begin()).await.ok()
                };
                if let Some(Ok(mut tx)) = begun {
                    if sqlx::query("INSERT INTO t VALUES (1)")
                        .execute(&mut *tx)
                        .await
                        .is_ok()
                        && rng.gen_bool(0.5)
                    {
                        let _ = tx.commit().await;
                    }
                }
            }
        });
    }
    let all = async {
        while let Some(done) = storm.join_next().await {
            done.unwrap();
        }
    };
    // A storm that has not blown over in two minutes is a wedge.
    if tokio::time::timeout(Duration::from_secs(120), all)
        .await
        .is_err()
    {
        panic!("the storm did not end in two minutes: something wedged (seed {seed})");
    }
    stop.store(true, Ordering::Relaxed);
    holder.await.unwrap();

    // Every connection the pools hand out (the readers' and the write one) is outside any
    // transaction (all of them at once, so each one is seen), and none of them holds the
    // write lock.
    let mut held = Vec::new();
    for pool in std::iter::repeat_n(&db.pool, POOL as usize).chain([&db.contended]) {
        let conn = tokio::time::timeout(Duration::from_secs(5), pool.acquire())
            .await
            .expect("the pool hands out a connection")
            .unwrap();
        assert!(
            !conn.is_in_transaction(),
            "a connection was handed out inside a transaction (seed {seed})"
        );
        held.push(conn);
    }
    let mut other = sqlx::AnyConnection::connect(&url).await.unwrap();
    other.execute("PRAGMA busy_timeout=1000").await.unwrap();
    assert!(
        other.execute("BEGIN IMMEDIATE").await.is_ok(),
        "an idle pooled connection holds the write lock (seed {seed})"
    );
    other.execute("ROLLBACK").await.unwrap();
    drop(held);

    // And every write starts and commits within a second.
    for _ in 0..(2 * POOL) {
        let start = Instant::now();
        let write = async {
            let mut tx = db.begin().await?;
            sqlx::query("INSERT INTO t VALUES (2)")
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        };
        let done = tokio::time::timeout(Duration::from_secs(1), write).await;
        assert!(
            matches!(done, Ok(Ok(()))),
            "a write after the storm: {done:?} after {:?} (seed {seed})",
            start.elapsed()
        );
    }
}

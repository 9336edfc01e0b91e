//! Nothing wedges under load, on SQLite and PostgreSQL: hundreds of write
//! requests abandoned by their clients at random moments (the travel configurator aborts its
//! previous call on every change), and write transactions whose callers go away at random
//! await points. Afterwards no pooled connection is inside a transaction (none holds
//! SQLite's write lock, none is "idle in transaction" on PostgreSQL) and every write
//! succeeds within a second.
use std::future::Future;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::Method;
use serde_json::{json, Value};
use sqlx::{Connection, Executor};
use tokio::task::JoinSet;

use crate::helpers::cart::{option_with_stock, shopper, Shopper};
use crate::helpers::{both, TestApp};

const SHOPPERS: usize = 12;
const REQUESTS: usize = 600;
const ITEM: &str = "/api/cartproxy/v1/item";
const PROFILE: &str = "/api/postsales/v1/account/profile";

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

/// A busy machine while it lives: spinning threads, two per core. They stretch the moments
/// between a database call and the code that waits for it (SQLite runs each connection on a
/// thread of its own), as a sale opening's load does.
struct Busy(
    Arc<std::sync::atomic::AtomicBool>,
    Vec<std::thread::JoinHandle<()>>,
);

impl Busy {
    fn start() -> Busy {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let spinners = (0..2 * cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Busy(stop, spinners)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        for spinner in self.1.drain(..) {
            let _ = spinner.join();
        }
    }
}

/// Waits for the storm's tasks; a storm that has not blown over in two minutes is a wedge.
async fn blown_over(mut storm: JoinSet<()>, seed: u64) {
    let all = async {
        while let Some(r) = storm.join_next().await {
            r.unwrap();
        }
    };
    if tokio::time::timeout(Duration::from_secs(120), all)
        .await
        .is_err()
    {
        panic!("the storm did not end in two minutes: something wedged (seed {seed})");
    }
}

/// The four writes: a travel product view (the configurator's call: it records the view),
/// a cart add and a remove, a profile save. `(method, path, body, statuses that succeed)`.
fn write(
    kind: usize,
    product: &str,
    option: i64,
) -> (Method, String, Option<Value>, &'static [u16]) {
    match kind % 4 {
        0 => (Method::GET, product.to_string(), None, &[200]),
        1 => (
            Method::POST,
            ITEM.into(),
            Some(json!({ "product_id": option.to_string(), "quantity": 1, "cart_type": "fs" })),
            &[201],
        ),
        2 => (
            Method::DELETE,
            ITEM.into(),
            Some(json!({ "product_id": option.to_string(), "cart_type": "fs" })),
            &[200, 204],
        ),
        _ => (
            Method::POST,
            PROFILE.into(),
            Some(
                json!({ "firstName": "Zoé", "lastName": "Durand", "gender": "Female",
                         "birthDate": "", "phone": "" }),
            ),
            &[200],
        ),
    }
}

/// The path of a travel product of site 1.
async fn travel_product(t: &TestApp) -> (String, i64) {
    let (campaign, product): (i64, i64) = sqlx::query_as(
        "SELECT p.sale_id, p.id FROM products p JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = 1 AND s.campaign_kind = 'TRAVEL' ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    (
        format!("/api/travel/v1/campaigns/{campaign}/products/{product}"),
        product,
    )
}

/// Every pooled connection (and the contended transactions' ones), all held at once so that each
/// one is seen, is outside any transaction; on SQLite no connection (of any pool) keeps the
/// write lock, on PostgreSQL no session of the database is idle inside a transaction.
async fn no_connection_in_a_transaction(t: &TestApp, when: &str) {
    let db = &t.app.state.db;
    let mut held = Vec::new();
    // The shared pool's connections, then those the contended write transactions take
    // (SQLite: its one write connection; PostgreSQL: a pool of their own).
    for (pool, name) in [
        (&db.pool, "the pool"),
        (&db.contended, "the contended transactions' pool"),
    ] {
        for _ in 0..pool.options().get_max_connections() {
            let conn = tokio::time::timeout(Duration::from_secs(5), pool.acquire())
                .await
                .unwrap_or_else(|_| panic!("{when}: {name} hands out a connection"))
                .unwrap();
            held.push(conn);
        }
    }
    for conn in &mut held {
        assert!(
            !conn.is_in_transaction(),
            "{when}: a connection was handed out inside a transaction (sqlx's count)"
        );
        let inside = match db.backend {
            // Outside a transaction both run; inside one, BEGIN fails.
            app::platform::db::Backend::Sqlite => conn.execute("BEGIN; ROLLBACK").await.is_err(),
            // The simple protocol (no arguments): outside an explicit transaction the
            // statement is its transaction's first, and the two times are the same.
            app::platform::db::Backend::Postgres => conn
                .fetch_optional("SELECT 1 WHERE now() <> statement_timestamp()")
                .await
                .unwrap()
                .is_some(),
        };
        assert!(
            !inside,
            "{when}: a connection was handed out inside a transaction"
        );
    }
    match db.backend {
        app::platform::db::Backend::Sqlite => {
            let url = &t.app.config.database_url;
            let mut other = sqlx::AnyConnection::connect(url).await.unwrap();
            other.execute("PRAGMA busy_timeout=1000").await.unwrap();
            assert!(
                other.execute("BEGIN IMMEDIATE").await.is_ok(),
                "{when}: a connection keeps SQLite's write lock"
            );
            other.execute("ROLLBACK").await.unwrap();
        }
        app::platform::db::Backend::Postgres => {
            // Every connection of the pool is held here, so none is in a transaction now. A
            // connection the pool dropped mid-transaction (its caller gone) ends on the server
            // once its backend sees the socket close, which a loaded machine delays: such a
            // session may show for a moment, a leaked one stays. Two seconds tell them apart.
            let mut idle_in_tx: i64 = 0;
            for _ in 0..20 {
                idle_in_tx = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM pg_stat_activity
                      WHERE datname = current_database() AND pid <> pg_backend_pid()
                        AND state LIKE 'idle in transaction%'",
                )
                .fetch_one(&mut *held[0])
                .await
                .unwrap();
                if idle_in_tx == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            assert_eq!(idle_in_tx, 0, "{when}: sessions idle inside a transaction");
        }
    }
}

/// `rounds` of the four writes, one after the other: each succeeds within a second (and the
/// product view is recorded).
async fn writes_succeed_at_once(t: &TestApp, s: &Shopper, product: &(String, i64), option: i64) {
    for round in 0..3 {
        for kind in 0..4 {
            if kind == 0 {
                sqlx::query("UPDATE travel_last_viewed SET viewed_at = 0 WHERE member_id = $1")
                    .bind(s.member_id)
                    .execute(&t.app.state.db.pool)
                    .await
                    .unwrap();
            }
            let (method, path, body, ok) = write(kind, &product.0, option);
            let start = Instant::now();
            let done =
                tokio::time::timeout(Duration::from_secs(1), s.call(t, method, &path, body)).await;
            let took = start.elapsed();
            let Ok((status, answer)) = done else {
                panic!("round {round}: {path} took more than a second");
            };
            assert!(
                ok.contains(&status),
                "round {round}: {path} answered {status} after {took:?}: {answer}"
            );
            if kind == 0 {
                let viewed: i64 = sqlx::query_scalar(
                    "SELECT viewed_at FROM travel_last_viewed WHERE member_id = $1 AND product_id = $2",
                )
                .bind(s.member_id)
                .bind(product.1)
                .fetch_one(&t.app.state.db.pool)
                .await
                .unwrap();
                assert!(viewed > 0, "round {round}: the product view was recorded");
            }
        }
    }
}

/// Hundreds of write requests whose clients give up after a random short time.
async fn abandoned_requests(t: TestApp) {
    let t = Arc::new(t);
    let product = travel_product(&t).await;
    let option = option_with_stock(&t, 7, 1_000_000).await;
    let mut shoppers = Vec::new();
    for _ in 0..SHOPPERS {
        shoppers.push(Arc::new(shopper(&t, 2).await));
    }
    let seed: u64 = rand::random();
    eprintln!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let busy = Busy::start();
    let mut storm = JoinSet::new();
    for n in 0..REQUESTS {
        let s = shoppers[n % SHOPPERS].clone();
        let (method, path, body, _) = write(rng.gen_range(0..4), &product.0, option);
        let timeout = Duration::from_micros(rng.gen_range(200..40_000));
        let url = t.url(&path);
        storm.spawn(async move {
            let mut req = s
                .client
                .request(method, url)
                .header("cookie", &s.cookie)
                .header("X-XSRF-TOKEN", &s.xsrf)
                .timeout(timeout);
            if let Some(b) = body {
                req = req.json(&b);
            }
            // Answered or abandoned: either is fine here.
            let _ = req.send().await;
        });
    }
    blown_over(storm, seed).await;
    drop(busy);
    no_connection_in_a_transaction(&t, &format!("after the requests (seed {seed})")).await;
    writes_succeed_at_once(&t, &shoppers[0], &product, option).await;
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    abandoned_requests,
    abandoned_write_requests_wedge_nothing_on_sqlite,
    abandoned_write_requests_wedge_nothing_on_postgres,
);

/// Write transactions (the cart's and the others: on SQLite both take its one write
/// connection) whose callers go away at a random await point or after a random delay.
async fn dropped_transactions(t: TestApp) {
    let t = Arc::new(t);
    let product = travel_product(&t).await;
    let option = option_with_stock(&t, 7, 1_000_000).await;
    let s = shopper(&t, 2).await;
    let seed: u64 = rand::random();
    eprintln!("seed {seed}");
    let busy = Busy::start();
    let mut storm = JoinSet::new();
    for n in 0..8u64 {
        let (t, member) = (t.clone(), s.member_id);
        let mut rng = StdRng::seed_from_u64(seed ^ (n + 1));
        storm.spawn(async move {
            for i in 0..100 {
                let cart = rng.gen_bool(0.5);
                let begin = async {
                    if cart {
                        t.app.cart.begin().await.map(|w| w.tx)
                    } else {
                        t.app.state.db.begin().await
                    }
                };
                let begun = if rng.gen_bool(0.7) {
                    cancel_after(begin, rng.gen_range(0..5)).await
                } else {
                    let delay = Duration::from_micros(rng.gen_range(0..3000));
                    tokio::time::timeout(delay, begin).await.ok()
                };
                // The last rounds only abandon begins: a connection's last use decides
                // the state it is left in.
                if let (Some(Ok(mut tx)), true) = (begun, i < 90) {
                    let wrote =
                        sqlx::query("UPDATE members SET last_name = 'Durand' WHERE id = $1")
                            .bind(member)
                            .execute(&mut *tx)
                            .await;
                    if wrote.is_ok() && rng.gen_bool(0.5) {
                        let _ = tx.commit().await;
                    }
                }
            }
        });
    }
    blown_over(storm, seed).await;
    drop(busy);
    no_connection_in_a_transaction(&t, &format!("after the transactions (seed {seed})")).await;
    writes_succeed_at_once(&t, &s, &product, option).await;
}

both!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    dropped_transactions,
    dropped_write_transactions_wedge_nothing_on_sqlite,
    dropped_write_transactions_wedge_nothing_on_postgres,
);

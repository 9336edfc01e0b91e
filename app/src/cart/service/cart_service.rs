//! The cart service: the database, the SQLite write path, the option and sold-out caches,
//! the waiting line and the payment provider; the expiry sweeper.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use super::*;
use crate::cart::payment::{PaymentProvider, Sandbox};
use crate::cart::settings::CartSettings;
use crate::cart::store::{self, OptionInfo};
use crate::cart::waiting::WaitingLine;
use crate::cart::writer::{add_writer, AddJob, AddReply};
use crate::platform::db::{Backend, Db};

const OPTION_TTL: Duration = Duration::from_secs(30);
const SOLD_OUT_TTL: Duration = Duration::from_millis(250);

/// What became of an add, for the sale-opening counters.
#[derive(Clone, Copy, Debug)]
pub enum AddOutcome {
    Added = 0,
    Refused = 1,
    Failed = 2,
}

pub struct CartService {
    pub db: Db,
    pub settings: CartSettings,
    /// The queue of the batching add writer (group commit, both engines).
    pub(super) adder: tokio::sync::mpsc::Sender<(AddJob, AddReply)>,
    pub(super) options: RwLock<HashMap<i64, (OptionInfo, Instant)>>,
    /// Options the database recently found sold out: adds are refused without a write
    /// for a short while. The database stays the truth; a release clears the mark.
    pub(super) sold_out: Mutex<HashMap<i64, Instant>>,
    /// Adds that held stock, adds refused as sold out and adds that failed, per sale, since
    /// the last flush to `sale_opening_counters` (the back office's live dashboard sums every
    /// instance's rows).
    pub(super) opening: Mutex<HashMap<i64, [i64; 3]>>,
    pub waiting: WaitingLine,
    pub provider: Box<dyn PaymentProvider>,
}

impl CartService {
    pub async fn connect(db: Db, settings: CartSettings) -> Result<CartService, sqlx::Error> {
        // The add writer's connection: on SQLite the one write connection (its batches
        // queue with the other writes), on PostgreSQL a connection of its own beside the
        // pool (the other cart writes use the pool).
        let adder_db = match db.backend {
            Backend::Sqlite => db.clone(),
            Backend::Postgres => {
                // No ping before each batch: a broken connection is found when it is
                // given back (sqlx pings it then) and the batch's adds fail at once.
                // Every statement of a batch finds its rows by key. A shop's first sale
                // starts with near-empty carts and lines whose statistics say "tiny":
                // PostgreSQL then plans (and keeps, for this connection's prepared
                // statements) sequential scans, which grow with the tables until the next
                // autovacuum analyses them. That was bench-cart's slow mode (954-1,990
                // adds/s against 3,600-4,150 in runs where the analysis came early).
                let pool = crate::platform::db::pool_options(db.backend)
                    .after_connect(|conn, _meta| {
                        Box::pin(async move {
                            sqlx::Executor::execute(conn, "SET enable_seqscan = off").await?;
                            Ok(())
                        })
                    })
                    .max_connections(1)
                    .acquire_timeout(Duration::from_secs(30))
                    .test_before_acquire(false)
                    .connect_with((*db.pool.connect_options()).clone())
                    .await?;
                Db {
                    pool: pool.clone(),
                    backend: db.backend,
                    writes: pool.clone(),
                    contended: pool,
                }
            }
        };
        let (adder, jobs) = tokio::sync::mpsc::channel(4096);
        tokio::spawn(add_writer(adder_db, db.clone(), settings.clone(), jobs));
        Ok(CartService {
            waiting: WaitingLine::new(
                db.clone(),
                settings.checkout_capacity,
                settings.checkout_lease_secs,
            ),
            db,
            settings,
            adder,
            options: RwLock::new(HashMap::new()),
            sold_out: Mutex::new(HashMap::new()),
            opening: Mutex::new(HashMap::new()),
            provider: Box::new(Sandbox),
        })
    }

    pub async fn begin(&self) -> Result<WriteTx, sqlx::Error> {
        Ok(WriteTx {
            tx: self.db.begin().await?,
        })
    }

    /// A write transaction on the contended connections (see `Db::contended`).
    pub async fn begin_contended(&self) -> Result<WriteTx, sqlx::Error> {
        Ok(WriteTx {
            tx: self.db.begin_contended().await?,
        })
    }

    pub async fn option(&self, option_id: i64) -> Result<Option<OptionInfo>, sqlx::Error> {
        if let Ok(cache) = self.options.read() {
            if let Some((info, at)) = cache.get(&option_id) {
                if at.elapsed() < OPTION_TTL {
                    return Ok(Some(info.clone()));
                }
            }
        }
        let info = store::option_info(&self.db, option_id).await?;
        if let (Some(i), Ok(mut cache)) = (&info, self.options.write()) {
            if cache.len() > 100_000 {
                cache.clear();
            }
            cache.insert(option_id, (i.clone(), Instant::now()));
        }
        Ok(info)
    }

    /// Forgets the options read so far: a moderator took a product off the shop, and
    /// none of its options may be added from a cached read.
    pub fn forget_options(&self) {
        if let Ok(mut cache) = self.options.write() {
            cache.clear();
        }
    }

    /// Whether an add of this option is refused without asking the database. When the
    /// mark lapses, one caller (this one) probes the database and the mark is renewed
    /// for the others meanwhile: one probe per period, not a burst.
    pub(super) fn is_sold_out(&self, option_id: i64) -> bool {
        let Ok(mut marks) = self.sold_out.lock() else {
            return false;
        };
        match marks.get_mut(&option_id) {
            Some(at) if at.elapsed() < SOLD_OUT_TTL => true,
            Some(at) => {
                *at = Instant::now();
                false
            }
            None => false,
        }
    }

    /// Counts an add of `sale_id` that held stock, was refused (sold out) or failed.
    pub(super) fn count_add_outcome(&self, sale_id: i64, outcome: AddOutcome) {
        if let Ok(mut m) = self.opening.lock() {
            m.entry(sale_id).or_insert([0; 3])[outcome as usize] += 1;
        }
    }

    /// Writes the counts gathered since the last call into `sale_opening_counters`, in the
    /// row of second `now` (added to what other instances wrote there).
    pub async fn flush_opening_counts(&self, now: i64) -> Result<(), sqlx::Error> {
        let counts: Vec<(i64, [i64; 3])> = match self.opening.lock() {
            Ok(mut m) => m.drain().collect(),
            Err(_) => return Ok(()),
        };
        for (sale_id, [added, refused, failed]) in counts {
            sqlx::query(
                "INSERT INTO sale_opening_counters (sale_id, second, added, refused, failed) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (sale_id, second) DO UPDATE SET added = sale_opening_counters.added + excluded.added,
                     refused = sale_opening_counters.refused + excluded.refused,
                     failed = sale_opening_counters.failed + excluded.failed",
            )
            .bind(sale_id)
            .bind(now)
            .bind(added)
            .bind(refused)
            .bind(failed)
            .execute(&self.db.writes)
            .await?;
        }
        Ok(())
    }

    pub(super) fn mark_sold_out(&self, option_id: i64) {
        if let Ok(mut m) = self.sold_out.lock() {
            if m.len() > 10_000 {
                m.clear();
            }
            m.insert(option_id, Instant::now());
        }
    }

    pub fn clear_sold_out(&self, option_ids: impl IntoIterator<Item = i64>) {
        if let Ok(mut m) = self.sold_out.lock() {
            for id in option_ids {
                m.remove(&id);
            }
        }
    }

    /// Releases a member's expired holds now (lazy release on read); how many lines.
    pub async fn release_member(&self, member_id: i64, now: i64) -> Result<usize, sqlx::Error> {
        let expired: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM cart_items WHERE member_id = $1 AND expires_at <= $2",
        )
        .bind(member_id)
        .bind(now)
        .fetch_one(&self.db.pool)
        .await?;
        if expired == 0 {
            return Ok(0);
        }
        let mut w = self.begin().await?;
        let released = store::release_expired_in(&mut w.tx, Some(member_id), now, 1000).await?;
        w.commit().await?;
        self.clear_sold_out(released.iter().map(|r| r.option_id));
        Ok(released.len())
    }

    /// The sweeper's pass: releases every expired hold, by chunks; how many lines.
    pub async fn sweep(&self, now: i64) -> Result<usize, sqlx::Error> {
        let mut total = 0;
        loop {
            let due: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE expires_at <= $1")
                    .bind(now)
                    .fetch_one(&self.db.pool)
                    .await?;
            if due == 0 {
                return Ok(total);
            }
            let mut w = self.begin().await?;
            let released = store::release_expired_in(&mut w.tx, None, now, 500).await?;
            w.commit().await?;
            self.clear_sold_out(released.iter().map(|r| r.option_id));
            total += released.len();
            if released.is_empty() {
                return Ok(total);
            }
        }
    }
}

/// Runs the sweeper every `every` until the process ends; the first pass runs at once
/// (holds that expired while the server was down are released at start).
pub async fn sweeper(service: Arc<CartService>, every: Duration) {
    loop {
        match service.sweep(crate::platform::state::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(released = n, "expired cart holds released"),
            Err(e) => tracing::error!(error = %e, "cart sweeper failed"),
        }
        tokio::time::sleep(every).await;
    }
}

impl CartService {
    /// Who looks at availability: the member (none: a visitor) under this cart's limit.
    pub fn viewer(&self, member_id: Option<i64>) -> store::Viewer {
        store::Viewer {
            member_id,
            max_per_member: self.settings.max_per_member,
        }
    }
}

/// The cart service inside a server function (provided by the server beside the state).
pub fn cart_service() -> Result<Arc<CartService>, leptos::prelude::ServerFnError> {
    leptos::prelude::use_context::<Arc<CartService>>()
        .ok_or_else(|| leptos::prelude::ServerFnError::new("no cart service"))
}

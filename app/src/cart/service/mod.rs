//! Cart operations: each is one short write transaction. On SQLite, cart writers queue for
//! one dedicated write connection and open `BEGIN IMMEDIATE` transactions (no lock
//! upgrades, no busy sleeps; reads use the shared pool beside it, thanks to WAL); on
//! PostgreSQL row locks order them, and the hot stock row is updated last, just before
//! the commit, so its lock is held as briefly as possible. Stock moves are conditional updates:
//! `held` grows only while `stock - held - sold` covers the quantity, so a sale is never
//! oversold, whatever the number of instances.
pub mod checkout;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use sqlx::{Any, Row, Transaction};

use super::payment::{PaymentProvider, Sandbox};
use super::rules::CartError;
use super::store::{self, OptionInfo};
use super::waiting::WaitingLine;
use super::writer::{add_in_tx, add_writer, AddJob, AddReply};
pub use crate::cart::error::CartFailure;
use crate::model::cart::Cart;
use crate::platform::db::{Backend, Db};

/// Tunables (server configuration).
#[derive(Clone, Debug)]
pub struct CartSettings {
    /// How long an added item stays held (ROSACE_CART_HOLD_SECS, default 900).
    pub hold_secs: i64,
    /// Units of one product a member may hold (ROSACE_CART_MAX_PER_MEMBER, default 5).
    pub max_per_member: i64,
    /// Payments running at once before the waiting line (ROSACE_CHECKOUT_CAPACITY).
    pub checkout_capacity: usize,
    /// How long after payment an order can be reopened.
    pub reopen_window_secs: i64,
}

impl Default for CartSettings {
    fn default() -> Self {
        CartSettings {
            hold_secs: 900,
            max_per_member: 5,
            checkout_capacity: 64,
            reopen_window_secs: 1800,
        }
    }
}

pub type CartResult<T> = Result<T, CartFailure>;

/// A cart frozen for payment cannot change (code 261) until paid or defrosted.
pub(crate) async fn refuse_frozen<'e, E>(exec: E, member_id: i64) -> CartResult<()>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    if store::cart_row(exec, member_id)
        .await?
        .is_some_and(|r| r.status == "frozen")
    {
        return Err(CartError::Frozen.into());
    }
    Ok(())
}

/// The member a call acts for.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub id: i64,
    pub site_id: i64,
}

/// One line of an add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddLine {
    pub option_id: i64,
    pub quantity: i64,
}

#[derive(Clone, Debug, Default)]
pub struct AddOptions {
    pub origin: Option<String>,
    pub bundle_id: Option<String>,
}

/// A write transaction.
pub struct WriteTx {
    pub tx: Transaction<'static, Any>,
}

impl WriteTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

const OPTION_TTL: Duration = Duration::from_secs(30);
const SOLD_OUT_TTL: Duration = Duration::from_millis(250);

pub struct CartService {
    pub db: Db,
    pub settings: CartSettings,
    /// SQLite: the one connection cart writes go through, in arrival order.
    write_pool: Option<sqlx::AnyPool>,
    /// SQLite: the queue of the batching add writer.
    adder: Option<tokio::sync::mpsc::Sender<(AddJob, AddReply)>>,
    options: RwLock<HashMap<i64, (OptionInfo, Instant)>>,
    /// Options the database recently found sold out: adds are refused without a write
    /// for a short while. The database stays the truth; a release clears the mark.
    sold_out: Mutex<HashMap<i64, Instant>>,
    pub waiting: WaitingLine,
    pub provider: Box<dyn PaymentProvider>,
}

impl CartService {
    pub async fn connect(db: Db, settings: CartSettings) -> Result<CartService, sqlx::Error> {
        store::set_max_per_member(settings.max_per_member);
        let write_pool = match db.backend {
            Backend::Sqlite => {
                let options = (*db.pool.connect_options()).clone();
                Some(
                    sqlx::any::AnyPoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .acquire_timeout(Duration::from_secs(30))
                        .after_connect(|conn, _meta| {
                            Box::pin(async move {
                                use sqlx::Executor;
                                conn.execute(
                                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; \
                                     PRAGMA busy_timeout=10000; PRAGMA foreign_keys=ON;",
                                )
                                .await?;
                                Ok(())
                            })
                        })
                        .connect_with(options)
                        .await?,
                )
            }
            Backend::Postgres => None,
        };
        let adder = write_pool.as_ref().map(|pool| {
            let (queue, jobs) = tokio::sync::mpsc::channel(4096);
            tokio::spawn(add_writer(pool.clone(), settings.clone(), jobs));
            queue
        });
        Ok(CartService {
            db,
            waiting: WaitingLine::new(settings.checkout_capacity),
            settings,
            write_pool,
            adder,
            options: RwLock::new(HashMap::new()),
            sold_out: Mutex::new(HashMap::new()),
            provider: Box::new(Sandbox),
        })
    }

    pub async fn begin(&self) -> Result<WriteTx, sqlx::Error> {
        match &self.write_pool {
            Some(pool) => Ok(WriteTx {
                tx: pool.begin_with("BEGIN IMMEDIATE").await?,
            }),
            None => Ok(WriteTx {
                tx: self.db.pool.begin().await?,
            }),
        }
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

    /// Whether an add of this option is refused without asking the database. When the
    /// mark lapses, one caller (this one) probes the database and the mark is renewed
    /// for the others meanwhile: one probe per period, not a burst.
    fn is_sold_out(&self, option_id: i64) -> bool {
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

    fn mark_sold_out(&self, option_id: i64) {
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

    /// The cart, after releasing the member's expired holds. `true` when the member must
    /// be told the basket expired (said once: the notice is then cleared).
    pub async fn cart(&self, m: Member, now: i64) -> CartResult<(Cart, bool)> {
        self.release_member(m.id, now).await?;
        let cart = store::view(&self.db, m.id, now).await?;
        let expired = cart.has_notify_basket_expired;
        if expired {
            sqlx::query("UPDATE carts SET expired_notice = 0 WHERE member_id = $1")
                .bind(m.id)
                .execute(&self.db.pool)
                .await?;
        }
        Ok((cart, expired))
    }

    pub async fn view(&self, m: Member, now: i64) -> CartResult<Cart> {
        Ok(store::view(&self.db, m.id, now).await?)
    }

    /// Adds lines, all or nothing: holds their units for the member.
    pub async fn add(
        &self,
        m: Member,
        lines: &[AddLine],
        cart_type: &str,
        opts: &AddOptions,
        now: i64,
    ) -> CartResult<()> {
        if lines.is_empty() || !super::rules::is_cart_type(cart_type) {
            return Err(CartError::BadRequest.into());
        }
        let mut infos = Vec::with_capacity(lines.len());
        for l in lines {
            let info = self
                .option(l.option_id)
                .await?
                .filter(|i| i.site_id == m.site_id && i.starts_at <= now && now < i.ends_at)
                .ok_or(CartError::UnknownProduct)?;
            infos.push(info);
        }
        if lines.iter().any(|l| self.is_sold_out(l.option_id)) {
            return Err(CartError::OutOfStock.into());
        }
        let mut per_product: Vec<(i64, i64)> = Vec::new();
        for (l, i) in lines.iter().zip(&infos) {
            match per_product.iter_mut().find(|(p, _)| *p == i.product_id) {
                Some((_, q)) => *q += l.quantity,
                None => per_product.push((i.product_id, l.quantity)),
            }
        }
        let job = AddJob {
            m,
            lines: lines.to_vec(),
            infos,
            per_product,
            cart_type: cart_type.to_string(),
            opts: opts.clone(),
            now,
        };
        let outcome = match &self.adder {
            // SQLite: the batching writer (several adds per transaction).
            Some(queue) => {
                let (reply, answer) = tokio::sync::oneshot::channel();
                queue
                    .send((job, reply))
                    .await
                    .map_err(|_| CartFailure::Cart(CartError::Unexpected))?;
                answer
                    .await
                    .map_err(|_| CartFailure::Cart(CartError::Unexpected))?
            }
            None => {
                let mut w = self.begin().await?;
                let r = add_in_tx(&mut w.tx, &job, &self.settings, false).await?;
                if r.is_ok() {
                    w.commit().await?;
                }
                r.map_err(CartFailure::Cart)
            }
        };
        match outcome {
            Ok(()) => {
                self.clear_sold_out(lines.iter().map(|l| l.option_id));
                Ok(())
            }
            Err(CartFailure::Cart(CartError::OutOfStock)) => {
                if let [l] = lines {
                    if l.quantity == 1 {
                        self.mark_sold_out(l.option_id);
                    }
                }
                Err(CartError::OutOfStock.into())
            }
            Err(e) => Err(e),
        }
    }

    /// Removes a line; its units go back at once.
    pub async fn remove(&self, m: Member, option_id: i64, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let quantity: Option<i64> = sqlx::query_scalar(
            "DELETE FROM cart_items WHERE member_id = $1 AND option_id = $2 RETURNING quantity",
        )
        .bind(m.id)
        .bind(option_id)
        .fetch_optional(&mut *w.tx)
        .await?;
        let Some(q) = quantity else {
            return Err(CartError::UnknownProduct.into());
        };
        store::give_back(&mut w.tx, option_id, q).await?;
        upsert_cart(&mut w.tx, m, None, now).await?;
        w.commit().await?;
        self.clear_sold_out([option_id]);
        Ok(())
    }

    /// Empties the cart: lines (units back at once), vouchers and loyalty item.
    pub async fn empty(&self, m: Member, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let released = take_all_lines(&mut w.tx, m.id).await?;
        sqlx::query("DELETE FROM cart_vouchers WHERE member_id = $1")
            .bind(m.id)
            .execute(&mut *w.tx)
            .await?;
        sqlx::query(
            "UPDATE carts SET loyalty_product_id = NULL, cart_type = NULL, version = version + 1, updated_at = $2 WHERE member_id = $1",
        )
        .bind(m.id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        w.commit().await?;
        self.clear_sold_out(released.into_iter().map(|(o, _)| o));
        Ok(())
    }

    /// Freezes the cart for payment and returns its hash (the same while frozen).
    /// `None` for an empty cart.
    pub async fn freeze(&self, m: Member, now: i64) -> CartResult<Option<String>> {
        if !terms_accepted(&self.db, m.id).await? {
            return Err(CartError::OnboardingRedirect.into());
        }
        if self.release_member(m.id, now).await? > 0 {
            return Err(CartError::Expired.into());
        }
        let mut w = self.begin().await?;
        let lines: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1")
            .bind(m.id)
            .fetch_one(&mut *w.tx)
            .await?;
        if lines == 0 {
            return Ok(None);
        }
        let row = store::cart_row(&mut *w.tx, m.id).await?;
        if let Some(hash) = row
            .as_ref()
            .filter(|r| r.status == "frozen")
            .and_then(|r| r.cart_hash.clone())
        {
            return Ok(Some(hash));
        }
        let hash = crate::platform::session::new_token();
        upsert_cart(&mut w.tx, m, None, now).await?;
        sqlx::query(
            "UPDATE carts SET status = 'frozen', cart_hash = $2, version = version + 1 WHERE member_id = $1",
        )
        .bind(m.id)
        .bind(&hash)
        .execute(&mut *w.tx)
        .await?;
        w.commit().await?;
        Ok(Some(hash))
    }

    /// Defrost: the cart is open again (the order being paid is cancelled).
    pub async fn defrost(&self, m: Member, now: i64) -> CartResult<()> {
        sqlx::query(
            "UPDATE carts SET status = 'open', cart_hash = NULL, version = version + 1, updated_at = $2
              WHERE member_id = $1 AND status = 'frozen'",
        )
        .bind(m.id)
        .bind(now)
        .execute(&self.db.pool)
        .await?;
        Ok(())
    }

    /// Brings back the released or suspended lines the member did not dismiss, as far as
    /// stock allows; returns the ids that could not be held again.
    pub async fn recover(&self, m: Member, dismissed: &[i64], now: i64) -> CartResult<Vec<i64>> {
        refuse_frozen(&self.db.pool, m.id).await?;
        let rows = sqlx::query(
            "SELECT option_id, CAST(MAX(quantity) AS BIGINT) AS quantity FROM cart_recovery WHERE member_id = $1 GROUP BY option_id ORDER BY option_id",
        )
        .bind(m.id)
        .fetch_all(&self.db.pool)
        .await?;
        let cart_type: Option<String> =
            sqlx::query_scalar("SELECT cart_type FROM carts WHERE member_id = $1")
                .bind(m.id)
                .fetch_optional(&self.db.pool)
                .await?
                .flatten();
        let cart_type = cart_type.unwrap_or_else(|| super::rules::DEFAULT_CART_TYPE.into());
        let mut unavailable = Vec::new();
        for r in rows {
            let option_id: i64 = r.try_get("option_id")?;
            let quantity: i64 = r.try_get("quantity")?;
            if dismissed.contains(&option_id) {
                continue;
            }
            let line = AddLine {
                option_id,
                quantity,
            };
            match self
                .add(m, &[line], &cart_type, &AddOptions::default(), now)
                .await
            {
                Ok(()) => {}
                Err(CartFailure::Cart(_)) => unavailable.push(option_id),
                Err(e) => return Err(e),
            }
        }
        self.cancel_recovery(m).await?;
        Ok(unavailable)
    }

    pub async fn cancel_recovery(&self, m: Member) -> CartResult<()> {
        sqlx::query("DELETE FROM cart_recovery WHERE member_id = $1")
            .bind(m.id)
            .execute(&self.db.pool)
            .await?;
        Ok(())
    }

    /// Suspends the basket: its lines are put aside (units back to the sale) until the
    /// member recovers them.
    pub async fn suspend(&self, m: Member, now: i64) -> CartResult<()> {
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        let released = take_all_lines(&mut w.tx, m.id).await?;
        if released.is_empty() {
            return Err(CartError::InvalidCart.into());
        }
        for (option_id, quantity) in &released {
            sqlx::query(
                "INSERT INTO cart_recovery (member_id, option_id, kind, quantity, created_at) VALUES ($1, $2, 'suspended', $3, $4)
                 ON CONFLICT (member_id, option_id, kind) DO UPDATE SET quantity = excluded.quantity",
            )
            .bind(m.id)
            .bind(option_id)
            .bind(quantity)
            .bind(now)
            .execute(&mut *w.tx)
            .await?;
        }
        w.commit().await?;
        self.clear_sold_out(released.into_iter().map(|(o, _)| o));
        Ok(())
    }

    pub async fn has_suspended(&self, m: Member) -> CartResult<bool> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM cart_recovery WHERE member_id = $1 AND kind = 'suspended'",
        )
        .bind(m.id)
        .fetch_one(&self.db.pool)
        .await?;
        Ok(n > 0)
    }

    /// Sets (or, with `on` false, removes) the loyalty item; its quantity is always 1.
    pub async fn loyalty(&self, m: Member, product_id: i64, on: bool, now: i64) -> CartResult<()> {
        if super::rules::loyalty_product(product_id).is_none() {
            return Err(CartError::UnknownProduct.into());
        }
        let mut w = self.begin().await?;
        refuse_frozen(&mut *w.tx, m.id).await?;
        upsert_cart(&mut w.tx, m, None, now).await?;
        let sql = if on {
            "UPDATE carts SET loyalty_product_id = $2 WHERE member_id = $1"
        } else {
            "UPDATE carts SET loyalty_product_id = NULL WHERE member_id = $1 AND loyalty_product_id = $2"
        };
        sqlx::query(sql)
            .bind(m.id)
            .bind(product_id)
            .execute(&mut *w.tx)
            .await?;
        w.commit().await?;
        Ok(())
    }
}

/// Creates the member's cart row or bumps its version (and sets its type when given).
pub async fn upsert_cart(
    tx: &mut Transaction<'static, Any>,
    m: Member,
    cart_type: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO carts (member_id, site_id, cart_type, status, updated_at) VALUES ($1, $2, $3, 'open', $4)
         ON CONFLICT (member_id) DO UPDATE SET cart_type = COALESCE(excluded.cart_type, carts.cart_type),
                version = carts.version + 1, updated_at = excluded.updated_at",
    )
    .bind(m.id)
    .bind(m.site_id)
    .bind(cart_type.map(str::to_string))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Deletes all the member's lines and gives their units back: (option, quantity).
async fn take_all_lines(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    let rows =
        sqlx::query("DELETE FROM cart_items WHERE member_id = $1 RETURNING option_id, quantity")
            .bind(member_id)
            .fetch_all(&mut **tx)
            .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (o, q): (i64, i64) = (r.try_get("option_id")?, r.try_get("quantity")?);
        store::give_back(tx, o, q).await?;
        out.push((o, q));
    }
    Ok(out)
}

/// The member accepted the current terms of sale (else checkout redirects to onboarding).
pub async fn terms_accepted(db: &Db, member_id: i64) -> Result<bool, sqlx::Error> {
    use crate::onboarding::rules::{PopinType, MODAL_POPINS};
    let current = MODAL_POPINS
        .iter()
        .find(|(k, _)| *k == PopinType::TermsAndConditions)
        .map(|(_, v)| *v)
        .unwrap_or(0);
    let version: Option<i64> =
        sqlx::query_scalar("SELECT terms_version FROM members WHERE id = $1")
            .bind(member_id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(version.unwrap_or(0) >= current)
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

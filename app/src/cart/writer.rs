//! The add path's writes: the checks and conditional stock moves of one add inside a
//! transaction, and the SQLite batching writer (group commit) that runs waiting adds
//! together in one transaction on the dedicated write connection.
use sqlx::{Any, Row, Transaction};

use super::rules::CartError;
use super::service::{
    lock_member_cart, upsert_cart, AddLine, AddOptions, CartFailure, CartResult, CartSettings,
    Member,
};
use super::store::OptionInfo;

/// An add waiting for the SQLite writer.
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
const ADD_BATCH: usize = 64;

/// The SQLite add writer: takes the adds that are waiting (up to [`ADD_BATCH`]) and runs
/// them one after the other in one `BEGIN IMMEDIATE` transaction, then commits once. Each
/// add sees the ones before it, so the stock checks stay exact; a refused add writes
/// nothing (its stock update comes first; multi-line adds run under a savepoint).
pub async fn add_writer(
    pool: sqlx::AnyPool,
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
        match run_batch(&pool, &settings, &jobs).await {
            Ok(results) => {
                for ((_, reply), r) in jobs.into_iter().zip(results) {
                    let _ = reply.send(r.map_err(CartFailure::Cart));
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "cart add batch failed");
                for (_, reply) in jobs {
                    let _ = reply.send(Err(CartFailure::Db(sqlx::Error::Protocol(e.to_string()))));
                }
            }
        }
    }
}

async fn run_batch(
    pool: &sqlx::AnyPool,
    settings: &CartSettings,
    jobs: &[(AddJob, AddReply)],
) -> Result<Vec<Result<(), CartError>>, sqlx::Error> {
    let mut tx = crate::platform::db::begin_on(pool, crate::platform::db::Backend::Sqlite).await?;
    let mut results = Vec::with_capacity(jobs.len());
    for (job, _) in jobs {
        let several = job.lines.len() > 1;
        if several {
            sqlx::query("SAVEPOINT cart_add").execute(&mut *tx).await?;
        }
        let r = add_in_tx(&mut tx, job, settings, true).await?;
        if several {
            if r.is_err() {
                sqlx::query("ROLLBACK TO SAVEPOINT cart_add")
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("RELEASE SAVEPOINT cart_add")
                .execute(&mut *tx)
                .await?;
        }
        results.push(r);
    }
    tx.commit().await?;
    Ok(results)
}

/// The checks and writes of one add inside a transaction. With `stock_first`, the
/// conditional stock updates come first (a refused single-line add then writes nothing);
/// otherwise last (PostgreSQL: the hot row stays locked only until the commit), and the
/// caller rolls back a refused add.
pub async fn add_in_tx(
    tx: &mut Transaction<'static, Any>,
    job: &AddJob,
    settings: &CartSettings,
    stock_first: bool,
) -> Result<Result<(), CartError>, sqlx::Error> {
    let (m, now, cart_type) = (job.m, job.now, job.cart_type.as_str());
    lock_member_cart(tx, m, now).await?;
    let state = sqlx::query(
        "SELECT (SELECT status FROM carts WHERE member_id = $1) AS status,
                (SELECT cart_type FROM carts WHERE member_id = $1) AS cart_type,
                (SELECT COUNT(*) FROM cart_items WHERE member_id = $1 AND expires_at > $2) AS live_lines,
                (SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM cart_items
                  WHERE member_id = $1 AND product_id = $3 AND expires_at > $2) AS same_product",
    )
    .bind(m.id)
    .bind(now)
    .bind(job.per_product[0].0)
    .fetch_one(&mut **tx)
    .await?;
    let status: Option<String> = state.try_get("status")?;
    let current_type: Option<String> = state.try_get("cart_type")?;
    let live_lines: i64 = state.try_get("live_lines")?;
    if status.as_deref() == Some("frozen") {
        return Ok(Err(CartError::Frozen));
    }
    if live_lines > 0 && current_type.as_deref().is_some_and(|t| t != cart_type) {
        return Ok(Err(CartError::IncompatibleCartTypes));
    }
    let mut held: i64 = state.try_get("same_product")?;
    for (n, (product_id, adding)) in job.per_product.iter().enumerate() {
        if n > 0 {
            held = sqlx::query_scalar(
                "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM cart_items
                  WHERE member_id = $1 AND product_id = $2 AND expires_at > $3",
            )
            .bind(m.id)
            .bind(product_id)
            .bind(now)
            .fetch_one(&mut **tx)
            .await?;
        }
        if held + adding > settings.max_per_member {
            return Ok(Err(CartError::MaxReached));
        }
    }
    if stock_first && !hold_stock(tx, &job.lines).await? {
        return Ok(Err(CartError::OutOfStock));
    }
    for (l, i) in job.lines.iter().zip(&job.infos) {
        sqlx::query(
            "INSERT INTO cart_items (member_id, option_id, product_id, sale_id, quantity, origin, bundle_id, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (member_id, option_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity,
                    expires_at = excluded.expires_at",
        )
        .bind(m.id)
        .bind(l.option_id)
        .bind(i.product_id)
        .bind(i.sale_id)
        .bind(l.quantity)
        .bind(job.opts.origin.clone())
        .bind(job.opts.bundle_id.clone())
        .bind(now)
        .bind(now + settings.hold_secs)
        .execute(&mut **tx)
        .await?;
    }
    if status.is_none() || current_type.as_deref() != Some(cart_type) {
        upsert_cart(tx, m, Some(cart_type), now).await?;
    }
    if !stock_first && !hold_stock(tx, &job.lines).await? {
        return Ok(Err(CartError::OutOfStock));
    }
    Ok(Ok(()))
}

/// The conditional stock moves of an add: `false` (and stop) at the first option that
/// has not enough units left for others.
async fn hold_stock(
    tx: &mut Transaction<'static, Any>,
    lines: &[AddLine],
) -> Result<bool, sqlx::Error> {
    for l in lines {
        let got = sqlx::query(
            "UPDATE product_options SET held = held + $2 WHERE id = $1 AND stock - held - sold >= $2",
        )
        .bind(l.option_id)
        .bind(l.quantity)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if got != 1 {
            return Ok(false);
        }
    }
    Ok(true)
}

//! Stock during a live sale: an operator changes an option's stock by a number of units
//! while members hold and buy it. The change is one guarded `UPDATE` on the option's row,
//! the same row and the same rule (`held + sold <= stock`, also a CHECK of the table) that
//! holds and payments write under: it applies whole or not at all, and never below what is
//! held and sold, whatever commits in between. Each change is kept in the option's stock
//! history and the audit log, in the same transaction.
use sqlx::Row;

use app::platform::db::Db;

use super::super::audit::{self, Actor, Entry};

pub const MAX_CHANGE: i64 = 100_000;

#[derive(Debug, PartialEq, Eq)]
pub enum StockError {
    /// The change would leave less than what is held and sold: the figures at refusal.
    BelowCommitted {
        stock: i64,
        held: i64,
        sold: i64,
    },
    NoSuchOption,
    Db(String),
}

#[derive(Debug, PartialEq, Eq)]
pub struct Stock {
    pub stock: i64,
    pub held: i64,
    pub sold: i64,
}

pub async fn adjust(
    db: &Db,
    actor: &Actor,
    option_id: i64,
    delta: i64,
    reason: &str,
    now: i64,
) -> Result<Stock, StockError> {
    let db_err = |e: sqlx::Error| StockError::Db(e.to_string());
    let mut tx = db.begin().await.map_err(db_err)?;
    let row = sqlx::query(
        "UPDATE product_options SET stock = stock + $2 WHERE id = $1 AND stock + $2 >= held + sold
         RETURNING stock, held, sold",
    )
    .bind(option_id)
    .bind(delta)
    .fetch_optional(&mut *tx)
    .await
    .map_err(db_err)?;
    let Some(row) = row else {
        let now_row = sqlx::query("SELECT stock, held, sold FROM product_options WHERE id = $1")
            .bind(option_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
        return Err(match now_row {
            None => StockError::NoSuchOption,
            Some(r) => StockError::BelowCommitted {
                stock: r.try_get("stock").map_err(db_err)?,
                held: r.try_get("held").map_err(db_err)?,
                sold: r.try_get("sold").map_err(db_err)?,
            },
        });
    };
    let after = Stock {
        stock: row.try_get("stock").map_err(db_err)?,
        held: row.try_get("held").map_err(db_err)?,
        sold: row.try_get("sold").map_err(db_err)?,
    };
    sqlx::query(
        "INSERT INTO stock_history (option_id, at, operator_id, delta, stock_after, held, sold, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(option_id)
    .bind(now)
    .bind(actor.operator_id)
    .bind(delta)
    .bind(after.stock)
    .bind(after.held)
    .bind(after.sold)
    .bind(reason)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let entry = Entry {
        action: "stock",
        object_kind: "option",
        object_id: option_id.to_string(),
        summary: format!(
            "stock: {} → {} ({delta:+}; held {}, sold {}): {reason}",
            after.stock - delta,
            after.stock,
            after.held,
            after.sold
        ),
    };
    audit::record(&mut tx, actor, entry, now)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(after)
}

#[derive(Clone, Debug)]
pub struct HistoryRow {
    pub at: i64,
    pub operator_email: Option<String>,
    pub delta: i64,
    pub stock_after: i64,
    pub held: i64,
    pub sold: i64,
    pub reason: String,
}

/// The option's stock changes, newest first (the last 100).
pub async fn history(db: &Db, option_id: i64) -> Result<Vec<HistoryRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT h.at, o.email, h.delta, h.stock_after, h.held, h.sold, h.reason
         FROM stock_history h LEFT JOIN operators o ON o.id = h.operator_id
         WHERE h.option_id = $1 ORDER BY h.id DESC LIMIT 100",
    )
    .bind(option_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(HistoryRow {
                at: r.try_get("at")?,
                operator_email: r.try_get("email")?,
                delta: r.try_get("delta")?,
                stock_after: r.try_get("stock_after")?,
                held: r.try_get("held")?,
                sold: r.try_get("sold")?,
                reason: r.try_get("reason")?,
            })
        })
        .collect()
}

//! One batch's transaction: a fixed number of statements whatever the number of adds. Row
//! sets travel as one JSON parameter (one SQL text per statement, so each is prepared
//! once per connection): `json_each` on SQLite, `json_to_recordset` on PostgreSQL.
//!
//! PostgreSQL runs transactions side by side (other instances, other cart writes), so the
//! batch first locks its members' cart rows, in member order (made if missing, with no
//! type, and removed again when none of the member's adds was accepted): parallel adds of
//! one member run one after the other, as [`crate::cart::service::lock_member_cart`] makes
//! them. The options' units are read without a lock; the stock rows are updated last, in
//! option order, each by a conditional update that must find the units the decision
//! counted on. Should another instance have taken some in between, the batch is rolled
//! back and run again with the stock rows locked as they are read. SQLite's writer holds
//! the database's write lock from `BEGIN IMMEDIATE` on, so what it reads cannot move.
use std::sync::OnceLock;

use sqlx::Row;

use super::decide::{decide, CartRowState, LineState, Snapshot};
use super::AddJob;
use crate::cart::rules::CartError;
use crate::cart::settings::CartSettings;
use crate::platform::db::{Backend, Db};
use crate::platform::sql::{ids, in_ids, json_rows, to_json};

/// The batch's SQL for one engine.
struct Statements {
    lock_carts: String,
    carts: String,
    lines: String,
    left: String,
    left_locked: String,
    items: String,
    upsert_carts: String,
    drop_carts: String,
    hold: &'static str,
}

impl Statements {
    fn new(backend: Backend) -> Statements {
        let pg = backend == Backend::Postgres;
        let lock = |sql: String, order: &str| {
            if pg {
                format!("{sql} ORDER BY {order} FOR UPDATE")
            } else {
                sql
            }
        };
        let item_cols = [
            ("member_id", "BIGINT"),
            ("option_id", "BIGINT"),
            ("product_id", "BIGINT"),
            ("sale_id", "BIGINT"),
            ("quantity", "BIGINT"),
            ("origin", "TEXT"),
            ("bundle_id", "TEXT"),
            ("created_at", "BIGINT"),
            ("expires_at", "BIGINT"),
        ];
        let cart_cols = [
            ("member_id", "BIGINT"),
            ("site_id", "BIGINT"),
            ("cart_type", "TEXT"),
            ("updated_at", "BIGINT"),
        ];
        let left = format!(
            "SELECT id, stock - held - sold AS left_units FROM product_options WHERE {}",
            in_ids(backend, "id")
        );
        Statements {
            lock_carts: format!(
                "INSERT INTO carts (member_id, site_id, status, updated_at)
                 SELECT x.member_id, x.site_id, 'open', x.updated_at FROM {} ORDER BY x.member_id
                 ON CONFLICT (member_id) DO NOTHING RETURNING member_id",
                json_rows(backend, &cart_cols)
            ),
            carts: lock(
                format!(
                    "SELECT member_id, status, cart_type FROM carts WHERE {}",
                    in_ids(backend, "member_id")
                ),
                "member_id",
            ),
            lines: format!(
                "SELECT member_id, option_id, product_id, quantity, expires_at FROM cart_items WHERE {}",
                in_ids(backend, "member_id")
            ),
            left_locked: lock(left.clone(), "id"),
            left,
            items: format!(
                "INSERT INTO cart_items (member_id, option_id, product_id, sale_id, quantity, origin, bundle_id, created_at, expires_at)
                 SELECT x.member_id, x.option_id, x.product_id, x.sale_id, x.quantity, x.origin, x.bundle_id, x.created_at, x.expires_at
                   FROM {} WHERE true
                 ON CONFLICT (member_id, option_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity,
                        expires_at = excluded.expires_at",
                json_rows(backend, &item_cols)
            ),
            upsert_carts: format!(
                "INSERT INTO carts (member_id, site_id, cart_type, status, updated_at)
                 SELECT x.member_id, x.site_id, x.cart_type, 'open', x.updated_at FROM {} WHERE true
                 ON CONFLICT (member_id) DO UPDATE SET cart_type = COALESCE(excluded.cart_type, carts.cart_type),
                        version = carts.version + 1, updated_at = excluded.updated_at",
                json_rows(backend, &cart_cols)
            ),
            drop_carts: format!("DELETE FROM carts WHERE {}", in_ids(backend, "member_id")),
            hold: "UPDATE product_options SET held = held + $2 WHERE id = $1 AND stock - held - sold >= $2",
        }
    }

    fn of(backend: Backend) -> &'static Statements {
        static SQLITE: OnceLock<Statements> = OnceLock::new();
        static POSTGRES: OnceLock<Statements> = OnceLock::new();
        match backend {
            Backend::Sqlite => SQLITE.get_or_init(|| Statements::new(backend)),
            Backend::Postgres => POSTGRES.get_or_init(|| Statements::new(backend)),
        }
    }
}

/// Runs a batch of adds in one transaction: one result per add (a refused add wrote
/// nothing), or the database error that undid the whole batch.
pub(super) async fn run_batch(
    db: &Db,
    settings: &CartSettings,
    jobs: &[&AddJob],
) -> Result<Vec<Result<(), CartError>>, sqlx::Error> {
    if let Some(results) = attempt(db, settings, jobs, false).await? {
        return Ok(results);
    }
    attempt(db, settings, jobs, true)
        .await?
        .ok_or_else(|| sqlx::Error::Protocol("locked stock rows moved".into()))
}

/// One try; `None` when a stock row no longer had the units read (rolled back).
async fn attempt(
    db: &Db,
    settings: &CartSettings,
    jobs: &[&AddJob],
    lock_stock: bool,
) -> Result<Option<Vec<Result<(), CartError>>>, sqlx::Error> {
    let backend = db.backend;
    let sql = Statements::of(backend);
    let pg = backend == Backend::Postgres;
    let mut members: Vec<i64> = jobs.iter().map(|j| j.m.id).collect();
    members.sort_unstable();
    members.dedup();
    let mut options: Vec<i64> = jobs
        .iter()
        .flat_map(|j| j.lines.iter().map(|l| l.option_id))
        .collect();
    options.sort_unstable();
    options.dedup();
    let member_ids = ids(backend, &members);

    let mut tx = db.begin().await?;
    let mut created: Vec<i64> = Vec::new();
    if pg {
        let mut rows: Vec<super::decide::CartWrite> = Vec::with_capacity(members.len());
        for j in jobs {
            if !rows.iter().any(|r| r.member_id == j.m.id) {
                rows.push(super::decide::CartWrite {
                    member_id: j.m.id,
                    site_id: j.m.site_id,
                    cart_type: String::new(),
                    updated_at: j.now,
                });
            }
        }
        created = sqlx::query_scalar(&sql.lock_carts)
            .bind(to_json(&rows)?)
            .fetch_all(&mut *tx)
            .await?;
    }
    let mut snap = Snapshot::default();
    for r in sqlx::query(&sql.carts)
        .bind(&member_ids)
        .fetch_all(&mut *tx)
        .await?
    {
        snap.carts.insert(
            r.try_get("member_id")?,
            CartRowState {
                status: r.try_get("status")?,
                cart_type: r.try_get("cart_type")?,
            },
        );
    }
    for r in sqlx::query(&sql.lines)
        .bind(&member_ids)
        .fetch_all(&mut *tx)
        .await?
    {
        snap.lines
            .entry(r.try_get("member_id")?)
            .or_default()
            .push(LineState {
                option_id: r.try_get("option_id")?,
                product_id: r.try_get("product_id")?,
                quantity: r.try_get("quantity")?,
                expires_at: r.try_get("expires_at")?,
            });
    }
    let left_sql = if lock_stock && pg {
        &sql.left_locked
    } else {
        &sql.left
    };
    for r in sqlx::query(left_sql)
        .bind(ids(backend, &options))
        .fetch_all(&mut *tx)
        .await?
    {
        snap.left.insert(r.try_get("id")?, r.try_get("left_units")?);
    }

    let plan = decide(jobs, snap, settings.hold_secs, settings.max_per_member);
    if !plan.items.is_empty() {
        sqlx::query(&sql.items)
            .bind(to_json(&plan.items)?)
            .execute(&mut *tx)
            .await?;
    }
    if !plan.carts.is_empty() {
        sqlx::query(&sql.upsert_carts)
            .bind(to_json(&plan.carts)?)
            .execute(&mut *tx)
            .await?;
    }
    let unused: Vec<i64> = created
        .into_iter()
        .filter(|m| !plan.accepted_members.contains(m))
        .collect();
    if !unused.is_empty() {
        sqlx::query(&sql.drop_carts)
            .bind(ids(backend, &unused))
            .execute(&mut *tx)
            .await?;
    }
    for (option_id, units) in &plan.held {
        let got = sqlx::query(sql.hold)
            .bind(option_id)
            .bind(units)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if got != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
    }
    tx.commit().await?;
    Ok(Some(plan.results))
}

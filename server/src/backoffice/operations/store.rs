//! Operations' SQL for the back office: the list, a new one, and an operation's selection.
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

use super::rules::NewOperation;

#[derive(Clone, Debug)]
pub struct OperationRow {
    pub id: i64,
    pub site_id: i64,
    pub code: String,
    pub title: String,
    pub target_kind: String,
    pub target: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// Products in its selection.
    pub chosen: i64,
}

const COLUMNS: &str =
    "o.id, o.site_id, o.code, o.title, o.target_kind, o.target, o.starts_at, o.ends_at,
    (SELECT COUNT(*) FROM operation_products op WHERE op.operation_id = o.id) AS chosen";

fn row(r: &sqlx::any::AnyRow) -> Result<OperationRow, sqlx::Error> {
    Ok(OperationRow {
        id: r.try_get("id")?,
        site_id: r.try_get("site_id")?,
        code: r.try_get("code")?,
        title: r.try_get("title")?,
        target_kind: r.try_get("target_kind")?,
        target: r.try_get("target")?,
        starts_at: r.try_get("starts_at")?,
        ends_at: r.try_get("ends_at")?,
        chosen: r.try_get("chosen")?,
    })
}

/// Every operation, the latest to end first.
pub async fn list(db: &Db) -> Result<Vec<OperationRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM operations o ORDER BY o.ends_at DESC, o.site_id, o.code"
    ))
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(row)
    .collect()
}

pub async fn one(db: &Db, id: i64) -> Result<Option<OperationRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM operations o WHERE o.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .as_ref()
    .map(row)
    .transpose()
}

/// Whether `sale_id` is a sale of the site (any dates: an operation may be set up before).
pub async fn is_sale_of_site(db: &Db, sale_id: i64, site_id: i64) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("SELECT 1 AS one FROM sales WHERE id = $1 AND site_id = $2")
            .bind(sale_id)
            .bind(site_id)
            .fetch_optional(&db.pool)
            .await?
            .is_some(),
    )
}

/// Whether the site has a home named `name`.
pub async fn is_home_of_site(db: &Db, name: &str, site_id: i64) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("SELECT 1 AS one FROM homes WHERE name = $1 AND site_id = $2")
            .bind(name)
            .bind(site_id)
            .fetch_optional(&db.pool)
            .await?
            .is_some(),
    )
}

/// Changes what an operation shows and when (its site and code stay); false when it is gone.
pub async fn update(
    tx: &mut Transaction<'_, Any>,
    id: i64,
    o: &NewOperation,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE operations SET title = $2, target_kind = $3, target = $4, starts_at = $5, ends_at = $6
          WHERE id = $1",
    )
    .bind(id)
    .bind(&o.title)
    .bind(o.target_kind)
    .bind(&o.target)
    .bind(o.starts_at)
    .bind(o.ends_at)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
}

/// Ends an operation now: its links land nowhere from then on. False when it had ended.
pub async fn end_now(
    tx: &mut Transaction<'_, Any>,
    id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE operations SET ends_at = $2, starts_at = CASE WHEN starts_at > $2 THEN $2 - 1 ELSE starts_at END
          WHERE id = $1 AND ends_at > $2",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
}

/// The new operation's id, or `None` when the site already has that code.
pub async fn create(
    tx: &mut Transaction<'_, Any>,
    o: &NewOperation,
) -> Result<Option<i64>, sqlx::Error> {
    let id = sqlx::query(
        "INSERT INTO operations (site_id, code, title, target_kind, target, starts_at, ends_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (site_id, code) DO NOTHING RETURNING id",
    )
    .bind(o.site_id)
    .bind(&o.code)
    .bind(&o.title)
    .bind(o.target_kind)
    .bind(&o.target)
    .bind(o.starts_at)
    .bind(o.ends_at)
    .fetch_optional(&mut **tx)
    .await?;
    id.map(|r| r.try_get("id")).transpose()
}

/// A product of an operation's selection, as the operator checks it.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub product_id: i64,
    /// Empty when the product is gone from the catalogue.
    pub name: String,
    pub sale_id: Option<i64>,
    pub sale_name: String,
    pub sale_ends_at: Option<i64>,
}

pub async fn selection(db: &Db, id: i64) -> Result<Vec<Chosen>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT op.product_id, pr.name, s.id AS sale_id, s.name AS sale_name, s.ends_at
           FROM operation_products op LEFT JOIN products pr ON pr.id = op.product_id
           LEFT JOIN sales s ON s.id = pr.sale_id
          WHERE op.operation_id = $1 ORDER BY op.position, op.product_id",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Chosen {
                product_id: r.try_get("product_id")?,
                name: r.try_get::<Option<String>, _>("name")?.unwrap_or_default(),
                sale_id: r.try_get("sale_id")?,
                sale_name: r
                    .try_get::<Option<String>, _>("sale_name")?
                    .unwrap_or_default(),
                sale_ends_at: r.try_get("ends_at")?,
            })
        })
        .collect()
}

/// Why a product cannot join a selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddRefusal {
    /// No such product in a sale of the operation's site.
    NotOfSite,
    Already,
}

/// Adds a product of the operation's site at the end of its selection.
pub async fn add(
    tx: &mut Transaction<'_, Any>,
    operation_id: i64,
    site_id: i64,
    product_id: i64,
) -> Result<Result<(), AddRefusal>, sqlx::Error> {
    let of_site = sqlx::query(
        "SELECT 1 AS one FROM products pr JOIN sales s ON s.id = pr.sale_id
          WHERE pr.id = $1 AND s.site_id = $2",
    )
    .bind(product_id)
    .bind(site_id)
    .fetch_optional(&mut **tx)
    .await?
    .is_some();
    if !of_site {
        return Ok(Err(AddRefusal::NotOfSite));
    }
    let added = sqlx::query(
        "INSERT INTO operation_products (operation_id, product_id, position)
         SELECT $1, $2, COALESCE(MAX(position), 0) + 1 FROM operation_products WHERE operation_id = $1
         ON CONFLICT (operation_id, product_id) DO NOTHING",
    )
    .bind(operation_id)
    .bind(product_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(if added == 1 {
        Ok(())
    } else {
        Err(AddRefusal::Already)
    })
}

/// Removes a product from the selection; false when it was not in it.
pub async fn remove(
    tx: &mut Transaction<'_, Any>,
    operation_id: i64,
    product_id: i64,
) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM operation_products WHERE operation_id = $1 AND product_id = $2")
            .bind(operation_id)
            .bind(product_id)
            .execute(&mut **tx)
            .await?
            .rows_affected()
            == 1,
    )
}

use sqlx::Row;

use crate::db::Db;
use crate::model::catalog::{ProductDetail, ProductOption};

/// A product of a live sale of the site, or `None`.
pub async fn product(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    product_id: i64,
    now: i64,
) -> Result<Option<ProductDetail>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT p.id, p.name, p.price_cents, p.retail_price_cents, s.name AS sale_name,
                COALESCE(b.name, '') AS brand
           FROM products p
           JOIN sales s ON s.id = p.sale_id
           LEFT JOIN brands b ON b.id = p.brand_id
          WHERE p.id = $1 AND p.sale_id = $2 AND s.site_id = $3 AND s.starts_at <= $4 AND s.ends_at > $4",
    )
    .bind(product_id)
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let options = sqlx::query(
        "SELECT id, label, stock FROM product_options WHERE product_id = $1 ORDER BY position, id",
    )
    .bind(product_id)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(ProductOption {
            id: r.try_get("id")?,
            label: r.try_get("label")?,
            stock: r.try_get("stock")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Some(ProductDetail {
        id: row.try_get("id")?,
        sale_id,
        sale_name: row.try_get("sale_name")?,
        name: row.try_get("name")?,
        brand: row.try_get("brand")?,
        image_url: format!("/img/product/{product_id}.svg"),
        price_cents: row.try_get("price_cents")?,
        retail_price_cents: row.try_get("retail_price_cents")?,
        options,
    }))
}

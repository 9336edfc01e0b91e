//! The brands of the site's live sales, with the member's brand alerts.
use sqlx::Row;

use crate::brands::model::{BrandSale, PlaceBrand};
use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;

/// Every brand with at least one product in a live sale of the site, by name; `followed`
/// for the member's brand alerts (`None`: a visitor); with `with_sales`, the live sales each
/// is in (one more query).
pub async fn live_brands(
    db: &Db,
    site_id: u16,
    member_id: Option<i64>,
    now: i64,
    with_sales: bool,
) -> Result<Vec<PlaceBrand>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT b.id, b.name, COUNT(*) AS items,
                (SELECT COUNT(*) FROM brand_alerts a WHERE a.brand_id = b.id AND a.member_id = $3) AS followed
           FROM products pr JOIN sales s ON s.id = pr.sale_id JOIN brands b ON b.id = pr.brand_id
          WHERE {LIVE_SALE} AND pr.moderation = ''
          GROUP BY b.id, b.name ORDER BY b.name, b.id"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(member_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let mut brands = rows
        .iter()
        .map(|r| {
            Ok(PlaceBrand {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                items: r.try_get("items")?,
                followed: r.try_get::<i64, _>("followed")? > 0,
                sales: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    if with_sales {
        let rows = sqlx::query(&format!(
            "SELECT DISTINCT pr.brand_id, s.id, s.name, s.ends_at
               FROM products pr JOIN sales s ON s.id = pr.sale_id
              WHERE {LIVE_SALE} AND pr.moderation = ''
              ORDER BY s.ends_at, s.id"
        ))
        .bind(i64::from(site_id))
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
        let at: std::collections::HashMap<i64, usize> =
            brands.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
        for r in &rows {
            let brand: i64 = r.try_get("brand_id")?;
            if let Some(&i) = at.get(&brand) {
                brands[i].sales.push(BrandSale {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    ends_at: r.try_get("ends_at")?,
                });
            }
        }
    }
    Ok(brands)
}

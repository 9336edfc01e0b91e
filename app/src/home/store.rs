use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use sqlx::Row;

use crate::db::Db;
use crate::model::catalog::SaleCard;

/// Live sales of a site, in display order, with their cheapest price and best discount.
pub async fn live_sales(db: &Db, site_id: u16, now: i64) -> Result<Vec<SaleCard>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT s.id, s.name, s.slug, s.offer_type, s.ends_at,
                (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS first_universe,
                (SELECT MIN(p.price_cents) FROM products p WHERE p.sale_id = s.id) AS min_price,
                (SELECT MAX((p.retail_price_cents - p.price_cents) * 100 / p.retail_price_cents)
                   FROM products p WHERE p.sale_id = s.id AND p.retail_price_cents > 0) AS max_discount
           FROM sales s
          WHERE s.site_id = $1 AND s.starts_at <= $2 AND s.ends_at > $2 AND s.campaign_kind = 'DEFAULT'
          ORDER BY s.position, s.id",
    )
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            Ok(SaleCard {
                id,
                name: r.try_get("name")?,
                offer_type: r.try_get("offer_type")?,
                seo_slug: r.try_get("slug")?,
                first_universe_id: r.try_get::<Option<i64>, _>("first_universe")?.unwrap_or(0),
                end_date: r.try_get("ends_at")?,
                banner_url: format!("/img/sale/{id}/banner.svg"),
                logo_url: format!("/img/sale/{id}/logo.svg"),
                min_price_cents: r.try_get("min_price")?,
                max_discount_percent: r
                    .try_get::<Option<i64>, _>("max_discount")?
                    .filter(|d| *d > 0),
            })
        })
        .collect()
}

/// How long a site's sale list is reused. Every visitor of a site sees the same list, so a
/// few seconds of reuse take the query off the hot path; a sale that just ended may show
/// for at most this long.
pub const CACHE_SECS: i64 = 5;

type Cache = HashMap<u16, (i64, Vec<SaleCard>)>;
static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// [`live_sales`] through a short per-process cache (the database stays the truth).
pub async fn live_sales_cached(
    db: &Db,
    site_id: u16,
    now: i64,
) -> Result<Vec<SaleCard>, sqlx::Error> {
    if let Some((at, sales)) = CACHE.lock().ok().and_then(|c| c.get(&site_id).cloned()) {
        if now - at < CACHE_SECS && now >= at {
            return Ok(sales.into_iter().filter(|s| s.end_date > now).collect());
        }
    }
    let sales = live_sales(db, site_id, now).await?;
    if let Ok(mut c) = CACHE.lock() {
        c.insert(site_id, (now, sales.clone()));
    }
    Ok(sales)
}

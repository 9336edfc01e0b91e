//! The in-memory index of each site: built from its live sales, rebuilt when one starts or
//! ends (or after `INDEX_MAX_AGE_SECS`), one rebuild at a time per key.
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};

use sqlx::Row;

use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;
use crate::search::index::{ProductDoc, SaleDoc, SiteIndex};

/// An index is rebuilt after this long even when no sale started or ended.
pub const INDEX_MAX_AGE_SECS: i64 = 60;
/// Hits considered for a results page (far more than any site has today).
pub(super) const MAX_HITS: usize = 2000;
pub const MAX_LIMIT: i64 = 96;

/// The in-memory index of every site, owned by the application state (one per database),
/// and the sites whose index one request is rebuilding right now.
#[derive(Default)]
pub struct SearchIndexes {
    indexes: RwLock<HashMap<u16, Arc<SiteIndex>>>,
    building: Mutex<HashSet<u16>>,
}

impl SearchIndexes {
    /// Drops every site's index: the next search rebuilds it (a moderator took a product
    /// out of search).
    pub fn clear(&self) {
        if let Ok(mut m) = self.indexes.write() {
            m.clear();
        }
    }
}

/// Releases a rebuild claim, also when the rebuild fails.
struct Claim<'a>(&'a SearchIndexes, u16);
impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if let Ok(mut b) = self.0.building.lock() {
            b.remove(&self.1);
        }
    }
}

/// The site's index, rebuilt when older than a minute or when a sale ended or started.
/// One request rebuilds while the others keep using the previous index: that is safe,
/// since every hit is checked against the live sales before it is shown.
pub async fn site_index(
    db: &Db,
    indexes: &SearchIndexes,
    site_id: u16,
    now: i64,
) -> Result<Arc<SiteIndex>, sqlx::Error> {
    let cached = indexes
        .indexes
        .read()
        .ok()
        .and_then(|m| m.get(&site_id).cloned());
    let claim = match cached {
        Some(i) if !i.is_stale(now, INDEX_MAX_AGE_SECS) => return Ok(i),
        Some(i) => {
            let claimed = indexes.building.lock().is_ok_and(|mut b| b.insert(site_id));
            if !claimed {
                return Ok(i);
            }
            Some(Claim(indexes, site_id))
        }
        None => None,
    };
    let built = Arc::new(build(db, site_id, now).await?);
    if let Ok(mut m) = indexes.indexes.write() {
        m.insert(site_id, built.clone());
    }
    drop(claim);
    Ok(built)
}

pub(super) async fn build(db: &Db, site_id: u16, now: i64) -> Result<SiteIndex, sqlx::Error> {
    let site = i64::from(site_id);
    let rows = sqlx::query(&format!(
        "SELECT pr.id, pr.sale_id, pr.position, pr.name, pr.color, COALESCE(b.name, '') AS brand,
                s.name AS sale_name, s.position AS sale_position, u.title AS universe,
                COALESCE(pu.title, '') AS parent_universe
           FROM products pr JOIN sales s ON s.id = pr.sale_id
           LEFT JOIN brands b ON b.id = pr.brand_id
           JOIN universes u ON u.id = pr.universe_id
           LEFT JOIN universes pu ON pu.id = u.parent_id
          WHERE {LIVE_SALE} AND pr.moderation = ''"
    ))
    .bind(site)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut products = Vec::with_capacity(rows.len());
    for r in &rows {
        let mut universes = vec![r.try_get::<String, _>("universe")?];
        let parent: String = r.try_get("parent_universe")?;
        if !parent.is_empty() {
            universes.push(parent);
        }
        products.push(ProductDoc {
            id: r.try_get("id")?,
            sale_id: r.try_get("sale_id")?,
            sale_position: r.try_get("sale_position")?,
            position: r.try_get("position")?,
            name: r.try_get("name")?,
            brand: r.try_get("brand")?,
            color: r.try_get("color")?,
            sale_name: r.try_get("sale_name")?,
            universes,
        });
    }
    let sales = sqlx::query(&format!(
        "SELECT s.id, s.name, s.slug, s.position FROM sales s WHERE {LIVE_SALE} ORDER BY s.position, s.id"
    ))
    .bind(site)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SaleDoc {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            position: r.try_get("position")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    // The index is right until the first live sale ends or the next one starts.
    let next_end: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT MIN(s.ends_at) FROM sales s WHERE {LIVE_SALE}"
    ))
    .bind(site)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    let next_start: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(starts_at) FROM sales WHERE site_id = $1 AND starts_at > $2",
    )
    .bind(site)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    let valid_until = [next_end, next_start]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(i64::MAX);
    Ok(SiteIndex::build(products, sales, now, valid_until))
}

//! What the suggestions offer before anything is typed (spec 000 §3 `defaultLists`):
//! popular searches and current sales, after the member's own recent queries.
use sqlx::Row;

use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;
use crate::search::index::SaleDoc;

/// How far back a query counts as popular.
const POPULAR_WINDOW_SECS: i64 = 30 * 86_400;
/// A query is shown to others only once this many members typed it: one member's
/// search (a name, an order number) never reaches anyone else.
pub const POPULAR_MIN_MEMBERS: i64 = 3;

/// The site's popular searches, most members first; completed by the brands with the
/// most products on sale when the members' searches are too few (a new site, a quiet month).
pub async fn popular(
    db: &Db,
    site_id: u16,
    max: usize,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT MIN(query) AS query, query_key, COUNT(DISTINCT member_id) AS members
           FROM search_queries WHERE site_id = $1 AND created_at > $2
          GROUP BY query_key HAVING COUNT(DISTINCT member_id) >= $3
          ORDER BY members DESC, query_key LIMIT $4",
    )
    .bind(i64::from(site_id))
    .bind(now - POPULAR_WINDOW_SECS)
    .bind(POPULAR_MIN_MEMBERS)
    .bind(max as i64)
    .fetch_all(&db.pool)
    .await?;
    let mut out = rows
        .iter()
        .map(|r| r.try_get::<String, _>("query"))
        .collect::<Result<Vec<_>, _>>()?;
    if out.len() < max {
        let brands = sqlx::query(&format!(
            "SELECT b.name AS name, COUNT(*) AS n FROM products pr
               JOIN sales s ON s.id = pr.sale_id JOIN brands b ON b.id = pr.brand_id
              WHERE {LIVE_SALE} AND pr.moderation = ''
              GROUP BY b.name ORDER BY n DESC, b.name LIMIT {max}"
        ))
        .bind(i64::from(site_id))
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
        for r in &brands {
            let name: String = r.try_get("name")?;
            let key = crate::search::index::recent_key(&name);
            if out.len() < max
                && !out
                    .iter()
                    .any(|q| crate::search::index::recent_key(q) == key)
            {
                out.push(name);
            }
        }
    }
    Ok(out)
}

/// The sales on now, in the home's order.
pub async fn current_sales(
    db: &Db,
    site_id: u16,
    max: usize,
    now: i64,
) -> Result<Vec<SaleDoc>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT s.id, s.name, s.slug, s.position FROM sales s WHERE {LIVE_SALE}
          ORDER BY s.position, s.id LIMIT {max}"
    ))
    .bind(i64::from(site_id))
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
    .collect()
}

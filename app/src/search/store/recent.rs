//! The member's recent queries: recorded, listed, deleted.

use sqlx::{Any, Row, Transaction};

use crate::model::search::*;
use crate::platform::db::Db;
use crate::search::index::{self};

/// Records a member's search: the newest first, one entry per query (case and accents
/// ignored), the last ten kept.
/// Inside `tx`, the caller's transaction (the search recorder's group commit).
pub(crate) async fn record(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    site_id: u16,
    q: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    let query = index::normalize_query(q);
    if query.is_empty() {
        return Ok(());
    }
    let key = index::recent_key(&query);
    let site = i64::from(site_id);
    // Deleted and inserted again, so a repeated query moves to the top with a new id.
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND query_key = $3",
    )
    .bind(member_id)
    .bind(site)
    .bind(&key)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO search_queries (member_id, site_id, query, query_key, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (member_id, site_id, query_key) DO NOTHING",
    )
    .bind(member_id)
    .bind(site)
    .bind(&query)
    .bind(&key)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND id NOT IN
           (SELECT id FROM search_queries WHERE member_id = $1 AND site_id = $2
             ORDER BY created_at DESC, id DESC LIMIT $3)",
    )
    .bind(member_id)
    .bind(site)
    .bind(index::RECENT_KEPT as i64)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A member's recent queries on a site, newest first.
pub async fn recent(
    db: &Db,
    member_id: i64,
    site_id: u16,
) -> Result<Vec<RecentQuery>, sqlx::Error> {
    sqlx::query(
        "SELECT id, query, created_at FROM search_queries WHERE member_id = $1 AND site_id = $2
          ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(member_id)
    .bind(i64::from(site_id))
    .bind(index::RECENT_KEPT as i64)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(RecentQuery {
            id: r.try_get("id")?,
            query: r.try_get("query")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect()
}

/// Deletes one of the member's recent queries; `false` when it is not theirs (or gone).
pub(crate) async fn delete_recent(db: &Db, member_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM search_queries WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member_id)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

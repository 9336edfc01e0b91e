//! The member's recent queries: recorded, listed, deleted.

use std::sync::OnceLock;

use sqlx::{Any, Row, Transaction};

use crate::model::search::*;
use crate::platform::db::{Backend, Db};
use crate::platform::sql::{json_rows, to_json};
use crate::search::index::{self};

/// One query to record (see [`record_all`]).
pub(crate) struct Searched<'a> {
    pub member_id: i64,
    pub site_id: u16,
    pub q: &'a str,
    pub now: i64,
}

/// A row of [`record_all`]'s statements.
#[derive(serde::Serialize)]
struct QueryRow {
    ord: i64,
    member_id: i64,
    site_id: i64,
    query: String,
    query_key: String,
    created_at: i64,
}

/// The statements of [`record_all`] on PostgreSQL (SQLite writes query by query).
struct Statements {
    delete: String,
    insert: String,
    trim: String,
}

impl Statements {
    fn postgres() -> &'static Statements {
        static POSTGRES: OnceLock<Statements> = OnceLock::new();
        POSTGRES.get_or_init(|| {
            let rows = json_rows(
                Backend::Postgres,
                &[
                    ("ord", "BIGINT"),
                    ("member_id", "BIGINT"),
                    ("site_id", "BIGINT"),
                    ("query", "TEXT"),
                    ("query_key", "TEXT"),
                    ("created_at", "BIGINT"),
                ],
            );
            Statements {
                delete: format!(
                    "DELETE FROM search_queries WHERE EXISTS (SELECT 1 FROM {rows}
                       WHERE x.member_id = search_queries.member_id
                         AND x.site_id = search_queries.site_id
                         AND x.query_key = search_queries.query_key)"
                ),
                // In the batch's order, so that ids grow as the searches came.
                insert: format!(
                    "INSERT INTO search_queries (member_id, site_id, query, query_key, created_at)
                     SELECT x.member_id, x.site_id, x.query, x.query_key, x.created_at
                       FROM {rows} WHERE true ORDER BY x.ord
                     ON CONFLICT (member_id, site_id, query_key) DO NOTHING"
                ),
                trim: format!(
                    "DELETE FROM search_queries WHERE id IN (
                       SELECT id FROM (
                         SELECT q.id, ROW_NUMBER() OVER (PARTITION BY q.member_id, q.site_id
                                  ORDER BY q.created_at DESC, q.id DESC) AS n
                           FROM search_queries q
                          WHERE EXISTS (SELECT 1 FROM {rows}
                                  WHERE x.member_id = q.member_id AND x.site_id = q.site_id)) AS r
                        WHERE r.n > {kept})",
                    kept = index::RECENT_KEPT
                ),
            }
        })
    }
}

/// Records members' searches, in order: for each member and site the newest first, one
/// entry per query (case and accents ignored), the last ten kept. A repeated query is
/// deleted and inserted again, so it moves to the top with a new id. Inside the search
/// recorder's transaction `tx` (group commit): on PostgreSQL three statements for the whole
/// batch, on SQLite three per query.
pub(crate) async fn record_all(
    backend: Backend,
    tx: &mut Transaction<'static, Any>,
    searched: &[Searched<'_>],
) -> Result<(), sqlx::Error> {
    // A query searched twice in the batch counts once, where it was searched last: as
    // if each had been deleted and inserted again in turn.
    let mut rows: Vec<QueryRow> = Vec::with_capacity(searched.len());
    for s in searched {
        let query = index::normalize_query(s.q);
        if query.is_empty() {
            continue;
        }
        let key = index::recent_key(&query);
        let site_id = i64::from(s.site_id);
        rows.retain(|r| {
            !(r.member_id == s.member_id && r.site_id == site_id && r.query_key == key)
        });
        rows.push(QueryRow {
            ord: 0,
            member_id: s.member_id,
            site_id,
            query,
            query_key: key,
            created_at: s.now,
        });
    }
    if rows.is_empty() {
        return Ok(());
    }
    for (i, r) in rows.iter_mut().enumerate() {
        r.ord = i as i64;
    }
    if backend == Backend::Sqlite {
        // SQLite runs the set-based statements below as a scan of the whole table per
        // batch (its correlated EXISTS over `json_each` is not a semi-join): member search
        // pages fell from 5,867 to 738 req/s in bench-member. One writer, no round trips:
        // three indexed statements per query are cheaper there.
        for r in &rows {
            record_one(tx, r).await?;
        }
        return Ok(());
    }
    let json = to_json(&rows)?;
    let sql = Statements::postgres();
    for statement in [&sql.delete, &sql.insert, &sql.trim] {
        sqlx::query(statement)
            .bind(&json)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// One query recorded with statements of its own (see [`record_all`]).
async fn record_one(tx: &mut Transaction<'static, Any>, r: &QueryRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND query_key = $3",
    )
    .bind(r.member_id)
    .bind(r.site_id)
    .bind(&r.query_key)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO search_queries (member_id, site_id, query, query_key, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (member_id, site_id, query_key) DO NOTHING",
    )
    .bind(r.member_id)
    .bind(r.site_id)
    .bind(&r.query)
    .bind(&r.query_key)
    .bind(r.created_at)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND id NOT IN
           (SELECT id FROM search_queries WHERE member_id = $1 AND site_id = $2
             ORDER BY created_at DESC, id DESC LIMIT $3)",
    )
    .bind(r.member_id)
    .bind(r.site_id)
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
        .execute(&db.writes)
        .await?;
    Ok(done.rows_affected() > 0)
}

//! Experiments SQL: the assignments and exposures of visitors, and the report's counts.
use sqlx::{Any, Row, Transaction};

use super::report::Counts;
use crate::platform::db::Db;

/// Records one exposure of `visitor` to each experiment of `assigned`: the first one
/// inserts the assignment, later ones count and move `last_exposed_at`. The variation
/// stored is the one shown last (weights can change while an experiment runs).
pub async fn expose(
    tx: &mut Transaction<'_, Any>,
    site_id: u16,
    visitor: &str,
    member_id: Option<i64>,
    assigned: &[(String, String)],
    now: i64,
) -> Result<(), sqlx::Error> {
    for (experiment, variation) in assigned {
        sqlx::query(
            "INSERT INTO experiment_assignments
                 (experiment, visitor, variation, site_id, member_id, assigned_at, last_exposed_at, exposures)
             VALUES ($1, $2, $3, $4, $5, $6, $6, 1)
             ON CONFLICT (experiment, visitor) DO UPDATE SET
                 variation = excluded.variation,
                 last_exposed_at = excluded.last_exposed_at,
                 exposures = experiment_assignments.exposures + 1,
                 member_id = COALESCE(experiment_assignments.member_id, excluded.member_id)",
        )
        .bind(experiment)
        .bind(visitor)
        .bind(variation)
        .bind(i64::from(site_id))
        .bind(member_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The anonymous visitor `visitor` is now seen signed in as `member_id`: their anonymous
/// assignments count that member's paid orders.
pub async fn link_member(
    tx: &mut Transaction<'_, Any>,
    visitor: &str,
    member_id: i64,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE experiment_assignments SET member_id = $1 WHERE visitor = $2 AND member_id IS NULL",
    )
    .bind(member_id)
    .bind(visitor)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// Per experiment and variation: visitors, exposures, and visitors whose member paid an
/// order at or after their assignment (orders exist once paid).
pub async fn counts(db: &Db) -> Result<Vec<Counts>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT a.experiment, a.variation,
                COUNT(*) AS visitors,
                CAST(SUM(a.exposures) AS BIGINT) AS exposures,
                CAST(SUM(CASE WHEN EXISTS (
                    SELECT 1 FROM orders o
                     WHERE o.member_id = a.member_id AND o.created_at >= a.assigned_at
                ) THEN 1 ELSE 0 END) AS BIGINT) AS conversions
           FROM experiment_assignments a
          GROUP BY a.experiment, a.variation
          ORDER BY a.experiment, a.variation",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let n = |c: &str| r.try_get::<i64, _>(c).map(|v| v.max(0) as u64);
            Ok(Counts {
                experiment: r.try_get("experiment")?,
                variation: r.try_get("variation")?,
                visitors: n("visitors")?,
                exposures: n("exposures")?,
                conversions: n("conversions")?,
            })
        })
        .collect()
}

/// The stored variation of one experiment and visitor (tests and support).
pub async fn assignment(
    db: &Db,
    experiment: &str,
    visitor: &str,
) -> Result<Option<(String, i64, Option<i64>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT variation, exposures, member_id FROM experiment_assignments
          WHERE experiment = $1 AND visitor = $2",
    )
    .bind(experiment)
    .bind(visitor)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("variation")?,
            r.try_get("exposures")?,
            r.try_get("member_id")?,
        ))
    })
    .transpose()
}

//! Experiments SQL: the assignments and exposures of visitors, the report's counts, and
//! the operators' controls.
use std::sync::OnceLock;

use sqlx::{Any, Row, Transaction};

use super::controls::{parse_stored, weights_text, Control, Status};
use super::report::Counts;
use super::rules::{definition, Definition};
use crate::platform::db::{Backend, Db};
use crate::platform::sql::{json_rows, to_json};

/// A page view's exposure to one experiment (see [`expose_all`]).
pub struct Exposed<'a> {
    pub experiment: &'a str,
    pub visitor: &'a str,
    pub variation: &'a str,
    pub site_id: u16,
    pub member_id: Option<i64>,
    pub now: i64,
}

/// A row of [`expose_all`]'s upsert: one visitor's exposures to one experiment in a batch.
#[derive(serde::Serialize)]
struct ExposureRow<'a> {
    experiment: &'a str,
    visitor: &'a str,
    variation: &'a str,
    site_id: i64,
    member_id: Option<i64>,
    first_at: i64,
    last_at: i64,
    exposures: i64,
}

/// Records exposures, in order: the first one of a visitor to an experiment inserts the
/// assignment, later ones count and move `last_exposed_at`. The variation stored is the
/// one shown last (weights can change while an experiment runs); the member is the first
/// one known. One statement for the whole batch (the exposure writer's group commit):
/// a visitor's exposures to one experiment are summed first, as one row may be updated
/// only once by a statement.
pub async fn expose_all(
    backend: Backend,
    tx: &mut Transaction<'_, Any>,
    exposed: &[Exposed<'_>],
) -> Result<(), sqlx::Error> {
    let mut rows: Vec<ExposureRow<'_>> = Vec::with_capacity(exposed.len());
    for e in exposed {
        match rows
            .iter_mut()
            .find(|r| r.experiment == e.experiment && r.visitor == e.visitor)
        {
            Some(r) => {
                r.variation = e.variation;
                r.member_id = r.member_id.or(e.member_id);
                r.last_at = e.now;
                r.exposures += 1;
            }
            None => rows.push(ExposureRow {
                experiment: e.experiment,
                visitor: e.visitor,
                variation: e.variation,
                site_id: i64::from(e.site_id),
                member_id: e.member_id,
                first_at: e.now,
                last_at: e.now,
                exposures: 1,
            }),
        }
    }
    if rows.is_empty() {
        return Ok(());
    }
    static SQL: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    let sql = SQL[usize::from(backend == Backend::Postgres)].get_or_init(|| {
        let rows = json_rows(
            backend,
            &[
                ("experiment", "TEXT"),
                ("visitor", "TEXT"),
                ("variation", "TEXT"),
                ("site_id", "BIGINT"),
                ("member_id", "BIGINT"),
                ("first_at", "BIGINT"),
                ("last_at", "BIGINT"),
                ("exposures", "BIGINT"),
            ],
        );
        format!(
            "INSERT INTO experiment_assignments
                 (experiment, visitor, variation, site_id, member_id, assigned_at, last_exposed_at, exposures)
             SELECT x.experiment, x.visitor, x.variation, x.site_id, x.member_id, x.first_at, x.last_at, x.exposures
               FROM {rows} WHERE true
             ON CONFLICT (experiment, visitor) DO UPDATE SET
                 variation = excluded.variation,
                 last_exposed_at = excluded.last_exposed_at,
                 exposures = experiment_assignments.exposures + excluded.exposures,
                 member_id = COALESCE(experiment_assignments.member_id, excluded.member_id)"
        )
    });
    sqlx::query(sql)
        .bind(to_json(&rows)?)
        .execute(&mut **tx)
        .await?;
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

/// A row of `experiment_controls` as a control (`None`: an experiment this release does
/// not define any more).
fn control_of(r: &sqlx::any::AnyRow) -> Result<Option<Control>, sqlx::Error> {
    let name: String = r.try_get("experiment")?;
    let Some(def) = definition(&name) else {
        return Ok(None);
    };
    let status: String = r.try_get("status")?;
    let weights: Option<String> = r.try_get("weights")?;
    let weights = weights.and_then(|w| {
        let read = parse_stored(def, &w);
        if read.is_none() {
            tracing::warn!(experiment = def.name, weights = %w, "stored weights no longer fit, the settings' apply");
        }
        read
    });
    Ok(Some(Control {
        experiment: def.name,
        status: Status::parse(&status).unwrap_or(Status::Running),
        weights,
        version: r.try_get("version")?,
        updated_by: r.try_get("updated_by")?,
        updated_at: r.try_get("updated_at")?,
    }))
}

const CONTROL_COLUMNS: &str = "experiment, status, weights, version, updated_by, updated_at";

/// The stored controls (experiments an operator never touched have no row).
pub async fn controls(db: &Db) -> Result<Vec<Control>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {CONTROL_COLUMNS} FROM experiment_controls ORDER BY experiment"
    ))
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(control_of)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect())
}

/// One experiment's control in a write's transaction, its row made first if it has none
/// (so that the write's UPDATE always has a row to check the version on).
pub async fn control_for_update(
    tx: &mut Transaction<'_, Any>,
    def: &Definition,
) -> Result<Control, sqlx::Error> {
    sqlx::query(
        "INSERT INTO experiment_controls (experiment, status, weights, version)
         VALUES ($1, 'running', NULL, 0) ON CONFLICT (experiment) DO NOTHING",
    )
    .bind(def.name)
    .execute(&mut **tx)
    .await?;
    let row = sqlx::query(&format!(
        "SELECT {CONTROL_COLUMNS} FROM experiment_controls WHERE experiment = $1"
    ))
    .bind(def.name)
    .fetch_one(&mut **tx)
    .await?;
    Ok(control_of(&row)?.unwrap_or_else(|| Control::untouched(def)))
}

/// Writes `to` if the row is still at version `seen`, bumping the version; whether it was.
pub async fn save_control(
    tx: &mut Transaction<'_, Any>,
    def: &Definition,
    to: &Control,
    seen: i64,
    operator_id: Option<i64>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE experiment_controls
            SET status = $1, weights = $2, version = version + 1,
                updated_by_id = $3, updated_by = $4, updated_at = $5
          WHERE experiment = $6 AND version = $7",
    )
    .bind(to.status.as_str())
    .bind(to.weights.as_ref().map(|w| weights_text(def, w)))
    .bind(operator_id)
    .bind(&to.updated_by)
    .bind(to.updated_at)
    .bind(def.name)
    .bind(seen)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

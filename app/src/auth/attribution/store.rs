//! The attribution's SQL: one row per account that registered with a source, written in
//! the registration's transaction, and the report's counts.
use sqlx::{Any, Row, Transaction};

use super::{Attribution, Dimension};
use crate::platform::db::Db;

/// Records where `member_id`'s registration came from; an account with no source at all
/// gets no row (the report counts it as direct).
pub async fn record(
    tx: &mut Transaction<'_, Any>,
    member_id: i64,
    site_id: i64,
    a: &Attribution,
    now: i64,
) -> Result<(), sqlx::Error> {
    if *a == Attribution::default() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO member_attribution (member_id, site_id, utm_source, utm_medium,
             utm_campaign, utm_content, utm_term, form_id, godfather_type, partner_id,
             open_door, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(member_id)
    .bind(site_id)
    .bind(a.utm_source.as_str())
    .bind(a.utm_medium.as_str())
    .bind(a.utm_campaign.as_str())
    .bind(a.utm_content.as_str())
    .bind(a.utm_term.as_str())
    .bind(a.form_id)
    .bind(a.godfather_type.as_str())
    .bind(a.partner_id.as_str())
    .bind(i64::from(a.open_door))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One value of the report's dimension and what its registrations became.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportLine {
    /// The value ("" when the link gave none; "1"/"0" for open-door).
    pub value: String,
    pub registered: i64,
    /// Accounts activated from the emailed link (later closed ones included).
    pub activated: i64,
    /// Accounts with at least one paid order.
    pub buyers: i64,
}

/// The most lines a report shows (a free-text source could have many values).
pub const MAX_LINES: i64 = 200;

/// Registrations from `from` (included) to `to` (excluded), on `site` (0: every site),
/// grouped by `by`, the most registrations first.
pub async fn report(
    db: &Db,
    by: Dimension,
    site: i64,
    from: i64,
    to: i64,
) -> Result<Vec<ReportLine>, sqlx::Error> {
    let column = match by {
        Dimension::Source => "COALESCE(a.utm_source, '')",
        Dimension::Medium => "COALESCE(a.utm_medium, '')",
        Dimension::Campaign => "COALESCE(a.utm_campaign, '')",
        Dimension::Form => "COALESCE(CAST(a.form_id AS TEXT), '')",
        Dimension::Partner => "COALESCE(a.partner_id, '')",
        Dimension::GodfatherType => "COALESCE(a.godfather_type, '')",
        Dimension::OpenDoor => "CAST(COALESCE(a.open_door, 0) AS TEXT)",
    };
    let unpaid = crate::orders::invoice::NOT_INVOICEABLE
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let rows = sqlx::query(&format!(
        "SELECT {column} AS value,
                CAST(COUNT(*) AS BIGINT) AS registered,
                CAST(SUM(CASE WHEN m.status <> 0 THEN 1 ELSE 0 END) AS BIGINT) AS activated,
                CAST(SUM(CASE WHEN EXISTS (SELECT 1 FROM orders o WHERE o.member_id = m.id
                                                AND o.status NOT IN ({unpaid}))
                              THEN 1 ELSE 0 END) AS BIGINT) AS buyers
           FROM members m LEFT JOIN member_attribution a ON a.member_id = m.id
          WHERE m.created_at >= $1 AND m.created_at < $2 AND ($3 = 0 OR m.site_id = $3)
          GROUP BY {column}
          ORDER BY registered DESC, value
          LIMIT {MAX_LINES}"
    ))
    .bind(from)
    .bind(to)
    .bind(site)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(ReportLine {
                value: r.try_get("value")?,
                registered: r.try_get("registered")?,
                activated: r.try_get("activated")?,
                buyers: r.try_get("buyers")?,
            })
        })
        .collect()
}

/// Where `member_id`'s registration came from, when it gave any source.
pub async fn of_member(db: &Db, member_id: i64) -> Result<Option<Attribution>, sqlx::Error> {
    let Some(r) = sqlx::query(
        "SELECT utm_source, utm_medium, utm_campaign, utm_content, utm_term, form_id,
                godfather_type, partner_id, open_door
           FROM member_attribution WHERE member_id = $1",
    )
    .bind(member_id)
    .fetch_optional(&db.pool)
    .await?
    else {
        return Ok(None);
    };
    Ok(Some(Attribution {
        utm_source: r.try_get("utm_source")?,
        utm_medium: r.try_get("utm_medium")?,
        utm_campaign: r.try_get("utm_campaign")?,
        utm_content: r.try_get("utm_content")?,
        utm_term: r.try_get("utm_term")?,
        form_id: r.try_get("form_id")?,
        godfather_type: r.try_get("godfather_type")?,
        partner_id: r.try_get("partner_id")?,
        open_door: r.try_get::<i64, _>("open_door")? != 0,
    }))
}

//! Demo operations on every site: `BIENVENUE` lands on the home page,
//! `VENTE-FLASH` on the site's first live sale, `ETE2019` is over. Refreshed at every
//! start (after the sale dates), so the sale and the windows stay right.
use app::platform::db::Db;
use app::site::SITES;

const YEAR: i64 = 365 * 86400;

pub(super) async fn ensure(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    for site in SITES.iter().map(|s| i64::from(s.site_id)) {
        let first_sale: Option<i64> = sqlx::query_scalar(&format!(
            "SELECT s.id FROM sales s WHERE {} ORDER BY s.position, s.id LIMIT 1",
            app::platform::sql::LIVE_SALE
        ))
        .bind(site)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?;
        let mut rows = vec![
            (
                "BIENVENUE",
                "home",
                "default".to_string(),
                now - 86400,
                now + YEAR,
            ),
            (
                "ETE2019",
                "home",
                "default".to_string(),
                now - 2 * YEAR,
                now - YEAR,
            ),
        ];
        if let Some(sale) = first_sale {
            rows.push((
                "VENTE-FLASH",
                "sale",
                sale.to_string(),
                now - 86400,
                now + YEAR,
            ));
        }
        for (code, kind, target, starts, ends) in rows {
            sqlx::query(
                "INSERT INTO operations (site_id, code, target_kind, target, starts_at, ends_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (site_id, code) DO UPDATE SET target_kind = excluded.target_kind,
                    target = excluded.target, starts_at = excluded.starts_at, ends_at = excluded.ends_at",
            )
            .bind(site)
            .bind(code)
            .bind(kind)
            .bind(target)
            .bind(starts)
            .bind(ends)
            .execute(&db.pool)
            .await?;
        }
    }
    Ok(())
}

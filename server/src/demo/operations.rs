//! Demo operations on every site: `BIENVENUE` lands on the home page,
//! `VENTE-FLASH` on the site's first live sale, `ETE2019` is over, and `SELECTION` on its
//! own selection: the first two products of each of the site's first three live sales.
//! Refreshed at every start (after the sale dates), so the sale and the windows stay right.
use app::platform::db::Db;
use app::site::SITES;

const YEAR: i64 = 365 * 86400;

pub(super) async fn ensure(db: &Db, now: i64) -> Result<(), sqlx::Error> {
    for s in SITES.iter() {
        let site = i64::from(s.site_id);
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
                "SELECTION",
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
        selection(db, site, title(s.lang), now).await?;
    }
    Ok(())
}

/// The demo selection's title in the site's language.
fn title(locale: &str) -> &'static str {
    match locale.split(['-', '_']).next().unwrap_or_default() {
        "de" => "Die Auswahl der Woche",
        "es" => "La selección de la semana",
        "it" => "La selezione della settimana",
        "nl" => "De selectie van de week",
        _ => "La sélection de la semaine",
    }
}

/// `SELECTION`'s products: the first two of each of the first three live sales.
async fn selection(db: &Db, site: i64, title: &str, now: i64) -> Result<(), sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "UPDATE operations SET title = $3 WHERE site_id = $1 AND code = $2 RETURNING id",
    )
    .bind(site)
    .bind("SELECTION")
    .bind(title)
    .fetch_one(&db.pool)
    .await?;
    let sales: Vec<i64> = sqlx::query_scalar(&format!(
        "SELECT s.id FROM sales s WHERE {} ORDER BY s.position, s.id LIMIT 3",
        app::platform::sql::LIVE_SALE
    ))
    .bind(site)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    sqlx::query("DELETE FROM operation_products WHERE operation_id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    let mut position = 0_i64;
    for sale in sales {
        let products: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM products WHERE sale_id = $1 AND moderation = '' AND COALESCE(item_type, 1) = 1
              ORDER BY position, id LIMIT 2",
        )
        .bind(sale)
        .fetch_all(&db.pool)
        .await?;
        for product in products {
            position += 1;
            sqlx::query(
                "INSERT INTO operation_products (operation_id, product_id, position)
                 VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(product)
            .bind(position)
            .execute(&db.pool)
            .await?;
        }
    }
    Ok(())
}

//! The travel products a member opened, newest first (spec 001 §2 "last-viewed list").
use sqlx::Row;

use crate::model::travel::TravelOffer;
use crate::platform::db::Db;
use crate::platform::sql::{live_window, shown};

/// How many a member keeps: older views are dropped when a new one is recorded.
pub const KEPT: i64 = 20;

/// Records that the member opened the product now (moves it to the front).
pub async fn record<'e, E>(
    exec: E,
    member_id: i64,
    product_id: i64,
    now: i64,
) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO travel_last_viewed (member_id, product_id, viewed_at) VALUES ($1, $2, $3)
         ON CONFLICT (member_id, product_id) DO UPDATE SET viewed_at = excluded.viewed_at",
    )
    .bind(member_id)
    .bind(product_id)
    .bind(now)
    .execute(exec)
    .await?;
    Ok(())
}

/// Drops the member's views beyond the newest [`KEPT`].
pub async fn trim<'e, E>(exec: E, member_id: i64) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "DELETE FROM travel_last_viewed WHERE member_id = $1 AND product_id NOT IN (
            SELECT product_id FROM travel_last_viewed WHERE member_id = $1
             ORDER BY viewed_at DESC, product_id DESC LIMIT $2)",
    )
    .bind(member_id)
    .bind(KEPT)
    .execute(exec)
    .await?;
    Ok(())
}

/// The member's last viewed travel offers of the site that are still on sale, newest first.
pub async fn list(
    db: &Db,
    site_id: u16,
    member_id: i64,
    now: i64,
    limit: u32,
) -> Result<Vec<TravelOffer>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT p.id, p.image_id, p.sale_id, p.name, {from_price} AS price_cents, p.retail_price_cents, d.name AS destination,
                o.board, o.rating, o.lat_e6, o.lng_e6, o.benefit,
                (SELECT MIN(du.nights) FROM travel_packages pk
                   JOIN travel_departure_cities c ON c.package_id = pk.id
                   JOIN travel_durations du ON du.city_id = c.id
                  WHERE pk.product_id = p.id) AS nights,
                (SELECT COUNT(*) FROM favourites f WHERE f.member_id = $1 AND f.product_id = p.id) AS fav
           FROM travel_last_viewed v
           JOIN products p ON p.id = v.product_id
           JOIN sales s ON s.id = p.sale_id
           JOIN travel_offers o ON o.product_id = p.id
           JOIN travel_destinations d ON d.id = o.destination_id
          WHERE v.member_id = $1 AND s.site_id = $2 AND s.campaign_kind = 'TRAVEL' AND {}
            AND {}
          ORDER BY v.viewed_at DESC, v.product_id DESC
          LIMIT $4",
        live_window("$3"),
        shown("p"),
        from_price = super::from_price::SQL,
    ))
    .bind(member_id)
    .bind(i64::from(site_id))
    .bind(now)
    .bind(i64::from(limit))
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            let campaign_id: i64 = r.try_get("sale_id")?;
            Ok(TravelOffer {
                id,
                campaign_id,
                title: r.try_get("name")?,
                destination: r.try_get("destination")?,
                image: crate::catalog::rules::product_image_url(id, r.try_get("image_id")?),
                href: format!("/t/p/{campaign_id}/{id}"),
                price_from: r.try_get("price_cents")?,
                retail_value: r.try_get("retail_price_cents")?,
                nights: r.try_get::<Option<i64>, _>("nights")?.unwrap_or(0) as u32,
                board: r.try_get("board")?,
                rating: r.try_get::<i64, _>("rating")? as u32,
                lat: r.try_get::<i64, _>("lat_e6")? as f64 / 1e6,
                lng: r.try_get::<i64, _>("lng_e6")? as f64 / 1e6,
                benefit: r.try_get("benefit")?,
                favorite: r.try_get::<i64, _>("fav")? > 0,
            })
        })
        .collect()
}

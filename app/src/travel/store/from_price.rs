//! A trip's "from" price: its cheapest bookable configuration per person (the lowest
//! bookable day of any city and stay), the rule the product header applies
//! (`product::lowest_city_price`). It is stored in `travel_offers.from_price_cents`, which
//! the catalog tiles, search results, the member's last viewed and the travel home read
//! ([`SQL`]): before, they showed the import's static price while the header showed
//! another, neither bookable. (Not in `products.price_cents`: that is the feed's, which a
//! re-import compares.) Refreshed after an import, when places are held or given back, and
//! on a schedule (days pass: the cheapest day may leave the bookable window).
use sqlx::Row;

use super::product::cities;
use crate::platform::db::Db;

/// The "from" price of product row `p` with its offer row `o` joined.
pub const SQL: &str = "COALESCE(o.from_price_cents, p.price_cents)";

/// The trip's "from" price now; `None` when no day can be booked.
pub async fn lowest(db: &Db, product_id: i64, now: i64) -> Result<Option<i64>, sqlx::Error> {
    let packages: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM travel_packages WHERE product_id = $1")
            .bind(product_id)
            .fetch_all(&db.pool)
            .await?;
    let mut best: Option<i64> = None;
    for package_id in packages {
        for city in cities(db, package_id, now).await? {
            if !city.is_out_of_stock && best.is_none_or(|b| city.price < b) {
                best = Some(city.price);
            }
        }
    }
    Ok(best)
}

/// Stores the trip's "from" price; `true` when it changed. A trip with no bookable day
/// keeps its last price (its tile says sold out by other means).
pub async fn refresh(db: &Db, product_id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let Some(price) = lowest(db, product_id, now).await? else {
        return Ok(false);
    };
    let changed = sqlx::query(
        "UPDATE travel_offers SET from_price_cents = $2
          WHERE product_id = $1 AND (from_price_cents IS NULL OR from_price_cents <> $2)",
    )
    .bind(product_id)
    .bind(price)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(changed > 0)
}

/// [`refresh`] for every trip; how many changed.
pub async fn refresh_all(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    refresh_where(db, "1 = 1", now).await
}

/// [`refresh`] for the trips whose price was never computed.
pub async fn refresh_missing(db: &Db, now: i64) -> Result<u64, sqlx::Error> {
    refresh_where(db, "from_price_cents IS NULL", now).await
}

async fn refresh_where(db: &Db, filter: &str, now: i64) -> Result<u64, sqlx::Error> {
    let ids: Vec<i64> = sqlx::query(&format!(
        "SELECT product_id FROM travel_offers WHERE {filter} ORDER BY product_id"
    ))
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| r.try_get("product_id"))
    .collect::<Result<_, _>>()?;
    let mut changed = 0;
    for id in ids {
        changed += u64::from(refresh(db, id, now).await?);
    }
    Ok(changed)
}

//! Destinations: autocomplete (countries, regions, cities, travel sales), countries, and
//! what the search form offers (departure cities, trip types), plus the live travel sales
//! of the travel home. Only what live travel sales of the site offer counts.
use sqlx::Row;

use crate::catalog::rules::{sale_picture_url, SalePicture};
use crate::model::catalog::SaleCard;
use crate::model::travel::DestinationSuggestion;
use crate::platform::db::Db;
use crate::platform::sql::{live_window, shown};
use crate::text::fold::fold;
use crate::travel::rules::search::{match_rank, rank};

/// Candidates read before ranking: far more than any site's names matching a text.
const CANDIDATES: i64 = 200;

/// `LIKE` pattern finding `text` anywhere, with `%`, `_` and the escape itself escaped
/// (`ESCAPE '!'`: a backslash would read differently in the two engines).
fn contains_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '!') {
            out.push('!');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// Destinations of site `$1` with their live offers at time `$2` (an offer's city, its
/// region and its country all count it), filtered by `filter` (SQL on `d`).
fn destinations_sql(filter: &str) -> String {
    format!(
        "SELECT d.id, d.kind, d.name,
                (SELECT COUNT(*) FROM travel_offers o
                   JOIN products p ON p.id = o.product_id
                   JOIN sales s ON s.id = p.sale_id
                   JOIN travel_destinations c ON c.id = o.destination_id
                   LEFT JOIN travel_destinations r ON r.id = c.parent_id
                  WHERE s.site_id = $1 AND s.campaign_kind = 'TRAVEL' AND {}
                    AND (c.id = d.id OR c.parent_id = d.id OR r.parent_id = d.id)) AS offers
           FROM travel_destinations d
          WHERE d.site_id = $1 AND d.kind IN ('country', 'region', 'city') AND {filter}
          ORDER BY d.id",
        live_window("$2")
    )
}

fn suggestion(r: &sqlx::any::AnyRow) -> Result<DestinationSuggestion, sqlx::Error> {
    Ok(DestinationSuggestion {
        id: r.try_get::<i64, _>("id")?.to_string(),
        label: r.try_get("name")?,
        kind: r.try_get("kind")?,
        count: u32::try_from(r.try_get::<i64, _>("offers")?).unwrap_or(0),
    })
}

/// Suggestions for `folded` (an [`autocomplete_text`](crate::travel::rules::search::autocomplete_text)):
/// destinations and live travel sales whose name (or one of its words) starts with it, with
/// live offers, best first.
pub async fn autocomplete(
    db: &Db,
    site_id: u16,
    folded: &str,
    now: i64,
) -> Result<Vec<DestinationSuggestion>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "{} LIMIT {CANDIDATES}",
        destinations_sql("d.folded LIKE $3 ESCAPE '!'")
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(contains_pattern(folded))
    .fetch_all(&db.pool)
    .await?;
    let mut found = rows.iter().map(suggestion).collect::<Result<Vec<_>, _>>()?;
    // Sale names have no folded column: a site has few live travel sales, fold them here.
    found.extend(
        live_sales(db, site_id, now)
            .await?
            .into_iter()
            .filter(|s| match_rank(&fold(&s.label), folded).is_some()),
    );
    Ok(rank(found, folded))
}

/// The live travel sales of the site as suggestions (`sale-{id}`, with their offers).
async fn live_sales(
    db: &Db,
    site_id: u16,
    now: i64,
) -> Result<Vec<DestinationSuggestion>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT s.id, s.name,
                (SELECT COUNT(*) FROM products p JOIN travel_offers o ON o.product_id = p.id
                  WHERE p.sale_id = s.id) AS offers
           FROM sales s
          WHERE s.site_id = $1 AND s.campaign_kind = 'TRAVEL' AND {}
          ORDER BY s.position, s.id",
        live_window("$2")
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(DestinationSuggestion {
                id: format!("sale-{}", r.try_get::<i64, _>("id")?),
                label: r.try_get("name")?,
                kind: "sale".into(),
                count: u32::try_from(r.try_get::<i64, _>("offers")?).unwrap_or(0),
            })
        })
        .collect()
}

/// The countries with live offers, by name.
pub async fn countries(
    db: &Db,
    site_id: u16,
    now: i64,
) -> Result<Vec<DestinationSuggestion>, sqlx::Error> {
    let rows = sqlx::query(&destinations_sql("d.kind = 'country'"))
        .bind(i64::from(site_id))
        .bind(now)
        .fetch_all(&db.pool)
        .await?;
    let mut list = rows.iter().map(suggestion).collect::<Result<Vec<_>, _>>()?;
    list.retain(|s| s.count > 0);
    list.sort_by_cached_key(|s| fold(&s.label));
    Ok(list)
}

/// The destination a search names by id, when it is one of the site's (for its label).
pub async fn destination_name(
    db: &Db,
    site_id: u16,
    id: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM travel_destinations WHERE site_id = $1 AND id = $2")
        .bind(i64::from(site_id))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// The departure cities live offers leave from, as (code, name), by name.
pub async fn departure_cities(
    db: &Db,
    site_id: u16,
    now: i64,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT c.code, MIN(c.name) AS name
           FROM travel_departure_cities c
           JOIN travel_packages pk ON pk.id = c.package_id
           JOIN products p ON p.id = pk.product_id
           JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = $1 AND s.campaign_kind = 'TRAVEL' AND {}
          GROUP BY c.code
          ORDER BY MIN(c.name), c.code",
        live_window("$2")
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("code")?, r.try_get("name")?)))
        .collect()
}

/// The trip types of live offers (`stay`, `tour`, ...), sorted.
pub async fn trip_types(db: &Db, site_id: u16, now: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(&format!(
        "SELECT DISTINCT o.trip_type
           FROM travel_offers o
           JOIN products p ON p.id = o.product_id
           JOIN sales s ON s.id = p.sale_id
          WHERE s.site_id = $1 AND s.campaign_kind = 'TRAVEL' AND {}
          ORDER BY o.trip_type",
        live_window("$2")
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await
}

/// The live travel sales of the site, in display order, as sale cards (lowest "from"
/// price, best discount).
pub async fn travel_sales(db: &Db, site_id: u16, now: i64) -> Result<Vec<SaleCard>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT s.id, s.name, s.slug, s.offer_type, s.ends_at, s.banner_image_id, s.logo_image_id,
                (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS first_universe,
                (SELECT MIN({from_price}) FROM products p JOIN travel_offers o ON o.product_id = p.id
                  WHERE p.sale_id = s.id AND {shown}) AS min_price,
                (SELECT MAX((p.retail_price_cents - {from_price}) * 100 / p.retail_price_cents)
                   FROM products p JOIN travel_offers o ON o.product_id = p.id
                  WHERE p.sale_id = s.id AND p.retail_price_cents > 0 AND {shown}) AS max_discount
           FROM sales s
          WHERE s.site_id = $1 AND s.campaign_kind = 'TRAVEL' AND {}
          ORDER BY s.position, s.id",
        live_window("$2"),
        shown = shown("p"),
        from_price = super::from_price::SQL,
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            Ok(SaleCard {
                id,
                name: r.try_get("name")?,
                offer_type: r.try_get("offer_type")?,
                seo_slug: r.try_get("slug")?,
                first_universe_id: r.try_get::<Option<i64>, _>("first_universe")?.unwrap_or(0),
                end_date: r.try_get("ends_at")?,
                banner_url: sale_picture_url(
                    id,
                    SalePicture::Banner,
                    r.try_get("banner_image_id")?,
                ),
                logo_url: sale_picture_url(id, SalePicture::Logo, r.try_get("logo_image_id")?),
                min_price_cents: r.try_get("min_price")?,
                max_discount_percent: r
                    .try_get::<Option<i64>, _>("max_discount")?
                    .filter(|d| *d > 0),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(super::contains_pattern("nice"), "%nice%");
        assert_eq!(super::contains_pattern("50%_x!"), "%50!%!_x!!%");
        assert_eq!(super::contains_pattern("o'hara"), "%o'hara%");
    }
}

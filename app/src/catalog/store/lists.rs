//! Lists outside a sale: the member's favourites (and the favourite toggle's write)
//! and a brand's items across live sales.
use sqlx::Row;

use super::*;
use crate::cart::store::Viewer;
use crate::model::catalog_api::*;
use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;

/// Adds or removes a favourite; `false` when the item is not in a live sale of the site.
pub(crate) async fn set_favourite(
    db: &Db,
    site_id: u16,
    member_id: i64,
    sale_id: i64,
    item_id: i64,
    on: bool,
    now: i64,
) -> Result<bool, sqlx::Error> {
    if live_item(db, site_id, sale_id, item_id, None, now)
        .await?
        .is_none()
    {
        return Ok(false);
    }
    if on {
        sqlx::query(
            "INSERT INTO favourites (member_id, product_id, sale_id, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (member_id, product_id) DO NOTHING",
        )
        .bind(member_id)
        .bind(item_id)
        .bind(sale_id)
        .bind(now)
        .execute(&db.writes)
        .await?;
    } else {
        sqlx::query("DELETE FROM favourites WHERE member_id = $1 AND product_id = $2")
            .bind(member_id)
            .bind(item_id)
            .execute(&db.writes)
            .await?;
    }
    Ok(true)
}

pub(super) const ITEM_FROM: &str =
    "FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id";

/// Whether the member (none: a visitor) has the product among their favourites.
pub(crate) async fn is_favourite(
    db: &Db,
    member_id: Option<i64>,
    product_id: i64,
) -> Result<bool, sqlx::Error> {
    let Some(m) = member_id else {
        return Ok(false);
    };
    Ok(
        sqlx::query("SELECT 1 AS one FROM favourites WHERE member_id = $1 AND product_id = $2")
            .bind(m)
            .bind(product_id)
            .fetch_optional(&db.pool)
            .await?
            .is_some(),
    )
}

/// The member's favourite products (`id,...`, null for none) as a column over a member
/// row `m`, for the session lookups of page views: their tiles' hearts come from it.
pub const FAVOURITE_IDS_COLUMN: &str = ", (SELECT string_agg(CAST(f.product_id AS TEXT), ',') \
     FROM favourites f WHERE f.member_id = m.id) AS favourite_ids";

/// The products of a row with [`FAVOURITE_IDS_COLUMN`].
pub fn favourite_ids_of(row: &sqlx::any::AnyRow) -> Result<Vec<i64>, sqlx::Error> {
    let text: Option<String> = row.try_get("favourite_ids")?;
    text.as_deref()
        .unwrap_or("")
        .split(',')
        .filter(|id| !id.is_empty())
        .map(|id| {
            id.parse()
                .map_err(|_| sqlx::Error::Decode(format!("a favourite id {id:?}").into()))
        })
        .collect()
}

pub(crate) async fn all_favourite_ids(
    db: &Db,
    member_id: Option<i64>,
) -> Result<Vec<i64>, sqlx::Error> {
    let Some(m) = member_id else {
        return Ok(vec![]);
    };
    sqlx::query_scalar("SELECT product_id FROM favourites WHERE member_id = $1")
        .bind(m)
        .fetch_all(&db.pool)
        .await
}

/// A brand's items across the site's live sales: the brand name and a page of items, or
/// `None` for an unknown brand.
pub async fn brand_items(
    db: &Db,
    site_id: u16,
    brand_id: i64,
    limit: i64,
    offset: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<(String, CatalogContent)>, sqlx::Error> {
    let member_id = viewer.member_id;
    let Some(name) = sqlx::query_scalar::<_, String>("SELECT name FROM brands WHERE id = $1")
        .bind(brand_id)
        .fetch_optional(&db.pool)
        .await?
    else {
        return Ok(None);
    };
    let (limit, offset) = (limit.clamp(1, MAX_LIMIT), offset.max(0));
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) {ITEM_FROM} WHERE {LIVE_SALE} AND pr.brand_id = $3 AND pr.moderation = ''"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(brand_id)
    .fetch_one(&db.pool)
    .await?;
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} {ITEM_FROM} WHERE {LIVE_SALE} AND pr.brand_id = $3 AND pr.moderation = ''
          ORDER BY s.position, s.id, pr.position, pr.id LIMIT $4 OFFSET $5"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(brand_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    let favourites = all_favourite_ids(db, member_id).await?;
    let items = rows
        .iter()
        .map(|r| item(r, &favourites))
        .collect::<Result<Vec<_>, _>>()?;
    let items = with_availability(db, viewer, items, now).await?;
    Ok(Some((
        name,
        CatalogContent {
            request_id: 0,
            total,
            offset,
            limit,
            items,
        },
    )))
}

/// A member's favourites that are still in a live sale of the site, newest first.
pub async fn favourite_items(
    db: &Db,
    site_id: u16,
    member_id: i64,
    max_per_member: i64,
    now: i64,
) -> Result<Vec<CatalogItem>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} {ITEM_FROM} JOIN favourites f ON f.product_id = pr.id AND f.member_id = $3
          WHERE {LIVE_SALE} AND pr.moderation IN ('', 'restricted') ORDER BY f.created_at DESC, pr.id"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(member_id)
    .fetch_all(&db.pool)
    .await?;
    let ids: Vec<i64> = rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?;
    let items = rows
        .iter()
        .map(|r| item(r, &ids))
        .collect::<Result<Vec<_>, _>>()?;
    let viewer = Viewer {
        member_id: Some(member_id),
        max_per_member,
    };
    with_availability(db, viewer, items, now).await
}

/// The products of an operation's selection on sale now on the site, in the selection's
/// order, each with where it sits in its sale (its universe and that universe's parent).
pub async fn operation_items(
    db: &Db,
    site_id: u16,
    operation_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Vec<(CatalogItem, crate::operations::rules::Placement)>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS}, u.title AS universe_name, pu.title AS parent_name
           {ITEM_FROM} JOIN operation_products op ON op.product_id = pr.id
           JOIN universes u ON u.id = pr.universe_id LEFT JOIN universes pu ON pu.id = u.parent_id
          WHERE {LIVE_SALE} AND op.operation_id = $3 AND pr.moderation = ''
          ORDER BY op.position, pr.id"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(operation_id)
    .fetch_all(&db.pool)
    .await?;
    let favourites = all_favourite_ids(db, viewer.member_id).await?;
    let items = rows
        .iter()
        .map(|r| item(r, &favourites))
        .collect::<Result<Vec<_>, _>>()?;
    let placements = rows
        .iter()
        .map(|r| {
            Ok(crate::operations::rules::Placement {
                universe: r.try_get("universe_name")?,
                parent: r.try_get("parent_name")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    let items = with_availability(db, viewer, items, now).await?;
    Ok(items.into_iter().zip(placements).collect())
}

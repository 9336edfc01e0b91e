//! Catalog items: row mapping, availability, a page of content, one item and its options.
use sqlx::any::AnyRow;
use sqlx::Row;

use super::*;
use crate::cart::store::Viewer;
use crate::model::catalog_api::*;
use crate::platform::db::Db;

pub(crate) const ITEM_COLUMNS: &str = "pr.id, pr.image_id, pr.sale_id, pr.item_type, pr.name, pr.color, pr.price_cents, pr.retail_price_cents,
    pr.tier, pr.delivery_mode, pr.seller_kind, COALESCE(b.name, '') AS brand, COALESCE(b.slug, '') AS brand_slug,
    (SELECT CAST(COALESCE(SUM(o.stock - o.held - o.sold), 0) AS BIGINT) FROM product_options o WHERE o.product_id = pr.id) AS stock";

pub(crate) fn item(r: &AnyRow, favourites: &[i64]) -> Result<CatalogItem, sqlx::Error> {
    let id: i64 = r.try_get("id")?;
    let stock: i64 = r.try_get("stock")?;
    Ok(CatalogItem {
        id,
        sale_id: r.try_get("sale_id")?,
        item_type: r.try_get("item_type")?,
        name: r.try_get("name")?,
        brand: r.try_get("brand")?,
        brand_slug: r.try_get("brand_slug")?,
        color: r.try_get("color")?,
        image_url: crate::catalog::rules::product_image_url(id, r.try_get("image_id")?),
        price: Price {
            value: r.try_get("price_cents")?,
            retail_value: r.try_get("retail_price_cents")?,
            unit: "EUR".into(),
        },
        favorite: favourites.contains(&id),
        availability: if stock > 0 {
            Availability::Available
        } else {
            Availability::OutOfStock
        },
        tier: r.try_get("tier")?,
        delivery_mode: r.try_get("delivery_mode")?,
        seller_kind: r.try_get("seller_kind")?,
        carousel: Vec::new(),
    })
}

/// Items' availability as the member sees it: held stock is gone for others, InBasket or
/// MaxReached for the holder (cart rules).
pub(crate) async fn with_availability(
    db: &Db,
    viewer: Viewer,
    mut items: Vec<CatalogItem>,
    now: i64,
) -> Result<Vec<CatalogItem>, sqlx::Error> {
    let ids: Vec<i64> = items.iter().map(|i| i.id).collect();
    let map = crate::cart::store::availability(db, viewer, &ids, now).await?;
    for i in &mut items {
        if let Some(a) = map.get(&i.id) {
            i.availability = *a;
        }
    }
    Ok(items)
}

pub async fn favourite_ids(
    db: &Db,
    member_id: Option<i64>,
    sale_id: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let Some(m) = member_id else {
        return Ok(vec![]);
    };
    sqlx::query_scalar("SELECT product_id FROM favourites WHERE member_id = $1 AND sale_id = $2")
        .bind(m)
        .bind(sale_id)
        .fetch_all(&db.pool)
        .await
}

/// The list item type whose tile is a carousel (spec 000 §3: Normal 1, Carrousel 7, Ad 10).
pub const CAROUSEL_TYPE: i64 = 7;

/// For each of `item_ids`, the products on show of the bundle it leads (its first bundle),
/// in the bundle's order, itself included; items in no bundle are left out. The sale's
/// window is the caller's: these are items of a page it already shows.
pub async fn carousels(
    db: &Db,
    item_ids: &[i64],
) -> Result<std::collections::HashMap<i64, Vec<CarouselEntry>>, sqlx::Error> {
    let mut out: std::collections::HashMap<i64, Vec<CarouselEntry>> = Default::default();
    if item_ids.is_empty() {
        return Ok(out);
    }
    let sql = format!(
        "SELECT c.product_id AS item_id, p.id, p.image_id, p.name, p.price_cents, p.retail_price_cents,
                COALESCE(br.name, '') AS brand
           FROM bundle_items c
           JOIN bundle_items bi ON bi.bundle_id = c.bundle_id
           JOIN products p ON p.id = bi.product_id
           LEFT JOIN brands br ON br.id = p.brand_id
          WHERE {} AND {}
            AND c.bundle_id = (SELECT MIN(f.bundle_id) FROM bundle_items f WHERE f.product_id = c.product_id)
          ORDER BY c.product_id, bi.position, p.id",
        crate::platform::sql::in_ids(db.backend, "c.product_id"),
        crate::platform::sql::shown("p")
    );
    let rows = sqlx::query(&sql)
        .bind(crate::platform::sql::ids(db.backend, item_ids))
        .fetch_all(&db.pool)
        .await?;
    for r in rows {
        let id: i64 = r.try_get("id")?;
        out.entry(r.try_get("item_id")?)
            .or_default()
            .push(CarouselEntry {
                id,
                name: r.try_get("name")?,
                brand: r.try_get("brand")?,
                image_url: crate::catalog::rules::product_image_url(id, r.try_get("image_id")?),
                price: Price {
                    value: r.try_get("price_cents")?,
                    retail_value: r.try_get("retail_price_cents")?,
                    unit: "EUR".into(),
                },
            });
    }
    // A strip of one picture is no carousel.
    out.retain(|_, entries| entries.len() > 1);
    Ok(out)
}

/// Catalog content: a page of items of a universe (0: all) with the total.
pub async fn content(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    universe_id: i64,
    q: &ContentQuery,
    viewer: Viewer,
    now: i64,
) -> Result<CatalogContent, sqlx::Error> {
    let member_id = viewer.member_id;
    let limit = q.limit.clamp(1, MAX_LIMIT);
    let offset = q.offset.max(0);
    // Only a search copies the query (to carry its matches): the common page does not.
    let searched;
    let q = match q.search_term.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(term) => {
            searched = ContentQuery {
                matching_ids: Some(matching_ids(db, sale_id, term).await?),
                ..q.clone()
            };
            &searched
        }
        None => q,
    };
    let mut p = Params { values: vec![] };
    let w = where_clause(&mut p, site_id, sale_id, universe_id, now, q);
    let from = "FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id";
    let count_sql = format!("SELECT COUNT(*) AS n {from} WHERE {w}");
    let total: i64 = p.bind(&count_sql).fetch_one(&db.pool).await?.try_get("n")?;
    let lim = p.push_i(limit);
    let off = p.push_i(offset);
    let sql = format!(
        "SELECT {ITEM_COLUMNS} {from} WHERE {w} ORDER BY {} LIMIT {lim} OFFSET {off}",
        order_by(q.sort.as_deref())
    );
    let rows = p.bind(&sql).fetch_all(&db.pool).await?;
    let favourites = favourite_ids(db, member_id, sale_id).await?;
    let items = rows
        .iter()
        .map(|r| item(r, &favourites))
        .collect::<Result<Vec<_>, _>>()?;
    let mut items = with_availability(db, viewer, items, now).await?;
    let carousel_ids: Vec<i64> = items
        .iter()
        .filter(|i| i.item_type == CAROUSEL_TYPE)
        .map(|i| i.id)
        .collect();
    if !carousel_ids.is_empty() {
        let mut strips = carousels(db, &carousel_ids).await?;
        for i in items.iter_mut().filter(|i| i.item_type == CAROUSEL_TYPE) {
            i.carousel = strips.remove(&i.id).unwrap_or_default();
        }
    }
    Ok(CatalogContent {
        request_id: q.request_id,
        total,
        offset,
        limit,
        items,
    })
}

/// The products of a sale whose name or brand holds every word of `term`, compared as the
/// shop's search compares (`text::fold`: case and accents aside, which SQLite's `LOWER`
/// cannot do). A sale has at most a few hundred products: one narrow read.
async fn matching_ids(db: &Db, sale_id: i64, term: &str) -> Result<Vec<i64>, sqlx::Error> {
    let words: Vec<String> = crate::text::fold::fold(term)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let rows = sqlx::query(
        "SELECT pr.id, pr.name, COALESCE(b.name, '') AS brand FROM products pr
           LEFT JOIN brands b ON b.id = pr.brand_id WHERE pr.sale_id = $1",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    let mut ids = Vec::new();
    for r in rows {
        let name: String = r.try_get("name")?;
        let brand: String = r.try_get("brand")?;
        let text = crate::text::fold::fold(&format!("{name} {brand}"));
        if words.iter().all(|w| text.contains(w.as_str())) {
            ids.push(r.try_get("id")?);
        }
    }
    Ok(ids)
}

/// Filters of a universe with counts: brands (checkbox), colours (chip), sizes (checkbox).
pub async fn item_by_id(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    item_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<CatalogItem>, sqlx::Error> {
    match live_item(db, site_id, sale_id, item_id, viewer.member_id, now).await? {
        Some(i) => Ok(with_availability(db, viewer, vec![i], now).await?.pop()),
        None => Ok(None),
    }
}

/// An item of a live sale of the site, without the member's availability.
pub(crate) async fn live_item(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    item_id: i64,
    member_id: Option<i64>,
    now: i64,
) -> Result<Option<CatalogItem>, sqlx::Error> {
    let mut p = Params { values: vec![] };
    let w = where_clause(&mut p, site_id, sale_id, 0, now, &ContentQuery::default());
    let id = p.push_i(item_id);
    let sql = format!("SELECT {ITEM_COLUMNS} FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id WHERE {w} AND pr.id = {id}");
    let favourites = favourite_ids(db, member_id, sale_id).await?;
    p.bind(&sql)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| item(&r, &favourites))
        .transpose()
}

pub async fn item_options(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    item_id: i64,
    viewer: Viewer,
    now: i64,
) -> Result<Option<Vec<ItemOption>>, sqlx::Error> {
    if live_item(db, site_id, sale_id, item_id, None, now)
        .await?
        .is_none()
    {
        return Ok(None);
    }
    let rows = sqlx::query(concat!(
        "SELECT o.id, o.label, o.stock - o.held - o.sold AS left_units, o.image_id, ",
        crate::platform::sql::option_price!(),
        " AS price_cents, COALESCE(o.retail_price_cents, p.retail_price_cents) AS retail_price_cents
           FROM product_options o JOIN products p ON p.id = o.product_id
          WHERE o.product_id = $1 ORDER BY o.position, o.id"
    ))
    .bind(item_id)
    .fetch_all(&db.pool)
    .await?;
    // Held units count as gone for everyone else; the holder sees them as in the basket.
    let availability = crate::cart::store::option_availability(db, viewer, item_id, now).await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            let stock: i64 = r.try_get("left_units")?;
            Ok(ItemOption {
                id,
                label: r.try_get("label")?,
                stock,
                price: Price {
                    value: r.try_get("price_cents")?,
                    retail_value: r.try_get("retail_price_cents")?,
                    unit: "EUR".into(),
                },
                preview: r
                    .try_get::<Option<i64>, _>("image_id")?
                    .map(|image| crate::catalog::rules::product_image_url(item_id, Some(image))),
                availability: availability.get(&id).copied().unwrap_or(if stock > 0 {
                    Availability::Available
                } else {
                    Availability::OutOfStock
                }),
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

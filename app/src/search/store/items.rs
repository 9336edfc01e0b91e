//! Search results: the live items behind the index's hits, sizes, the results page.
use std::collections::{HashMap, HashSet};

use sqlx::Row;

use super::*;
use crate::cart::store::Viewer;
use crate::catalog::store as catalog;
use crate::model::catalog_api::CatalogItem;
use crate::model::search::*;
use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;
use crate::search::index::{self, SaleDoc};
use crate::search::sale_url;

pub(super) fn id_list(ids: &[i64]) -> String {
    // Ids come from the index (integers), never from the request.
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The hits still in a live sale, in hit order, as catalog items.
pub(super) async fn live_items(
    db: &Db,
    site_id: u16,
    ids: &[i64],
    favourites: &[i64],
    now: i64,
) -> Result<Vec<CatalogItem>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let rows = sqlx::query(&format!(
        "SELECT {} FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id
          WHERE {LIVE_SALE} AND pr.moderation = '' AND pr.id IN ({})",
        catalog::ITEM_COLUMNS,
        id_list(ids)
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut by_id: HashMap<i64, CatalogItem> = HashMap::new();
    for r in &rows {
        let item = catalog::item(r, favourites)?;
        by_id.insert(item.id, item);
    }
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// Products with at least one unit left in one of the sizes.
pub(super) async fn with_sizes(
    db: &Db,
    ids: &[i64],
    sizes: &[String],
) -> Result<HashSet<i64>, sqlx::Error> {
    if ids.is_empty() || sizes.is_empty() {
        return Ok(HashSet::new());
    }
    let placeholders = (1..=sizes.len())
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT DISTINCT o.product_id FROM product_options o
          WHERE o.product_id IN ({}) AND o.stock - o.held - o.sold > 0 AND o.label IN ({placeholders})",
        id_list(ids)
    );
    let mut q = sqlx::query_scalar::<_, i64>(&sql);
    for s in sizes {
        q = q.bind(s.as_str());
    }
    Ok(q.fetch_all(&db.pool).await?.into_iter().collect())
}

/// What a results page asks for.
#[derive(Clone, Debug, Default)]
pub struct SearchQuery {
    pub q: String,
    pub offset: i64,
    pub limit: i64,
    pub sort: Option<String>,
    pub brands: Vec<String>,
    pub colors: Vec<String>,
    pub sizes: Vec<String>,
    /// A catalog's search (origin 0): only this sale's items, and no sale hits.
    pub sale_id: Option<i64>,
}

impl SearchQuery {
    /// The ticked options, as the facets count them too.
    pub fn ticked(&self) -> super::Ticked<'_> {
        super::Ticked {
            brands: &self.brands,
            colors: &self.colors,
            sizes: &self.sizes,
        }
    }
}

/// A page of the products matching the query in the site's live sales, with filters
/// applied, relevance order unless a sort is chosen; and the matching sales.
pub async fn search_items(
    db: &Db,
    indexes: &SearchIndexes,
    site_id: u16,
    query: &SearchQuery,
    viewer: Viewer,
    now: i64,
) -> Result<SearchItems, sqlx::Error> {
    let member_id = viewer.member_id;
    let limit = query.limit.clamp(1, MAX_LIMIT);
    let offset = query.offset.clamp(0, 1_000_000);
    let term = index::normalize_query(&query.q);
    let mut result = SearchItems {
        search_term: term.clone(),
        current_page: offset / limit + 1,
        offset,
        limit,
        ..Default::default()
    };
    if term.is_empty() {
        return Ok(result);
    }
    let idx = site_index(db, indexes, site_id, now).await?;
    let mut ids = idx.search_ids(&term);
    ids.truncate(MAX_HITS);
    let favourites = catalog::all_favourite_ids(db, member_id).await?;
    let mut items = live_items(db, site_id, &ids, &favourites, now).await?;
    let sized = with_sizes(db, &ids, &query.sizes).await?;
    let ticked = query.ticked();
    items.retain(|i| {
        query.sale_id.is_none_or(|sale| i.sale_id == sale)
            && ticked.brand_ok(i)
            && ticked.color_ok(i)
            && ticked.size_ok(i, &sized)
    });
    // A stable sort keeps relevance order among equals.
    match query.sort.as_deref() {
        Some("price_asc") => items.sort_by_key(|i| i.price.value),
        Some("price_desc") => items.sort_by_key(|i| std::cmp::Reverse(i.price.value)),
        Some("discount") => items.sort_by_key(|i| {
            std::cmp::Reverse(
                (i.price.retail_value - i.price.value) * 100 / i.price.retail_value.max(1),
            )
        }),
        _ => {}
    }
    result.total_products_count = items.len() as i64;
    let page: Vec<CatalogItem> = items
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
        .collect();
    result.products = catalog::with_availability(db, viewer, page, now).await?;
    if query.sale_id.is_some() {
        return Ok(result);
    }
    let sale_ids: Vec<i64> = idx.search_sales(&term).iter().map(|s| s.id).collect();
    result.sales = live_sales(db, site_id, &sale_ids, now)
        .await?
        .into_iter()
        .take(4)
        .map(|s| SaleHit {
            id: s.id,
            url: sale_url(member_id.is_some(), s.id, &s.slug),
            name: s.name,
        })
        .collect();
    Ok(result)
}

/// Sales still live, in the given order.
pub(super) async fn live_sales(
    db: &Db,
    site_id: u16,
    ids: &[i64],
    now: i64,
) -> Result<Vec<SaleDoc>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let rows = sqlx::query(&format!(
        "SELECT s.id, s.name, s.slug, s.position FROM sales s WHERE {LIVE_SALE} AND s.id IN ({})",
        id_list(ids)
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut by_id = HashMap::new();
    for r in &rows {
        let id: i64 = r.try_get("id")?;
        by_id.insert(
            id,
            SaleDoc {
                id,
                name: r.try_get("name")?,
                slug: r.try_get("slug")?,
                position: r.try_get("position")?,
            },
        );
    }
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

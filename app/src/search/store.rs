//! Search reads and recent queries (issue #4). The index of a site is built from its live
//! sales and kept in memory (a cache: truth stays in the database, so every hit is checked
//! against the live sales again before it is shown).
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock, RwLock};

use sqlx::Row;

use crate::catalog::store as catalog;
use crate::model::catalog_api::{CatalogItem, Filter, FilterOption};
use crate::model::search::*;
use crate::platform::db::Db;
use crate::platform::sql::LIVE_SALE;
use crate::search::index::{self, ProductDoc, SaleDoc, SiteIndex};
use crate::search::{product_url, sale_url, search_url};

/// An index is rebuilt after this long even when no sale started or ended.
pub const INDEX_MAX_AGE_SECS: i64 = 60;
/// Hits considered for a results page (far more than any site has today).
const MAX_HITS: usize = 2000;
pub const MAX_LIMIT: i64 = 96;

type Key = (String, u16);
static INDEXES: LazyLock<RwLock<HashMap<Key, Arc<SiteIndex>>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

/// Keys whose index one request is rebuilding right now.
static BUILDING: LazyLock<std::sync::Mutex<HashSet<Key>>> =
    LazyLock::new(|| std::sync::Mutex::new(HashSet::new()));

/// Releases a rebuild claim, also when the rebuild fails.
struct Claim(Key);
impl Drop for Claim {
    fn drop(&mut self) {
        if let Ok(mut b) = BUILDING.lock() {
            b.remove(&self.0);
        }
    }
}

/// The site's index, rebuilt when older than a minute or when a sale ended or started.
/// One request rebuilds while the others keep using the previous index: that is safe,
/// since every hit is checked against the live sales before it is shown.
pub async fn site_index(db: &Db, site_id: u16, now: i64) -> Result<Arc<SiteIndex>, sqlx::Error> {
    // One cache per database: tests run several shops in one process.
    let key = (db.pool.connect_options().database_url.to_string(), site_id);
    let cached = INDEXES.read().ok().and_then(|m| m.get(&key).cloned());
    let claim = match cached {
        Some(i) if !i.is_stale(now, INDEX_MAX_AGE_SECS) => return Ok(i),
        Some(i) => {
            let claimed = BUILDING.lock().is_ok_and(|mut b| b.insert(key.clone()));
            if !claimed {
                return Ok(i);
            }
            Some(Claim(key.clone()))
        }
        None => None,
    };
    let built = Arc::new(build(db, site_id, now).await?);
    if let Ok(mut m) = INDEXES.write() {
        m.insert(key, built.clone());
    }
    drop(claim);
    Ok(built)
}

async fn build(db: &Db, site_id: u16, now: i64) -> Result<SiteIndex, sqlx::Error> {
    let site = i64::from(site_id);
    let rows = sqlx::query(&format!(
        "SELECT pr.id, pr.sale_id, pr.position, pr.name, pr.color, COALESCE(b.name, '') AS brand,
                s.name AS sale_name, s.position AS sale_position, u.title AS universe,
                COALESCE(pu.title, '') AS parent_universe
           FROM products pr JOIN sales s ON s.id = pr.sale_id
           LEFT JOIN brands b ON b.id = pr.brand_id
           JOIN universes u ON u.id = pr.universe_id
           LEFT JOIN universes pu ON pu.id = u.parent_id
          WHERE {LIVE_SALE}"
    ))
    .bind(site)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    let mut products = Vec::with_capacity(rows.len());
    for r in &rows {
        let mut universes = vec![r.try_get::<String, _>("universe")?];
        let parent: String = r.try_get("parent_universe")?;
        if !parent.is_empty() {
            universes.push(parent);
        }
        products.push(ProductDoc {
            id: r.try_get("id")?,
            sale_id: r.try_get("sale_id")?,
            sale_position: r.try_get("sale_position")?,
            position: r.try_get("position")?,
            name: r.try_get("name")?,
            brand: r.try_get("brand")?,
            color: r.try_get("color")?,
            sale_name: r.try_get("sale_name")?,
            universes,
        });
    }
    let sales = sqlx::query(&format!(
        "SELECT s.id, s.name, s.slug, s.position FROM sales s WHERE {LIVE_SALE} ORDER BY s.position, s.id"
    ))
    .bind(site)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(SaleDoc {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            position: r.try_get("position")?,
        })
    })
    .collect::<Result<Vec<_>, sqlx::Error>>()?;
    // The index is right until the first live sale ends or the next one starts.
    let next_end: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT MIN(s.ends_at) FROM sales s WHERE {LIVE_SALE}"
    ))
    .bind(site)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    let next_start: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(starts_at) FROM sales WHERE site_id = $1 AND starts_at > $2",
    )
    .bind(site)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    let valid_until = [next_end, next_start]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(i64::MAX);
    Ok(SiteIndex::build(products, sales, now, valid_until))
}

fn id_list(ids: &[i64]) -> String {
    // Ids come from the index (integers), never from the request.
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The hits still in a live sale, in hit order, as catalog items.
async fn live_items(
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
          WHERE {LIVE_SALE} AND pr.id IN ({})",
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
async fn with_sizes(db: &Db, ids: &[i64], sizes: &[String]) -> Result<HashSet<i64>, sqlx::Error> {
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
}

/// A page of the products matching the query in the site's live sales, with filters
/// applied, relevance order unless a sort is chosen; and the matching sales.
pub async fn search_items(
    db: &Db,
    site_id: u16,
    query: &SearchQuery,
    member_id: Option<i64>,
    now: i64,
) -> Result<SearchItems, sqlx::Error> {
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
    let idx = site_index(db, site_id, now).await?;
    let mut ids = idx.search_ids(&term);
    ids.truncate(MAX_HITS);
    let favourites = catalog::all_favourite_ids(db, member_id).await?;
    let mut items = live_items(db, site_id, &ids, &favourites, now).await?;
    let sized = with_sizes(db, &ids, &query.sizes).await?;
    items.retain(|i| {
        (query.brands.is_empty() || query.brands.contains(&i.brand_slug))
            && (query.colors.is_empty() || query.colors.contains(&i.color))
            && (query.sizes.is_empty() || sized.contains(&i.id))
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
    result.products = catalog::with_availability(db, member_id, page, now).await?;
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
async fn live_sales(
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

/// Filters of the products matching the query, with counts (the catalog's shape).
pub async fn search_filters(
    db: &Db,
    site_id: u16,
    q: &str,
    now: i64,
) -> Result<SearchFilters, sqlx::Error> {
    let term = index::normalize_query(q);
    let ids = if term.is_empty() {
        vec![]
    } else {
        let mut ids = site_index(db, site_id, now).await?.search_ids(&term);
        ids.truncate(MAX_HITS);
        ids
    };
    let items = live_items(db, site_id, &ids, &[], now).await?;
    let count = |key: &dyn Fn(&CatalogItem) -> (String, String)| {
        let mut m: std::collections::BTreeMap<(String, String), i64> = Default::default();
        for i in &items {
            *m.entry(key(i)).or_default() += 1;
        }
        m.into_iter()
            .filter(|((_, slug), _)| !slug.is_empty())
            .map(|((label, slug), count)| FilterOption {
                id: slug.clone(),
                label,
                slug,
                count,
            })
            .collect::<Vec<_>>()
    };
    let brands = count(&|i| (i.brand.clone(), i.brand_slug.clone()));
    let colors = count(&|i| (i.color.clone(), i.color.clone()));
    let live_ids: Vec<i64> = items.iter().map(|i| i.id).collect();
    let sizes = if live_ids.is_empty() {
        vec![]
    } else {
        sqlx::query(&format!(
            "SELECT o.label AS label, CAST(COUNT(DISTINCT o.product_id) AS BIGINT) AS n
               FROM product_options o
              WHERE o.product_id IN ({}) AND o.stock - o.held - o.sold > 0
              GROUP BY o.label ORDER BY MIN(o.position), o.label",
            id_list(&live_ids)
        ))
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| {
            let label: String = r.try_get("label")?;
            Ok(FilterOption {
                id: label.clone(),
                slug: label.clone(),
                label,
                count: r.try_get("n")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?
    };
    let filter = |id: &str, kind: &str, options| Filter {
        id: id.into(),
        filter_type: kind.into(),
        label_key: format!("catalog.filter.{id}"),
        options,
    };
    Ok(SearchFilters {
        search_term: term,
        filters: vec![
            filter("brand", "checkbox", brands),
            filter("color", "chip", colors),
            filter("size", "checkbox", sizes),
        ],
    })
}

/// Suggestions while typing (spec 000 §2): the member's matching recent queries, completed
/// terms, matching live sales, matching products, and "search for «q»". With an empty
/// query: the recent queries only. `compact` (the web app) shows fewer products.
pub async fn suggestions(
    db: &Db,
    site_id: u16,
    member_id: Option<i64>,
    query: &str,
    compact: bool,
    now: i64,
) -> Result<Suggestions, sqlx::Error> {
    let term = index::normalize_query(query);
    let member = member_id.is_some();
    let mut out = Vec::new();
    if let Some(m) = member_id {
        let max = if term.is_empty() {
            index::RECENT_KEPT
        } else {
            3
        };
        for r in recent(db, m, site_id)
            .await?
            .into_iter()
            .filter(|r| index::recent_matches(&r.query, &term))
            .take(max)
        {
            out.push(Suggestion {
                kind: SuggestionKind::History,
                url: search_url(&r.query),
                label: r.query,
                id: Some(r.id),
            });
        }
    }
    if term.is_empty() {
        return Ok(Suggestions {
            query: term,
            suggestions: out,
        });
    }
    let idx = site_index(db, site_id, now).await?;
    for c in idx.completions(query, 3) {
        if index::recent_key(&c) != index::recent_key(&term) {
            out.push(Suggestion {
                kind: SuggestionKind::Autocompletion,
                url: search_url(&c),
                label: c,
                id: None,
            });
        }
    }
    let sale_ids: Vec<i64> = idx
        .search_sales(&term)
        .iter()
        .take(6)
        .map(|s| s.id)
        .collect();
    for s in live_sales(db, site_id, &sale_ids, now)
        .await?
        .into_iter()
        .take(2)
    {
        out.push(Suggestion {
            kind: SuggestionKind::Salesbanner,
            url: sale_url(member, s.id, &s.slug),
            label: s.name,
            id: Some(s.id),
        });
    }
    let max_products = if compact { 3 } else { 5 };
    let hits: Vec<i64> = idx.search_ids(&term).into_iter().take(40).collect();
    // One entry per product name: several sales may sell the same "Manteau Noa".
    let mut names = HashSet::new();
    for item in live_items(db, site_id, &hits, &[], now)
        .await?
        .into_iter()
        .filter(|i| names.insert(index::recent_key(&i.name)))
        .take(max_products)
    {
        out.push(Suggestion {
            kind: SuggestionKind::Regular,
            url: product_url(member, &item),
            label: item.name,
            id: Some(item.id),
        });
    }
    out.push(Suggestion {
        kind: SuggestionKind::Generic,
        url: search_url(&term),
        label: term.clone(),
        id: None,
    });
    Ok(Suggestions {
        query: term,
        suggestions: out,
    })
}

// ------------------------------------------------------------------ recent queries

/// Records a member's search: the newest first, one entry per query (case and accents
/// ignored), the last ten kept.
pub(crate) async fn record(
    db: &Db,
    member_id: i64,
    site_id: u16,
    q: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    let query = index::normalize_query(q);
    if query.is_empty() {
        return Ok(());
    }
    let key = index::recent_key(&query);
    let site = i64::from(site_id);
    let mut tx = db.pool.begin().await?;
    // Deleted and inserted again, so a repeated query moves to the top with a new id.
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND query_key = $3",
    )
    .bind(member_id)
    .bind(site)
    .bind(&key)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO search_queries (member_id, site_id, query, query_key, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (member_id, site_id, query_key) DO NOTHING",
    )
    .bind(member_id)
    .bind(site)
    .bind(&query)
    .bind(&key)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM search_queries WHERE member_id = $1 AND site_id = $2 AND id NOT IN
           (SELECT id FROM search_queries WHERE member_id = $1 AND site_id = $2
             ORDER BY created_at DESC, id DESC LIMIT $3)",
    )
    .bind(member_id)
    .bind(site)
    .bind(index::RECENT_KEPT as i64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// A member's recent queries on a site, newest first.
pub async fn recent(
    db: &Db,
    member_id: i64,
    site_id: u16,
) -> Result<Vec<RecentQuery>, sqlx::Error> {
    sqlx::query(
        "SELECT id, query, created_at FROM search_queries WHERE member_id = $1 AND site_id = $2
          ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(member_id)
    .bind(i64::from(site_id))
    .bind(index::RECENT_KEPT as i64)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(|r| {
        Ok(RecentQuery {
            id: r.try_get("id")?,
            query: r.try_get("query")?,
            created_at: r.try_get("created_at")?,
        })
    })
    .collect()
}

/// Deletes one of the member's recent queries; `false` when it is not theirs (or gone).
pub(crate) async fn delete_recent(db: &Db, member_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM search_queries WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member_id)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

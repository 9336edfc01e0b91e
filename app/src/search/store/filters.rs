//! The filters of a results page, and the box's suggestions.
use std::collections::HashSet;

use sqlx::Row;

use super::*;
use crate::model::catalog_api::{CatalogItem, Filter, FilterOption};
use crate::model::search::*;
use crate::platform::db::Db;
use crate::search::index::{self};
use crate::search::{product_url, sale_url, search_url};

/// Filters of the products matching the query, with counts (the catalog's shape).
pub async fn search_filters(
    db: &Db,
    indexes: &SearchIndexes,
    site_id: u16,
    q: &str,
    now: i64,
) -> Result<SearchFilters, sqlx::Error> {
    let term = index::normalize_query(q);
    let ids = if term.is_empty() {
        vec![]
    } else {
        let mut ids = site_index(db, indexes, site_id, now)
            .await?
            .search_ids(&term);
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
                name: label.clone(),
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
                name: label.clone(),
                label,
                count: r.try_get("n")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?
    };
    let filter = |id: &str, kind: &str, options: Vec<FilterOption>| Filter {
        id: id.into(),
        filter_type: kind.into(),
        label_key: format!("catalog.filter.{id}"),
        groups: if id == "brand" {
            crate::catalog::sections::brand_groups(&options)
        } else {
            Vec::new()
        },
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

/// Popular searches and current sales offered before anything is typed.
const DEFAULT_POPULAR: usize = 5;
const DEFAULT_SALES: usize = 3;

/// Suggestions while typing (spec 000 §2): the member's matching recent queries, completed
/// terms, matching live sales, matching products, and "search for «q»". With an empty
/// query: the recent queries, popular searches and current sales. `compact` (the web app)
/// shows fewer products.
pub async fn suggestions(
    db: &Db,
    indexes: &SearchIndexes,
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
        // Before typing (spec 000 §3 defaultLists): popular searches the member has not
        // made themselves, then the sales on now.
        for label in super::defaults::popular(db, site_id, DEFAULT_POPULAR, now).await? {
            let key = index::recent_key(&label);
            if out.iter().all(|s| index::recent_key(&s.label) != key) {
                out.push(Suggestion {
                    kind: SuggestionKind::Popular,
                    url: search_url(&label),
                    label,
                    id: None,
                });
            }
        }
        for s in super::defaults::current_sales(db, site_id, DEFAULT_SALES, now).await? {
            out.push(Suggestion {
                kind: SuggestionKind::Salesbanner,
                url: sale_url(member, s.id, &s.slug),
                label: s.name,
                id: Some(s.id),
            });
        }
        return Ok(Suggestions {
            query: term,
            suggestions: out,
        });
    }
    let idx = site_index(db, indexes, site_id, now).await?;
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

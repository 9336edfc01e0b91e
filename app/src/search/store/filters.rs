//! The filters of a results page, and the box's suggestions.
use std::collections::HashSet;

use sqlx::Row;

use super::*;
use crate::model::catalog_api::{CatalogItem, Filter, FilterOption};
use crate::model::search::*;
use crate::platform::db::Db;
use crate::search::index::{self};
use crate::search::{product_url, sale_url, search_url};

/// The options a results page has ticked, by facet.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ticked<'a> {
    pub brands: &'a [String],
    pub colors: &'a [String],
    pub sizes: &'a [String],
}

impl Ticked<'_> {
    /// Whether an item passes the ticked brands (none ticked: every item does); the results
    /// and the other facets' counts both ask.
    pub fn brand_ok(&self, i: &CatalogItem) -> bool {
        self.brands.is_empty() || self.brands.contains(&i.brand_slug)
    }
    pub fn color_ok(&self, i: &CatalogItem) -> bool {
        self.colors.is_empty() || self.colors.contains(&i.color)
    }
    /// `sized`: the items with a ticked size in stock (`with_sizes`).
    pub fn size_ok(&self, i: &CatalogItem, sized: &HashSet<i64>) -> bool {
        self.sizes.is_empty() || sized.contains(&i.id)
    }
}

/// The ticked values of a facet that no option shows, to show back with 0. A ticked value
/// comes from the address: one no item could carry (a control character) is left out.
fn unseen_ticked(ticked: &[String], seen: impl Fn(&str) -> bool) -> impl Iterator<Item = &String> {
    ticked
        .iter()
        .filter(move |s| !s.chars().any(char::is_control) && !seen(s))
}

/// Counts per option of one facet, over the items that pass the *other* facets' ticks (so a
/// ticked brand's neighbours still show what ticking them too would add, while colours and
/// sizes count only that brand's items). A ticked option with nothing left keeps its place
/// with 0, so it can be unticked. Options come in label order.
fn facet_options<'i>(
    items: impl Iterator<Item = &'i CatalogItem>,
    key: impl Fn(&CatalogItem) -> (String, String),
    ticked: &[String],
    label_of: impl Fn(&str) -> String,
) -> Vec<FilterOption> {
    let mut m: std::collections::BTreeMap<(String, String), i64> = Default::default();
    for i in items {
        *m.entry(key(i)).or_default() += 1;
    }
    let unseen: Vec<&String> =
        unseen_ticked(ticked, |slug| m.keys().any(|(_, s)| s == slug)).collect();
    for slug in unseen {
        m.insert((label_of(slug), slug.clone()), 0);
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
        .collect()
}

/// Filters of the products matching the query, with counts (the catalog's shape); each
/// facet counts under the other facets' ticks ([`facet_options`]).
pub async fn search_filters(
    db: &Db,
    indexes: &SearchIndexes,
    site_id: u16,
    q: &str,
    ticked: Ticked<'_>,
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
    let sized = with_sizes(db, &ids, ticked.sizes).await?;
    let brand_label = |slug: &str| {
        items
            .iter()
            .find(|i| i.brand_slug == slug)
            .map_or_else(|| slug.to_string(), |i| i.brand.clone())
    };
    let brands = facet_options(
        items
            .iter()
            .filter(|i| ticked.color_ok(i) && ticked.size_ok(i, &sized)),
        |i| (i.brand.clone(), i.brand_slug.clone()),
        ticked.brands,
        brand_label,
    );
    let colors = facet_options(
        items
            .iter()
            .filter(|i| ticked.brand_ok(i) && ticked.size_ok(i, &sized)),
        |i| (i.color.clone(), i.color.clone()),
        ticked.colors,
        str::to_string,
    );
    let live_ids: Vec<i64> = items
        .iter()
        .filter(|i| ticked.brand_ok(i) && ticked.color_ok(i))
        .map(|i| i.id)
        .collect();
    let mut sizes = if live_ids.is_empty() {
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
    let unseen: Vec<String> =
        unseen_ticked(ticked.sizes, |size| sizes.iter().any(|o| o.slug == size))
            .cloned()
            .collect();
    for size in unseen {
        sizes.push(FilterOption {
            id: size.clone(),
            slug: size.clone(),
            name: size.clone(),
            label: size.clone(),
            count: 0,
        });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, brand: &str, color: &str) -> CatalogItem {
        CatalogItem {
            id,
            sale_id: 1,
            item_type: 1,
            name: "Robe".into(),
            brand: brand.to_uppercase(),
            brand_slug: brand.into(),
            color: color.into(),
            image_url: String::new(),
            price: crate::model::catalog_api::Price {
                value: 1000,
                retail_value: 2000,
                unit: "EUR".into(),
            },
            favorite: false,
            availability: crate::model::catalog_api::Availability::Available,
            tier: String::new(),
            delivery_mode: 0,
            seller_kind: String::new(),
            carousel: Vec::new(),
        }
    }

    #[test]
    fn a_ticked_option_left_empty_stays_to_be_unticked() {
        let items = [
            item(1, "arbor", "rouge"),
            item(2, "noa", "bleu"),
            item(3, "noa", "rouge"),
        ];
        let ticked = ["kira".to_string(), "a\u{0}b".to_string()];
        let brands = facet_options(
            items.iter(),
            |i| (i.brand.clone(), i.brand_slug.clone()),
            &ticked,
            |s| s.to_uppercase(),
        );
        let got: Vec<(&str, i64)> = brands.iter().map(|o| (o.slug.as_str(), o.count)).collect();
        assert_eq!(got, [("arbor", 1), ("kira", 0), ("noa", 2)]);
        assert_eq!(brands[1].label, "KIRA");
        let colors = facet_options(
            items.iter().filter(|i| i.brand_slug == "noa"),
            |i| (i.color.clone(), i.color.clone()),
            &[],
            str::to_string,
        );
        let got: Vec<(&str, i64)> = colors.iter().map(|o| (o.slug.as_str(), o.count)).collect();
        assert_eq!(got, [("bleu", 1), ("rouge", 1)]);
    }
}

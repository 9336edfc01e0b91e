//! The filters of a catalog (brands, colours, sizes, price, categories).
use sqlx::any::AnyRow;
use sqlx::Row;

use super::*;
use crate::model::catalog_api::*;
use crate::platform::db::Db;

pub async fn filters(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    universe_id: i64,
    now: i64,
) -> Result<Vec<Filter>, sqlx::Error> {
    let base = ContentQuery::default();
    let mut p = Params { values: vec![] };
    let w = where_clause(&mut p, site_id, sale_id, universe_id, now, &base);
    let from = "FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id";
    let brand_sql = format!("SELECT b.name AS label, b.slug AS slug, COUNT(*) AS n {from} WHERE {w} AND b.id IS NOT NULL GROUP BY b.name, b.slug ORDER BY b.name");
    let color_sql = format!("SELECT pr.color AS label, pr.color AS slug, COUNT(*) AS n {from} WHERE {w} GROUP BY pr.color ORDER BY pr.color");
    let size_sql = format!(
        "SELECT o.label AS label, o.label AS slug, COUNT(DISTINCT pr.id) AS n {from} JOIN product_options o ON o.product_id = pr.id
          WHERE {w} AND o.stock - o.held - o.sold > 0 GROUP BY o.label ORDER BY MIN(o.position)"
    );
    let options = |rows: Vec<AnyRow>| -> Result<Vec<FilterOption>, sqlx::Error> {
        rows.iter()
            .map(|r| {
                let slug: String = r.try_get("slug")?;
                let label: String = r.try_get("label")?;
                Ok(FilterOption {
                    id: slug.clone(),
                    name: label.clone(),
                    label,
                    slug,
                    count: r.try_get("n")?,
                })
            })
            .collect()
    };
    let count_sql = format!("SELECT COUNT(*) AS n {from} WHERE {w}");
    let total: i64 = p.bind(&count_sql).fetch_one(&db.pool).await?.try_get("n")?;
    let stock_sql = format!(
        "SELECT COUNT(*) AS n {from} WHERE {w} AND EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = pr.id AND o.stock - o.held - o.sold > 0)"
    );
    let in_stock: i64 = p.bind(&stock_sql).fetch_one(&db.pool).await?.try_get("n")?;
    let range_sql = format!(
        "SELECT CAST(COALESCE(MIN(pr.price_cents), 0) AS BIGINT) AS lo, CAST(COALESCE(MAX(pr.price_cents), 0) AS BIGINT) AS hi {from} WHERE {w}"
    );
    let range = p.bind(&range_sql).fetch_one(&db.pool).await?;
    let (lo, hi): (i64, i64) = (range.try_get("lo")?, range.try_get("hi")?);
    let option = |id: &str, label: String, count: i64| FilterOption {
        id: id.into(),
        name: id.into(),
        label,
        slug: id.into(),
        count,
    };
    let brands = options(p.bind(&brand_sql).fetch_all(&db.pool).await?)?;
    Ok(vec![
        // Category: the universes below this one (or the sale's universes), as navigation.
        Filter {
            id: "category".into(),
            filter_type: "category".into(),
            label_key: "catalog.filter.category".into(),
            options: categories(db, sale_id, universe_id).await?,
            groups: Vec::new(),
        },
        Filter {
            id: "brand".into(),
            filter_type: "checkbox".into(),
            label_key: "catalog.filter.brand".into(),
            groups: crate::catalog::sections::brand_groups(&brands),
            options: brands,
        },
        Filter {
            id: "color".into(),
            filter_type: "chip".into(),
            label_key: "catalog.filter.color".into(),
            options: options(p.bind(&color_sql).fetch_all(&db.pool).await?)?,
            groups: Vec::new(),
        },
        Filter {
            id: "size".into(),
            filter_type: "checkbox".into(),
            label_key: "catalog.filter.size".into(),
            options: options(p.bind(&size_sql).fetch_all(&db.pool).await?)?,
            groups: Vec::new(),
        },
        Filter {
            id: "stock".into(),
            filter_type: "radio".into(),
            label_key: "catalog.filter.stock".into(),
            options: vec![
                option("all", "catalog.filter.stock.all".into(), total),
                option("in", "catalog.filter.stock.in".into(), in_stock),
            ],
            groups: Vec::new(),
        },
        // Range: the lowest and highest prices (cents) of the universe.
        Filter {
            id: "price".into(),
            filter_type: "range".into(),
            label_key: "catalog.filter.price".into(),
            options: vec![
                option("min", lo.to_string(), lo),
                option("max", hi.to_string(), hi),
            ],
            groups: Vec::new(),
        },
        // Hidden: the sale itself, sent back with every search but never shown.
        Filter {
            id: "sale".into(),
            filter_type: "hidden".into(),
            label_key: String::new(),
            options: vec![option(&sale_id.to_string(), sale_id.to_string(), total)],
            groups: Vec::new(),
        },
    ])
}

/// Category options: sub-universes of `universe_id`, or the top universes for 0, each
/// with its number of items (its own and its sub-universes'). A category with no item
/// shown is not offered: it would lead to an empty page.
pub(super) async fn categories(
    db: &Db,
    sale_id: i64,
    universe_id: i64,
) -> Result<Vec<FilterOption>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT u.id, u.title,
                (SELECT COUNT(*) FROM products pr WHERE pr.sale_id = $1 AND pr.moderation IN ('', 'restricted')
                   AND (pr.universe_id = u.id OR pr.universe_id IN (SELECT c.id FROM universes c WHERE c.parent_id = u.id))) AS n
           FROM universes u
          WHERE u.sale_id = $1 AND ((u.parent_id IS NULL AND $2 = 0) OR u.parent_id = $2)
          ORDER BY u.position, u.id",
    )
    .bind(sale_id)
    .bind(universe_id)
    .fetch_all(&db.pool)
    .await?;
    let mut options = Vec::with_capacity(rows.len());
    for r in &rows {
        let count: i64 = r.try_get("n")?;
        if count == 0 {
            continue;
        }
        let id: i64 = r.try_get("id")?;
        let title: String = r.try_get("title")?;
        options.push(FilterOption {
            id: id.to_string(),
            name: title.clone(),
            label: title,
            slug: id.to_string(),
            count,
        });
    }
    Ok(options)
}

//! Catalog reads (spec 000 §7 Catalog). Only live sales of the request's site are visible.
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::model::catalog_api::*;
use crate::platform::db::Db;
use crate::platform::sql::{live_window, LIVE_SALE};

/// Query of the catalog content call and of the catalog page.
#[derive(Clone, Debug, Default)]
pub struct ContentQuery {
    pub in_stock: bool,
    pub limit: i64,
    pub offset: i64,
    pub sort: Option<String>,
    pub search_term: Option<String>,
    pub brands: Vec<String>,
    pub colors: Vec<String>,
    pub sizes: Vec<String>,
    /// Price range in cents, both ends included.
    pub price_min: Option<i64>,
    pub price_max: Option<i64>,
    pub request_id: i64,
}

pub const MAX_LIMIT: i64 = 96;

async fn live_sale_row(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<Option<AnyRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT s.id, s.name, s.offer_type, s.ends_at, s.description, s.legal_merchant, s.legal_terms,
                s.with_quotation_price, s.with_map
           FROM sales s WHERE s.id = $1 AND s.site_id = $2 AND {}",
        live_window("$3")
    ))
    .bind(sale_id)
    .bind(i64::from(site_id))
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Whether a sale is live on the site, without loading its tree.
pub async fn sale_is_live(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    Ok(live_sale_row(db, site_id, sale_id, now).await?.is_some())
}

pub async fn sale(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    now: i64,
) -> Result<Option<Sale>, sqlx::Error> {
    let Some(r) = live_sale_row(db, site_id, sale_id, now).await? else {
        return Ok(None);
    };
    let universes = catalog_tree(db, sale_id).await?;
    Ok(Some(Sale {
        id: sale_id,
        name: r.try_get("name")?,
        offer_type: r.try_get("offer_type")?,
        end_date: r.try_get("ends_at")?,
        banner: format!("/img/sale/{sale_id}/banner.svg"),
        logo: format!("/img/sale/{sale_id}/logo.svg"),
        description: r.try_get("description")?,
        features: SaleFeatures {
            with_quotation_price: r.try_get::<i64, _>("with_quotation_price")? == 1,
            with_map: r.try_get::<i64, _>("with_map")? == 1,
        },
        legal: SaleLegal {
            merchant: r.try_get("legal_merchant")?,
            terms_of_service: r.try_get("legal_terms")?,
            products_listing_cgu: String::new(),
        },
        universes,
    }))
}

/// Universes and sub-universes of a sale with the ids of their products.
pub async fn catalog_tree(db: &Db, sale_id: i64) -> Result<Vec<Universe>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, parent_id, title FROM universes WHERE sale_id = $1 ORDER BY position, id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    let products = sqlx::query(
        "SELECT id, universe_id FROM products WHERE sale_id = $1 ORDER BY position, id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    let mut by_universe: std::collections::HashMap<i64, Vec<i64>> = Default::default();
    for p in &products {
        by_universe
            .entry(p.try_get("universe_id")?)
            .or_default()
            .push(p.try_get("id")?);
    }
    let mut flat = Vec::new();
    for r in &rows {
        let id: i64 = r.try_get("id")?;
        flat.push((
            id,
            r.try_get::<Option<i64>, _>("parent_id")?,
            r.try_get::<String, _>("title")?,
        ));
    }
    let universe = |id: i64, title: String, subs: Vec<Universe>| Universe {
        id,
        title,
        products: by_universe.get(&id).cloned().unwrap_or_default(),
        sub_universes: subs,
    };
    Ok(flat
        .iter()
        .filter(|(_, parent, _)| parent.is_none())
        .map(|(id, _, title)| {
            let subs = flat
                .iter()
                .filter(|(_, parent, _)| *parent == Some(*id))
                .map(|(sid, _, st)| universe(*sid, st.clone(), vec![]))
                .collect();
            universe(*id, title.clone(), subs)
        })
        .collect())
}

/// Builds `$N` placeholders as values are pushed.
struct Params {
    values: Vec<ParamValue>,
}
enum ParamValue {
    I(i64),
    T(String),
}
impl Params {
    fn push_i(&mut self, v: i64) -> String {
        self.values.push(ParamValue::I(v));
        format!("${}", self.values.len())
    }
    fn push_t(&mut self, v: String) -> String {
        self.values.push(ParamValue::T(v));
        format!("${}", self.values.len())
    }
    fn list(&mut self, vs: &[String]) -> String {
        vs.iter()
            .map(|v| self.push_t(v.clone()))
            .collect::<Vec<_>>()
            .join(", ")
    }
    fn bind<'q>(
        &'q self,
        sql: &'q str,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
        let mut q = sqlx::query(sql);
        for v in &self.values {
            q = match v {
                ParamValue::I(i) => q.bind(*i),
                ParamValue::T(t) => q.bind(t.as_str()),
            };
        }
        q
    }
}

fn where_clause(
    p: &mut Params,
    site_id: u16,
    sale_id: i64,
    universe_id: i64,
    now: i64,
    q: &ContentQuery,
) -> String {
    let mut w = vec![
        format!("s.site_id = {}", p.push_i(i64::from(site_id))),
        format!("s.id = {}", p.push_i(sale_id)),
        live_window(&p.push_i(now)),
    ];
    if universe_id > 0 {
        let u = p.push_i(universe_id);
        w.push(format!("(pr.universe_id = {u} OR pr.universe_id IN (SELECT id FROM universes WHERE parent_id = {u}))"));
    }
    if !q.brands.is_empty() {
        w.push(format!("b.slug IN ({})", p.list(&q.brands)));
    }
    if !q.colors.is_empty() {
        w.push(format!("pr.color IN ({})", p.list(&q.colors)));
    }
    if !q.sizes.is_empty() {
        w.push(format!(
            "EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = pr.id AND o.stock - o.held - o.sold > 0 AND o.label IN ({}))",
            p.list(&q.sizes)
        ));
    }
    if let Some(min) = q.price_min {
        w.push(format!("pr.price_cents >= {}", p.push_i(min)));
    }
    if let Some(max) = q.price_max {
        w.push(format!("pr.price_cents <= {}", p.push_i(max)));
    }
    if q.in_stock {
        w.push(
            "EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = pr.id AND o.stock - o.held - o.sold > 0)"
                .into(),
        );
    }
    if let Some(term) = q.search_term.as_ref().filter(|t| !t.trim().is_empty()) {
        let like = p.push_t(format!("%{}%", term.trim().to_lowercase()));
        w.push(format!(
            "(LOWER(pr.name) LIKE {like} OR LOWER(COALESCE(b.name, '')) LIKE {like})"
        ));
    }
    w.join(" AND ")
}

fn order_by(sort: Option<&str>) -> &'static str {
    match sort {
        Some("price_asc") => "pr.price_cents ASC, pr.id",
        Some("price_desc") => "pr.price_cents DESC, pr.id",
        Some("discount") => {
            "(pr.retail_price_cents - pr.price_cents) * 100 / pr.retail_price_cents DESC, pr.id"
        }
        _ => "pr.position, pr.id",
    }
}

pub(crate) const ITEM_COLUMNS: &str = "pr.id, pr.sale_id, pr.item_type, pr.name, pr.color, pr.price_cents, pr.retail_price_cents,
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
        image_url: format!("/img/product/{id}.svg"),
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
    })
}

/// Items' availability as the member sees it: held stock is gone for others, InBasket or
/// MaxReached for the holder (cart rules).
pub(crate) async fn with_availability(
    db: &Db,
    member_id: Option<i64>,
    mut items: Vec<CatalogItem>,
    now: i64,
) -> Result<Vec<CatalogItem>, sqlx::Error> {
    let ids: Vec<i64> = items.iter().map(|i| i.id).collect();
    let map = crate::cart::store::availability(db, member_id, &ids, now).await?;
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

/// Catalog content: a page of items of a universe (0: all) with the total.
pub async fn content(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    universe_id: i64,
    q: &ContentQuery,
    member_id: Option<i64>,
    now: i64,
) -> Result<CatalogContent, sqlx::Error> {
    let limit = q.limit.clamp(1, MAX_LIMIT);
    let offset = q.offset.max(0);
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
    let items = with_availability(db, member_id, items, now).await?;
    Ok(CatalogContent {
        request_id: q.request_id,
        total,
        offset,
        limit,
        items,
    })
}

/// Filters of a universe with counts: brands (checkbox), colours (chip), sizes (checkbox).
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
                Ok(FilterOption {
                    id: slug.clone(),
                    label: r.try_get("label")?,
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
        label,
        slug: id.into(),
        count,
    };
    Ok(vec![
        // Category: the universes below this one (or the sale's universes), as navigation.
        Filter {
            id: "category".into(),
            filter_type: "category".into(),
            label_key: "catalog.filter.category".into(),
            options: categories(db, sale_id, universe_id).await?,
        },
        Filter {
            id: "brand".into(),
            filter_type: "checkbox".into(),
            label_key: "catalog.filter.brand".into(),
            options: options(p.bind(&brand_sql).fetch_all(&db.pool).await?)?,
        },
        Filter {
            id: "color".into(),
            filter_type: "chip".into(),
            label_key: "catalog.filter.color".into(),
            options: options(p.bind(&color_sql).fetch_all(&db.pool).await?)?,
        },
        Filter {
            id: "size".into(),
            filter_type: "checkbox".into(),
            label_key: "catalog.filter.size".into(),
            options: options(p.bind(&size_sql).fetch_all(&db.pool).await?)?,
        },
        Filter {
            id: "stock".into(),
            filter_type: "radio".into(),
            label_key: "catalog.filter.stock".into(),
            options: vec![
                option("all", "catalog.filter.stock.all".into(), total),
                option("in", "catalog.filter.stock.in".into(), in_stock),
            ],
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
        },
        // Hidden: the sale itself, sent back with every search but never shown.
        Filter {
            id: "sale".into(),
            filter_type: "hidden".into(),
            label_key: String::new(),
            options: vec![option(&sale_id.to_string(), sale_id.to_string(), total)],
        },
    ])
}

/// Category options: sub-universes of `universe_id`, or the top universes for 0, each
/// with its number of items (its own and its sub-universes').
async fn categories(
    db: &Db,
    sale_id: i64,
    universe_id: i64,
) -> Result<Vec<FilterOption>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT u.id, u.title,
                (SELECT COUNT(*) FROM products pr WHERE pr.sale_id = $1
                   AND (pr.universe_id = u.id OR pr.universe_id IN (SELECT c.id FROM universes c WHERE c.parent_id = u.id))) AS n
           FROM universes u
          WHERE u.sale_id = $1 AND ((u.parent_id IS NULL AND $2 = 0) OR u.parent_id = $2)
          ORDER BY u.position, u.id",
    )
    .bind(sale_id)
    .bind(universe_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            Ok(FilterOption {
                id: id.to_string(),
                label: r.try_get("title")?,
                slug: id.to_string(),
                count: r.try_get("n")?,
            })
        })
        .collect()
}

pub async fn item_by_id(
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
    let found = p
        .bind(&sql)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| item(&r, &favourites))
        .transpose()?;
    match found {
        Some(i) => Ok(with_availability(db, member_id, vec![i], now).await?.pop()),
        None => Ok(None),
    }
}

pub async fn item_options(
    db: &Db,
    site_id: u16,
    sale_id: i64,
    item_id: i64,
    member_id: Option<i64>,
    now: i64,
) -> Result<Option<Vec<ItemOption>>, sqlx::Error> {
    if item_by_id(db, site_id, sale_id, item_id, None, now)
        .await?
        .is_none()
    {
        return Ok(None);
    }
    let rows = sqlx::query(
        "SELECT id, label, stock - held - sold AS left_units FROM product_options WHERE product_id = $1 ORDER BY position, id",
    )
    .bind(item_id)
    .fetch_all(&db.pool)
    .await?;
    // Held units count as gone for everyone else; the holder sees them as in the basket.
    let availability = crate::cart::store::option_availability(db, member_id, item_id, now).await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get("id")?;
            let stock: i64 = r.try_get("left_units")?;
            Ok(ItemOption {
                id,
                label: r.try_get("label")?,
                stock,
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
    if item_by_id(db, site_id, sale_id, item_id, None, now)
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
        .execute(&db.pool)
        .await?;
    } else {
        sqlx::query("DELETE FROM favourites WHERE member_id = $1 AND product_id = $2")
            .bind(member_id)
            .bind(item_id)
            .execute(&db.pool)
            .await?;
    }
    Ok(true)
}

const ITEM_FROM: &str =
    "FROM products pr JOIN sales s ON s.id = pr.sale_id LEFT JOIN brands b ON b.id = pr.brand_id";

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
    member_id: Option<i64>,
    now: i64,
) -> Result<Option<(String, CatalogContent)>, sqlx::Error> {
    let Some(name) = sqlx::query_scalar::<_, String>("SELECT name FROM brands WHERE id = $1")
        .bind(brand_id)
        .fetch_optional(&db.pool)
        .await?
    else {
        return Ok(None);
    };
    let (limit, offset) = (limit.clamp(1, MAX_LIMIT), offset.max(0));
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) {ITEM_FROM} WHERE {LIVE_SALE} AND pr.brand_id = $3"
    ))
    .bind(i64::from(site_id))
    .bind(now)
    .bind(brand_id)
    .fetch_one(&db.pool)
    .await?;
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} {ITEM_FROM} WHERE {LIVE_SALE} AND pr.brand_id = $3
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
    let items = with_availability(db, member_id, items, now).await?;
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
    now: i64,
) -> Result<Vec<CatalogItem>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} {ITEM_FROM} JOIN favourites f ON f.product_id = pr.id AND f.member_id = $3
          WHERE {LIVE_SALE} ORDER BY f.created_at DESC, pr.id"
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
    with_availability(db, Some(member_id), items, now).await
}

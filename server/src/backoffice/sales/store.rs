//! The sales' SQL for the back office: lists with filters, one sale, its settings, a new
//! sale or a copy, archiving, and the products and options of a sale.
use sqlx::{Any, Row, Transaction};

use app::platform::db::Db;

/// Sales made in the back office have ids from here up: the demo data's own ids stay below,
/// and the demo's start-up date refresh leaves these alone.
pub const FIRST_OPERATOR_SALE_ID: i64 = 1_000_000;

#[derive(Clone, Debug, Default)]
pub struct SaleRow {
    pub id: i64,
    pub site_id: i64,
    pub name: String,
    pub offer_type: String,
    pub campaign_kind: String,
    pub description: String,
    pub legal_merchant: String,
    pub legal_terms: String,
    pub products_listing_cgu: String,
    pub seo: super::rules::SaleSeo,
    pub starts_at: i64,
    pub ends_at: i64,
    pub with_quotation_price: bool,
    pub with_map: bool,
    pub archived_at: Option<i64>,
    /// Uploaded banner and logo (`sale_pictures`), none for the shop's drawing.
    pub banner_image_id: Option<i64>,
    pub logo_image_id: Option<i64>,
    pub presentation: super::rules::Presentation,
}

const COLUMNS: &str =
    "id, site_id, name, offer_type, campaign_kind, description, legal_merchant, legal_terms, products_listing_cgu, \
                       seo_title, seo_description, seo_footer, \
                       starts_at, ends_at, with_quotation_price, with_map, archived_at, banner_image_id, logo_image_id, \
                       catalog_type, marketing_banner_title, marketing_banner_text, marketing_insert_title, marketing_insert_text";

fn sale(r: &sqlx::any::AnyRow) -> Result<SaleRow, sqlx::Error> {
    Ok(SaleRow {
        id: r.try_get("id")?,
        site_id: r.try_get("site_id")?,
        name: r.try_get("name")?,
        offer_type: r.try_get("offer_type")?,
        campaign_kind: r.try_get("campaign_kind")?,
        description: r.try_get("description")?,
        legal_merchant: r.try_get("legal_merchant")?,
        legal_terms: r.try_get("legal_terms")?,
        products_listing_cgu: r.try_get("products_listing_cgu")?,
        seo: super::rules::SaleSeo {
            title: r.try_get("seo_title")?,
            description: r.try_get("seo_description")?,
            footer: r.try_get("seo_footer")?,
        },
        starts_at: r.try_get("starts_at")?,
        ends_at: r.try_get("ends_at")?,
        with_quotation_price: r.try_get::<i64, _>("with_quotation_price")? != 0,
        with_map: r.try_get::<i64, _>("with_map")? != 0,
        archived_at: r.try_get("archived_at")?,
        banner_image_id: r.try_get("banner_image_id")?,
        logo_image_id: r.try_get("logo_image_id")?,
        presentation: super::rules::Presentation {
            catalog_type: r.try_get("catalog_type")?,
            banner_title: r.try_get("marketing_banner_title")?,
            banner_text: r.try_get("marketing_banner_text")?,
            insert_title: r.try_get("marketing_insert_title")?,
            insert_text: r.try_get("marketing_insert_text")?,
        },
    })
}

#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct Filter {
    pub q: String,
    pub site: String,
    pub state: String,
    pub page: i64,
}

pub const PAGE_SIZE: i64 = 50;

/// One page of sales matching `f` at `now`, soonest-closing first, and whether more follow.
pub async fn list(db: &Db, f: &Filter, now: i64) -> Result<(Vec<SaleRow>, bool), sqlx::Error> {
    let like = format!("%{}%", f.q.trim().to_lowercase().replace(['%', '_'], ""));
    let site: i64 = f.site.parse().unwrap_or(0);
    let sql = format!(
        "SELECT {COLUMNS} FROM sales
         WHERE ($1 = '%%' OR LOWER(name) LIKE $1 OR CAST(id AS TEXT) = $7)
           AND ($2 = 0 OR site_id = $2)
           AND (($3 = 'archived' AND archived_at IS NOT NULL)
             OR ($3 <> 'archived' AND archived_at IS NULL AND (
                   $3 = ''
                OR ($3 = 'live' AND starts_at <= $4 AND ends_at > $4)
                OR ($3 = 'upcoming' AND starts_at > $4)
                OR ($3 = 'ended' AND ends_at <= $4))))
         ORDER BY CASE WHEN ends_at > $4 THEN 0 ELSE 1 END, starts_at, id
         LIMIT $5 OFFSET $6"
    );
    let rows = sqlx::query(&sql)
        .bind(&like)
        .bind(site)
        .bind(f.state.trim())
        .bind(now)
        .bind(PAGE_SIZE + 1)
        .bind(f.page.max(0) * PAGE_SIZE)
        .bind(f.q.trim())
        .fetch_all(&db.pool)
        .await?;
    let more = rows.len() as i64 > PAGE_SIZE;
    let rows = rows
        .iter()
        .take(PAGE_SIZE as usize)
        .map(sale)
        .collect::<Result<_, _>>()?;
    Ok((rows, more))
}

pub async fn by_id(db: &Db, id: i64) -> Result<Option<SaleRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM sales WHERE id = $1");
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .as_ref()
        .map(sale)
        .transpose()
}

pub async fn by_id_tx(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<Option<SaleRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM sales WHERE id = $1");
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .as_ref()
        .map(sale)
        .transpose()
}

/// The settings an operator edits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub name: String,
    pub offer_type: String,
    pub description: String,
    pub legal_merchant: String,
    pub legal_terms: String,
    /// None: as it is (a feed that does not say).
    pub products_listing_cgu: Option<String>,
    /// None: as it is (a feed that does not say).
    pub seo: Option<super::rules::SaleSeo>,
    pub starts_at: i64,
    pub ends_at: i64,
    pub with_quotation_price: bool,
    pub with_map: bool,
    /// None: as it is (a feed that does not say).
    pub presentation: Option<super::rules::Presentation>,
}

/// The catalog page's layout and marketing messages of sale `id`.
async fn set_presentation(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    p: &super::rules::Presentation,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sales SET catalog_type = $2, marketing_banner_title = $3, marketing_banner_text = $4,
                marketing_insert_title = $5, marketing_insert_text = $6
         WHERE id = $1",
    )
    .bind(id)
    .bind(p.catalog_type)
    .bind(&p.banner_title)
    .bind(&p.banner_text)
    .bind(&p.insert_title)
    .bind(&p.insert_text)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The listing conditions of sale `id` (empty: no intermediate step).
async fn set_listing_conditions(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    conditions: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sales SET products_listing_cgu = $2 WHERE id = $1")
        .bind(id)
        .bind(conditions)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The SEO settings of sale `id`.
async fn set_seo(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    seo: &super::rules::SaleSeo,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sales SET seo_title = $2, seo_description = $3, seo_footer = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(&seo.title)
    .bind(&seo.description)
    .bind(&seo.footer)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn update(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    s: &Settings,
) -> Result<u64, sqlx::Error> {
    let n = sqlx::query(
        "UPDATE sales SET name = $2, slug = $3, offer_type = $4, description = $5, legal_merchant = $6,
                legal_terms = $7, starts_at = $8, ends_at = $9, with_quotation_price = $10, with_map = $11
         WHERE id = $1 AND archived_at IS NULL",
    )
    .bind(id)
    .bind(&s.name)
    .bind(app::text::slug::slug(&s.name))
    .bind(&s.offer_type)
    .bind(&s.description)
    .bind(&s.legal_merchant)
    .bind(&s.legal_terms)
    .bind(s.starts_at)
    .bind(s.ends_at)
    .bind(i64::from(s.with_quotation_price))
    .bind(i64::from(s.with_map))
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if let (1, Some(p)) = (n, &s.presentation) {
        set_presentation(tx, id, p).await?;
    }
    if let (1, Some(c)) = (n, &s.products_listing_cgu) {
        set_listing_conditions(tx, id, c).await?;
    }
    if let (1, Some(seo)) = (n, &s.seo) {
        set_seo(tx, id, seo).await?;
    }
    Ok(n)
}

/// The next id of `table` (the demo's rows have fixed ids, so these tables have no
/// sequence), at least `floor`. On PostgreSQL two operators' writes could read the same
/// maximum and one would fail on the key: a lock per table, held to the end of the
/// transaction, takes them one after the other (SQLite has one writer already).
pub(crate) async fn next_id(
    tx: &mut Transaction<'static, Any>,
    table: &str,
    floor: i64,
) -> Result<i64, sqlx::Error> {
    if tx.backend_name() == "PostgreSQL" {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('rosace-next-id:' || $1))")
            .bind(table)
            .execute(&mut **tx)
            .await?;
    }
    let max: Option<i64> = sqlx::query_scalar(&format!("SELECT MAX(id) FROM {table}"))
        .fetch_one(&mut **tx)
        .await?;
    Ok(max.unwrap_or(0).max(floor - 1) + 1)
}

/// Where a new sale goes and what it starts with.
pub struct NewSale<'a> {
    /// Its id when the caller sets it (the demo's feed), else the next operator id.
    pub id: Option<i64>,
    pub site_id: i64,
    pub campaign_kind: &'a str,
    /// The universe made with it for its products, if any.
    pub universe_title: Option<&'a str>,
}

/// A new sale; its id.
pub async fn insert(
    tx: &mut Transaction<'static, Any>,
    new: &NewSale<'_>,
    s: &Settings,
) -> Result<i64, sqlx::Error> {
    let (site_id, campaign_kind) = (new.site_id, new.campaign_kind);
    let id = match new.id {
        Some(id) => id,
        None => next_id(tx, "sales", FIRST_OPERATOR_SALE_ID).await?,
    };
    sqlx::query(
        "INSERT INTO sales (id, site_id, name, slug, offer_type, description, legal_merchant, legal_terms,
                            starts_at, ends_at, with_quotation_price, with_map, position, campaign_kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13)",
    )
    .bind(id)
    .bind(site_id)
    .bind(&s.name)
    .bind(app::text::slug::slug(&s.name))
    .bind(&s.offer_type)
    .bind(&s.description)
    .bind(&s.legal_merchant)
    .bind(&s.legal_terms)
    .bind(s.starts_at)
    .bind(s.ends_at)
    .bind(i64::from(s.with_quotation_price))
    .bind(i64::from(s.with_map))
    .bind(campaign_kind)
    .execute(&mut **tx)
    .await?;
    if let Some(p) = &s.presentation {
        set_presentation(tx, id, p).await?;
    }
    if let Some(c) = &s.products_listing_cgu {
        set_listing_conditions(tx, id, c).await?;
    }
    if let Some(seo) = &s.seo {
        set_seo(tx, id, seo).await?;
    }
    if let Some(title) = new.universe_title {
        add_universe(tx, None, id, None, title).await?;
    }
    Ok(id)
}

/// A copy of sale `from` on `site_id`, closed (both dates at `now`) until an operator sets
/// its dates, with its universes, products and options (stock copied, nothing held or
/// sold); its id.
pub async fn duplicate(
    tx: &mut Transaction<'static, Any>,
    from: &SaleRow,
    site_id: i64,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let id = next_id(tx, "sales", FIRST_OPERATOR_SALE_ID).await?;
    sqlx::query(
        "INSERT INTO sales (id, site_id, name, slug, offer_type, campaign_kind, catalog_type, seller_kind, tier,
                            description, legal_merchant, legal_terms, starts_at, ends_at, with_quotation_price,
                            with_map, position, banner_image_id, logo_image_id)
         SELECT $1, $2, name, slug, offer_type, campaign_kind, catalog_type, seller_kind, tier, description,
                legal_merchant, legal_terms, $3, $3, with_quotation_price, with_map, position,
                banner_image_id, logo_image_id
         FROM sales WHERE id = $4",
    )
    .bind(id)
    .bind(site_id)
    .bind(now)
    .bind(from.id)
    .execute(&mut **tx)
    .await?;
    // Universes keep their tree: parents first (ordered by parent), each mapped to its copy.
    let universes = sqlx::query("SELECT id, parent_id, title, position FROM universes WHERE sale_id = $1 ORDER BY (parent_id IS NOT NULL), id")
        .bind(from.id)
        .fetch_all(&mut **tx)
        .await?;
    let mut map = std::collections::HashMap::new();
    for u in &universes {
        let old: i64 = u.try_get("id")?;
        let parent: Option<i64> = u.try_get("parent_id")?;
        let new = next_id(tx, "universes", 1).await?;
        sqlx::query("INSERT INTO universes (id, sale_id, parent_id, title, position) VALUES ($1, $2, $3, $4, $5)")
            .bind(new)
            .bind(id)
            .bind(parent.and_then(|p| map.get(&p).copied()))
            .bind(u.try_get::<String, _>("title")?)
            .bind(u.try_get::<i64, _>("position")?)
            .execute(&mut **tx)
            .await?;
        map.insert(old, new);
    }
    let products =
        sqlx::query("SELECT id, universe_id FROM products WHERE sale_id = $1 ORDER BY id")
            .bind(from.id)
            .fetch_all(&mut **tx)
            .await?;
    for p in &products {
        let old: i64 = p.try_get("id")?;
        let universe: i64 = p.try_get("universe_id")?;
        let new = next_id(tx, "products", 1).await?;
        sqlx::query(
            "INSERT INTO products (id, sale_id, universe_id, brand_id, name, slug, color, description_html, price_cents,
                                   retail_price_cents, delivery_mode, tier, seller_kind, item_type, lat_e6, lng_e6, position,
                                   image_id)
             SELECT $1, $2, $3, brand_id, name, slug, color, description_html, price_cents, retail_price_cents,
                    delivery_mode, tier, seller_kind, item_type, lat_e6, lng_e6, position, image_id
             FROM products WHERE id = $4",
        )
        .bind(new)
        .bind(id)
        .bind(map.get(&universe).copied().unwrap_or(universe))
        .bind(old)
        .execute(&mut **tx)
        .await?;
        let options =
            sqlx::query("SELECT id FROM product_options WHERE product_id = $1 ORDER BY id")
                .bind(old)
                .fetch_all(&mut **tx)
                .await?;
        for o in &options {
            let option: i64 = o.try_get("id")?;
            let new_option = next_id(tx, "product_options", 1).await?;
            sqlx::query(
                "INSERT INTO product_options (id, product_id, kind, label, stock, position, price_cents,
                                              retail_price_cents, image_id)
                 SELECT $1, $2, kind, label, stock, position, price_cents, retail_price_cents, image_id
                   FROM product_options WHERE id = $3",
            )
            .bind(new_option)
            .bind(new)
            .bind(option)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(id)
}

/// Archives a sale: it closes now (members see it ended) and leaves the lists.
pub async fn archive(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    now: i64,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE sales SET archived_at = $2, ends_at = CASE WHEN ends_at > $2 THEN $2 ELSE ends_at END,
                starts_at = CASE WHEN starts_at > $2 THEN $2 ELSE starts_at END
         WHERE id = $1 AND archived_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

// ------------------------------------------------------------------ products and options

#[derive(Clone, Debug)]
pub struct OptionStock {
    pub product_id: i64,
    pub product_name: String,
    /// Its brand's name (empty: none).
    pub brand: String,
    pub price_cents: i64,
    pub retail_price_cents: i64,
    pub image_id: Option<i64>,
    /// A travel offer: its inventory is the travel page's (`backoffice::travel`).
    pub is_travel: bool,
    pub option_id: Option<i64>,
    pub label: String,
    /// The option's own prices and picture, where it has them.
    pub option_price_cents: Option<i64>,
    pub option_retail_price_cents: Option<i64>,
    pub option_image_id: Option<i64>,
    pub stock: i64,
    pub held: i64,
    pub sold: i64,
}

/// Every product of the sale with its options (a product without options yet: one row
/// with no option).
pub async fn stock_of_sale(db: &Db, sale_id: i64) -> Result<Vec<OptionStock>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT p.id AS product_id, p.name, COALESCE(b.name, '') AS brand, p.price_cents, p.retail_price_cents, p.image_id, o.id AS option_id, o.label,
                o.stock, o.held, o.sold, o.price_cents AS option_price, o.retail_price_cents AS option_retail,
                o.image_id AS option_image,
                CAST(CASE WHEN EXISTS (SELECT 1 FROM travel_offers t WHERE t.product_id = p.id) THEN 1 ELSE 0 END AS BIGINT) AS is_travel
         FROM products p LEFT JOIN product_options o ON o.product_id = p.id
              LEFT JOIN brands b ON b.id = p.brand_id
         WHERE p.sale_id = $1 ORDER BY p.position, p.id, o.position, o.id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(OptionStock {
                product_id: r.try_get("product_id")?,
                product_name: r.try_get("name")?,
                brand: r.try_get("brand")?,
                price_cents: r.try_get("price_cents")?,
                retail_price_cents: r.try_get("retail_price_cents")?,
                image_id: r.try_get("image_id")?,
                is_travel: r.try_get::<i64, _>("is_travel")? == 1,
                option_id: r.try_get("option_id")?,
                label: r.try_get::<Option<String>, _>("label")?.unwrap_or_default(),
                option_price_cents: r.try_get("option_price")?,
                option_retail_price_cents: r.try_get("option_retail")?,
                option_image_id: r.try_get("option_image")?,
                stock: r.try_get::<Option<i64>, _>("stock")?.unwrap_or(0),
                held: r.try_get::<Option<i64>, _>("held")?.unwrap_or(0),
                sold: r.try_get::<Option<i64>, _>("sold")?.unwrap_or(0),
            })
        })
        .collect()
}

pub struct NewProduct {
    pub name: String,
    pub brand_id: Option<i64>,
    pub color: String,
    pub description_html: String,
    pub price_cents: i64,
    pub retail_price_cents: i64,
}

/// A new product at the end of its sale, in its first universe; its id (`given`, else the
/// next one).
pub async fn insert_product(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    sale_id: i64,
    p: &NewProduct,
) -> Result<i64, sqlx::Error> {
    let universe: i64 = sqlx::query_scalar(
        "SELECT MIN(id) FROM universes WHERE sale_id = $1 AND parent_id IS NULL",
    )
    .bind(sale_id)
    .fetch_one(&mut **tx)
    .await?;
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "products", 1).await?,
    };
    let position: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM products WHERE sale_id = $1")
        .bind(sale_id)
        .fetch_one(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO products (id, sale_id, universe_id, brand_id, name, slug, color, description_html, price_cents,
                               retail_price_cents, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(id)
    .bind(sale_id)
    .bind(universe)
    .bind(p.brand_id)
    .bind(&p.name)
    .bind(app::text::slug::slug(&p.name))
    .bind(&p.color)
    .bind(&p.description_html)
    .bind(p.price_cents)
    .bind(p.retail_price_cents)
    .bind(position)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn update_product(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    p: &NewProduct,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE products SET name = $2, slug = $3, brand_id = $4, color = $5, description_html = $6,
                price_cents = $7, retail_price_cents = $8 WHERE id = $1",
    )
    .bind(id)
    .bind(&p.name)
    .bind(app::text::slug::slug(&p.name))
    .bind(p.brand_id)
    .bind(&p.color)
    .bind(&p.description_html)
    .bind(p.price_cents)
    .bind(p.retail_price_cents)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub struct NewOption<'a> {
    pub kind: &'a str,
    pub label: &'a str,
    pub stock: i64,
    /// Its own prices; `None` for its product's.
    pub price_cents: Option<i64>,
    pub retail_price_cents: Option<i64>,
}

/// A new option at the end of its product's; its id (`given`, else the next one).
pub async fn insert_option(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    product_id: i64,
    o: &NewOption<'_>,
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "product_options", 1).await?,
    };
    let position: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM product_options WHERE product_id = $1")
            .bind(product_id)
            .fetch_one(&mut **tx)
            .await?;
    sqlx::query(
        "INSERT INTO product_options (id, product_id, kind, label, stock, position, price_cents, retail_price_cents)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(product_id)
    .bind(o.kind)
    .bind(o.label)
    .bind(o.stock)
    .bind(position)
    .bind(o.price_cents)
    .bind(o.retail_price_cents)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn brands(db: &Db) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, name FROM brands ORDER BY name")
        .fetch_all(&db.pool)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
        .collect()
}

/// The sale an option belongs to.
pub async fn sale_of_option(db: &Db, option_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT p.sale_id FROM product_options o JOIN products p ON p.id = o.product_id WHERE o.id = $1")
        .bind(option_id)
        .fetch_optional(&db.pool)
        .await
}

pub struct ProductPrices {
    pub sale_id: i64,
    pub price_cents: i64,
    pub retail_price_cents: i64,
}

/// A product's sale and prices, which its options' own prices are checked against.
pub async fn product_prices(
    db: &Db,
    product_id: i64,
) -> Result<Option<ProductPrices>, sqlx::Error> {
    let row =
        sqlx::query("SELECT sale_id, price_cents, retail_price_cents FROM products WHERE id = $1")
            .bind(product_id)
            .fetch_optional(&db.pool)
            .await?;
    row.map(|r| {
        Ok(ProductPrices {
            sale_id: r.try_get("sale_id")?,
            price_cents: r.try_get("price_cents")?,
            retail_price_cents: r.try_get("retail_price_cents")?,
        })
    })
    .transpose()
}

/// The sale and the product an option belongs to.
pub async fn product_of_option(db: &Db, option_id: i64) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT p.sale_id, p.id FROM product_options o JOIN products p ON p.id = o.product_id WHERE o.id = $1",
    )
    .bind(option_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
}

/// The sale a product belongs to.
pub async fn sale_of_product(db: &Db, product_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT sale_id FROM products WHERE id = $1")
        .bind(product_id)
        .fetch_optional(&db.pool)
        .await
}

/// A product as its edit form shows it.
pub struct ProductRow {
    pub sale_id: i64,
    pub name: String,
    pub brand_id: Option<i64>,
    pub color: String,
    pub description_html: String,
    pub price_cents: i64,
    pub retail_price_cents: i64,
    pub tier: String,
    pub delivery_mode: i64,
    pub seller_kind: String,
    pub universe_id: i64,
}

pub async fn product(db: &Db, id: i64) -> Result<Option<ProductRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT sale_id, name, brand_id, color, description_html, price_cents, retail_price_cents,
                tier, delivery_mode, seller_kind, universe_id
           FROM products WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(|r| {
        Ok(ProductRow {
            sale_id: r.try_get("sale_id")?,
            name: r.try_get("name")?,
            brand_id: r.try_get("brand_id")?,
            color: r.try_get("color")?,
            description_html: r.try_get("description_html")?,
            price_cents: r.try_get("price_cents")?,
            retail_price_cents: r.try_get("retail_price_cents")?,
            tier: r.try_get("tier")?,
            delivery_mode: r.try_get("delivery_mode")?,
            seller_kind: r.try_get("seller_kind")?,
            universe_id: r.try_get("universe_id")?,
        })
    })
    .transpose()
}

/// A sale's universes as a list to choose from: each top one, then its sub-universes as
/// `Top › Sub`, in the order of [`universes`].
pub async fn universe_choices(db: &Db, sale_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = universes(db, sale_id).await?;
    Ok(rows
        .iter()
        .map(|u| {
            let parent = u.parent_id.and_then(|p| rows.iter().find(|t| t.id == p));
            let label = match parent {
                Some(t) => format!("{} › {}", t.title, u.title),
                None => u.title.clone(),
            };
            (u.id, label)
        })
        .collect())
}

/// The labels and own prices of a product's options that have any.
pub async fn own_priced_options(
    tx: &mut Transaction<'static, Any>,
    product_id: i64,
) -> Result<Vec<(String, Option<i64>, Option<i64>)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT label, price_cents, retail_price_cents FROM product_options
          WHERE product_id = $1 AND (price_cents IS NOT NULL OR retail_price_cents IS NOT NULL)
          ORDER BY position, id",
    )
    .bind(product_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("label")?,
                r.try_get("price_cents")?,
                r.try_get("retail_price_cents")?,
            ))
        })
        .collect()
}

/// What the edit form sets besides the basics.
pub struct Placement<'a> {
    pub tier: &'a str,
    pub delivery_mode: i64,
    pub seller_kind: &'a str,
    pub universe_id: i64,
}

pub async fn set_placement(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    p: &Placement<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE products SET tier = $2, delivery_mode = $3, seller_kind = $4, universe_id = $5 WHERE id = $1",
    )
    .bind(id)
    .bind(p.tier)
    .bind(p.delivery_mode)
    .bind(p.seller_kind)
    .bind(p.universe_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A universe of a sale with what is in it.
pub struct UniverseRow {
    pub id: i64,
    pub parent_id: Option<i64>,
    pub title: String,
    pub products: i64,
    pub children: i64,
}

/// A sale's universes, each top one followed by its sub-universes.
pub async fn universes(db: &Db, sale_id: i64) -> Result<Vec<UniverseRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT u.id, u.parent_id, u.title,
                (SELECT COUNT(*) FROM products p WHERE p.universe_id = u.id) AS products,
                (SELECT COUNT(*) FROM universes c WHERE c.parent_id = u.id) AS children,
                COALESCE(t.position, u.position) AS top_position, COALESCE(t.id, u.id) AS top_id,
                CASE WHEN u.parent_id IS NULL THEN 0 ELSE 1 END AS depth
           FROM universes u LEFT JOIN universes t ON t.id = u.parent_id
          WHERE u.sale_id = $1
          ORDER BY top_position, top_id, depth, u.position, u.id",
    )
    .bind(sale_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(UniverseRow {
                id: r.try_get("id")?,
                parent_id: r.try_get("parent_id")?,
                title: r.try_get("title")?,
                products: r.try_get("products")?,
                children: r.try_get("children")?,
            })
        })
        .collect()
}

/// The sale a universe belongs to, with its parent.
pub async fn universe_owner(
    db: &Db,
    universe_id: i64,
) -> Result<Option<(i64, Option<i64>)>, sqlx::Error> {
    sqlx::query_as("SELECT sale_id, parent_id FROM universes WHERE id = $1")
        .bind(universe_id)
        .fetch_optional(&db.pool)
        .await
}

/// A new universe, last among its siblings; its id (`given`, else the next one).
pub async fn add_universe(
    tx: &mut Transaction<'static, Any>,
    given: Option<i64>,
    sale_id: i64,
    parent_id: Option<i64>,
    title: &str,
) -> Result<i64, sqlx::Error> {
    let id = match given {
        Some(id) => id,
        None => next_id(tx, "universes", 1).await?,
    };
    sqlx::query(
        "INSERT INTO universes (id, sale_id, parent_id, title, position)
         VALUES ($1, $2, $3, $4, (SELECT COUNT(*) FROM universes
                                   WHERE sale_id = $2 AND COALESCE(parent_id, 0) = COALESCE($3, 0)))",
    )
    .bind(id)
    .bind(sale_id)
    .bind(parent_id)
    .bind(title)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn rename_universe(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    title: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE universes SET title = $2 WHERE id = $1")
        .bind(id)
        .bind(title)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Removes a universe with no product and no sub-universe that is not its sale's last top
/// universe (a catalog opens on one). Answers whether it was removed.
pub async fn remove_universe(
    tx: &mut Transaction<'static, Any>,
    id: i64,
) -> Result<bool, sqlx::Error> {
    let removed = sqlx::query(
        "DELETE FROM universes WHERE id = $1
            AND NOT EXISTS (SELECT 1 FROM products WHERE universe_id = $1)
            AND NOT EXISTS (SELECT 1 FROM universes WHERE parent_id = $1)
            AND (parent_id IS NOT NULL OR (SELECT COUNT(*) FROM universes o
                  WHERE o.sale_id = (SELECT sale_id FROM universes WHERE id = $1) AND o.parent_id IS NULL) > 1)",
    )
    .bind(id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(removed == 1)
}
